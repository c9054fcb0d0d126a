/* Coalesced sharing checks (pass-sharing.cc): ./coalesce [ROUNDS]
 *
 * Two worker threads take turns (a barrier between turns, so every reload
 * count is fixed by the program).  In its turn, thread T read-modify-writes
 * the four fields of its own element of `pair`, one line-aligned array of
 * two 32-byte structs: the four accesses go through one pointer, at
 * offsets 0..31, in one block — one group, one check.  Thread 0 owns bytes
 * 0..31 of the line, thread 1 bytes 32..63: FALSE sharing, each thread's
 * first access of a turn (its `a`) reloading: R-1 per thread, in area +0
 * (thread 0) and +32 (thread 1).
 *
 * Before the turns, each thread also updates a struct it allocated, on a
 * line no other thread touches, PRIVATE_ROUNDS times (four fields through
 * one pointer in a long loop: checked once every 64 iterations, which skips
 * them once the runtime has seen the line's first accesses). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRIVATE_ROUNDS 1000

struct quad {
    long a, b, c, d;
};
static struct quad *pair; /* 2 elements, one line */
static int rounds = 1000;
static pthread_barrier_t bar;
/* memset through a pointer: not expanded inline, so not instrumented (the
 * zeroing is no access of the fixture's) */
static void *(*volatile zero)(void *, int, size_t) = memset;

/* The results come back in registers, never read from the shared memory:
 * the only accesses are the fixture's. */
static void *worker(void *arg)
{
    int me = (int)(long)arg;
    long sum = 0;
    volatile struct quad *q = aligned_alloc(64, 64); /* its own line, this thread's only */
    if (!q)
        return NULL;
    zero((void *)q, 0, 64);
    for (int i = 0; i < PRIVATE_ROUNDS; i++) {
        q->a += i;
        q->b += 2;
        q->c ^= i;
        q->d += 1;
        sum += i;
    }
    volatile struct quad *p = &pair[me];
    for (int i = 0; i < rounds; i++)
        for (int t = 0; t < 2; t++) {
            if (t == me) {
                p->a += 1;
                p->b += i;
                p->c += 3;
                p->d ^= i;
                sum += i;
            }
            pthread_barrier_wait(&bar);
        }
    return (void *)sum;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        rounds = atoi(argv[1]);
    pair = aligned_alloc(64, 64);
    if (!pair)
        return 1;
    zero(pair, 0, 64);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long sum = 0;
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        sum += (long)r;
    }
    printf("%ld\n", sum);
    return 0;
}
