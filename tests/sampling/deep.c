/* deep.c — a known call chain, built -O2 without frame pointers
 * (tests/sampling/t-stacks.sh): main → mid_a → mid_b → leaf_spin, and with
 * "threads" two more threads thread_main → mid_a → mid_b → leaf_spin.
 * leaf_spin's loop keeps no frame pointer and uses rbp-free code, so a
 * frame-pointer walk could not get from it to main.
 *
 *   deep ITERATIONS [threads]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile unsigned long sink;

__attribute__((noinline)) void leaf_spin(unsigned long n)
{
    unsigned long x = sink;
    for (unsigned long i = 0; i < n; i++)
        x = x * 2862933555777941757ul + 3037000493ul;
    sink = x;
}

__attribute__((noinline)) void mid_b(unsigned long n)
{
    leaf_spin(n);
    sink++; /* no sibling call: keep this frame */
}

__attribute__((noinline)) void mid_a(unsigned long n)
{
    mid_b(n);
    sink++;
}

static void *thread_main(void *arg)
{
    mid_a(*(unsigned long *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000;
    int threads = argc > 2 && !strcmp(argv[2], "threads");
    pthread_t th[2];
    for (int i = 0; threads && i < 2; i++)
        if (pthread_create(&th[i], NULL, thread_main, &n))
            return 1;
    mid_a(n);
    for (int i = 0; threads && i < 2; i++)
        pthread_join(th[i], NULL);
    printf("%lu\n", sink & 1);
    return 0;
}
