/* Checks made once for several accesses (pass-sharing.cc): ./loops [ROUNDS [private]]
 *
 * Blocks: each of two workers sets 16 bytes of a line of its own with
 * memset, ROUNDS times (a constant length of at most a line: the inlined
 * check of the block's lines, insert_block_guarded): the runtime sees the
 * line's footprint (PERFINST_SHARING_SAMPLE accesses, two a round), then
 * none.  Then the workers take turns (a barrier between turns) setting
 * their own 16 bytes of one shared line with memset: FALSE sharing, ROUNDS
 * - 1 reloads per thread, every block operation on it seen in the exact
 * mode.
 *
 * Loops: a loop of 8 iterations whose two accesses walk 64 bytes each, 32
 * bytes into a line (two lines each: lu's rows), one check before the loop
 * (loop groups).  Each worker runs it ROUNDS times on arrays of its own,
 * then, in turns, on its 8 doubles of a shared array: worker 0's
 * elements 4..11 and worker 1's 12..19, 32 bytes into a line — the line of
 * elements 8..15 holds both: FALSE sharing, ROUNDS - 1 reloads per thread.
 * With `private`, only the loops on the workers' own arrays run.  Prints
 * the sums. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rounds = 1000, only_private;
static char *shared;   /* one line: worker 0 sets bytes 0..15, worker 1 bytes 32..47 */
static double *row;    /* three lines: worker 0's elements 4..11, worker 1's 12..19 */
static pthread_barrier_t bar;

/* x[j] += f * y[j], 8 iterations (a constant trip count) */
static inline __attribute__((always_inline)) void axpy8(volatile double *x, const volatile double *y, double f)
{
    for (int j = 0; j < 8; j++)
        x[j] += f * y[j];
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    double sum = 0;
    char *own = aligned_alloc(64, 64); /* its own line */
    double *xs = aligned_alloc(64, 192), *ys = aligned_alloc(64, 192); /* (elements 4..11 used) */
    if (!own || !xs || !ys)
        return NULL;
    for (int j = 0; j < 24; j++)
        xs[j] = ys[j] = j;
    for (int i = 0; i < rounds; i++)
        axpy8(xs + 4, ys + 4, 1.0 / (i + 1));
    sum += xs[4] + xs[11];
    if (!only_private) {
        for (int i = 0; i < rounds; i++) {
            memset(own, i, 16);
            sum += own[i & 15];
        }
        for (int i = 0; i < rounds; i++)
            for (int t = 0; t < 2; t++) {
                if (t == me) {
                    memset(shared + 32 * me, i, 16);
                    axpy8(row + 4 + 8 * me, ys + 4, 0.5);
                }
                pthread_barrier_wait(&bar);
            }
    }
    /* (own, xs, ys not freed: the other worker would reuse their lines; the
     * sum comes back in a register: the only shared lines are the fixture's) */
    return (void *)(long)(sum * 1000);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        rounds = atoi(argv[1]);
    only_private = argc > 2 && !strcmp(argv[2], "private");
    shared = aligned_alloc(64, 64);
    row = aligned_alloc(64, 192);
    if (!shared || !row || rounds < 1)
        return 1;
    memset(row, 0, 192);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    void *sums[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], &sums[i]);
    printf("loops %ld %ld %d %d %g %g\n", (long)sums[0], (long)sums[1], shared[0], shared[32], row[4], row[19]);
    return 0;
}
