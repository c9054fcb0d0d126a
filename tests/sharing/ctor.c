/* Instrumented accesses before main: constructors of default and of user
 * priority write globals (the inlined checks read the shadow without
 * testing its address: it must be mapped before they run), then two
 * threads take turns writing their own element of `long c[2]` as in
 * adjacent.c: 2 * (ROUNDS - 1) false-sharing reloads, no true ones. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000
volatile long c[2] __attribute__((aligned(64)));
volatile long early[64] __attribute__((aligned(64)));
static pthread_barrier_t bar;

__attribute__((constructor(101))) static void first(void)
{
    for (int i = 0; i < 64; i++)
        early[i] = i;
}

__attribute__((constructor)) static void second(void)
{
    for (int i = 0; i < 64; i++)
        early[i] += early[63 - i];
}

static void *worker(void *arg)
{
    long me = (long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        if (me == 0)
            c[0] = c[0] + 1;
        pthread_barrier_wait(&bar);
        if (me == 1)
            c[1] = c[1] + 1;
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    pthread_barrier_init(&bar, NULL, 2);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("c = %ld %ld early = %ld\n", c[0], c[1], early[5]);
    return 0;
}
