/* A heap object allocated by uninstrumented code (foreign-lib.c), written
 * by two instrumented threads taking turns: T0 writes p->a, T1 p->b, one
 * line: 2*(R-1) false-sharing reloads on memory no allocation record names.
 * ./foreign [ROUNDS] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "foreign.h"

static struct {
    int rounds;
    struct pair *p;
} ctl __attribute__((aligned(64))) = {1000, NULL};
static pthread_barrier_t bar __attribute__((aligned(64)));

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    int rounds = ctl.rounds;
    struct pair *p = ctl.p;
    for (int i = 0; i < rounds; i++)
        for (int t = 0; t < 2; t++) {
            if (t == me) {
                if (me == 0)
                    p->a = p->a + 1;
                else
                    p->b = p->b + 1;
            }
            pthread_barrier_wait(&bar);
        }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        ctl.rounds = atoi(argv[1]);
    ctl.p = lib_make_pair();
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("a %ld b %ld\n", ctl.p->a, ctl.p->b);
    free(ctl.p);
    return 0;
}
