/* Four falsely shared arrays whose reload counts the arguments set:
 * ./order RU RE.  Two worker threads take turns (a barrier between turns,
 * as in arrays.c), so the counts are fixed: in the exact mode, 2*(R-1)
 * false reloads for an array written for R rounds.
 *
 *   u, v    static volatile long [2], only indexed (pad-array): u written
 *           for RU rounds, v for the others (ROUNDS - RU)
 *   e, f    static volatile long [2], bumped through bump(&x[me]): their
 *           address is passed to a function (advice): e written for RE
 *           rounds, f for the others
 *
 * `order 900 900` and `order 100 100` give the same verdicts with the
 * figures' order swapped (t-order.sh: the plan's order must not follow
 * the figures).  Prints the counts, the same in every build. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 1000

static pthread_barrier_t bar __attribute__((aligned(64)));
static int ru = 500, re = 500;
static volatile long u[2] __attribute__((aligned(64)));
static volatile long v[2] __attribute__((aligned(64)));
static volatile long e[2] __attribute__((aligned(64)));
static volatile long f[2] __attribute__((aligned(64)));

__attribute__((noinline)) static void bump(volatile long *x)
{
    *x += 1;
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        for (int t = 0; t < 2; t++) {
            if (t == me) {
                if (i < ru)
                    u[me] = u[me] + 1;
                else
                    v[me] = v[me] + 1;
                bump(i < re ? &e[me] : &f[me]);
            }
            pthread_barrier_wait(&bar);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        ru = atoi(argv[1]);
        re = atoi(argv[2]);
    }
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("u %ld %ld v %ld %ld e %ld %ld f %ld %ld\n", u[0], u[1], v[0], v[1], e[0], e[1], f[0], f[1]);
    return 0;
}
