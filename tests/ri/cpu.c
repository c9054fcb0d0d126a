/* Runs sample points on chosen CPUs: argv[1] is "CPU:N,CPU:N,..." (pin the
 * thread to CPU, then N directed sample points); "rewind" as argv[2] then
 * sets rca = roa (clearing a halt) and runs argv[3]'s steps the same way.
 * Prints the alerts the handler saw. */
#define _GNU_SOURCE
#include <perfinst.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma perfinst sample(directed)
__attribute__((noinline)) int point(int x) { return x + 1; }

static int alerts[3];
static void on_alert(int kind, const struct perfinst_ri_controls *c)
{
    (void)c;
    if (kind >= 1 && kind <= 2)
        alerts[kind]++;
}

static int run(const char *steps)
{
    volatile int s = 0;
    char *copy = strdup(steps), *save = NULL;
    for (char *st = strtok_r(copy, ",", &save); st; st = strtok_r(NULL, ",", &save)) {
        int cpu = atoi(st), n = atoi(strchr(st, ':') + 1);
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) || sched_getcpu() != cpu) {
            printf("cannot run on CPU %d\n", cpu);
            exit(2);
        }
        for (int i = 0; i < n; i++)
            s += point(i);
    }
    free(copy);
    return s;
}

int main(int argc, char **argv)
{
    perfinst_ri_set_handler(on_alert);
    run(argv[1]);
    if (argc > 3 && !strcmp(argv[2], "rewind")) {
        struct perfinst_ri_controls c;
        perfinst_ri_store(&c);
        printf("before rewind: %s\n", c.flags & PERFINST_RI_HALTED ? "halted" : "running");
        c.rca = c.roa;
        perfinst_ri_modify(&c, PERFINST_RI_SET_RCA);
        perfinst_ri_store(&c);
        printf("after rewind: %s\n", c.flags & PERFINST_RI_HALTED ? "halted" : "running");
        run(argv[3]);
    }
    printf("alerts full %d halted %d\n", alerts[1], alerts[2]);
    return 0;
}
