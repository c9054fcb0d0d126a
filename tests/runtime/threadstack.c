/* threadstack.c — a threshold event's stack in a thread the program
 * started (tests/runtime/t-start-cost.sh): threshold(count=5) on C, called
 * worker → B → C 10 times in a second thread; the handler sees B, then
 * worker, as C's callers.  `./threadstack cycles` also runs a cycles
 * region, whose probes measure their own cost once. */
#define _GNU_SOURCE
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../indicators/pcname.h"

static int events;
static char callers[2][64];

void on_hot(const struct perfinst_event *ev)
{
    if (events < 2)
        snprintf(callers[events], sizeof callers[0], "%s<%s<%s",
                 ev->nframes > 0 ? sym(ev->frames[0]) : "-", ev->nframes > 1 ? sym(ev->frames[1]) : "-",
                 ev->nframes > 2 ? sym(ev->frames[2]) : "-");
    events++;
}

PERFINST("threshold(count=5, handler=on_hot)")
__attribute__((noinline)) int C(int x) { return x * 2; }
__attribute__((noinline)) int B(int x) { return C(x) + 1; }

PERFINST("cycles(>1000000000)")
__attribute__((noinline)) int timed(int x) { return x * 7 + 1; }

void *worker(void *arg)
{
    long s = 0;
    for (int i = 0; i < 10; i++)
        s += B(i);
    *(long *)arg = s;
    return NULL;
}

int main(int argc, char **argv)
{
    long s = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, worker, &s) || pthread_join(t, NULL))
        return 1;
    if (argc > 1 && !strcmp(argv[1], "cycles"))
        s += timed(3);
    printf("events %d, sum %ld\n", events, s);
    for (int i = 0; i < 2 && i < events; i++)
        printf("event %d: %s\n", i + 1, callers[i]);
    return 0;
}
