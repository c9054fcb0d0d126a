/* html-full.c — for t-html-full.sh: a program with both stack samples and
 * sharing records.  main → run_phase → spin_hot spins on registers for a
 * while (the hot function of the flame graph), then two threads take turns
 * (a barrier between turns) incrementing their own element of `volatile
 * long slots[2]`: one cache line, FALSE sharing, 2*(ROUNDS-1) reloads.
 * spin_hot and run_phase are counted, so the page has hot functions too.
 *
 *   html-full ITERATIONS */
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 1000

volatile long slots[2] __attribute__((aligned(64)));
static pthread_barrier_t bar __attribute__((aligned(64)));
static unsigned long result __attribute__((aligned(64)));

PERFINST("count")
__attribute__((noinline)) unsigned long spin_hot(unsigned long n)
{
    unsigned long x = n;
    for (unsigned long i = 0; i < n; i++)
        x = x * 2862933555777941757ul + 3037000493ul;
    return x;
}

PERFINST("count")
__attribute__((noinline)) unsigned long run_phase(unsigned long n)
{
    unsigned long x = spin_hot(n);
    return x ^ (x >> 7); /* no sibling call: keep this frame */
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++)
        for (int t = 0; t < 2; t++) {
            if (t == me)
                slots[me] = slots[me] + 1;
            pthread_barrier_wait(&bar);
        }
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000;
    result = run_phase(n);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)i))
            return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%lu %ld %ld\n", result & 1, slots[0], slots[1]);
    return 0;
}
