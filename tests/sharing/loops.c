/* Checks made once for several accesses (pass-sharing.cc): ./loops [ROUNDS]
 *
 * Blocks: each of two workers sets 16 bytes of a line of its own with
 * memset, ROUNDS times (a constant length of at most a line: the inlined
 * check of the block's lines, insert_block_guarded): the runtime sees the
 * line's footprint (PERFINST_SHARING_SAMPLE block operations), then none.
 * Then the workers take turns (a barrier between turns) setting their own
 * 16 bytes of one shared line with memset: FALSE sharing, ROUNDS - 1
 * reloads per thread, every block operation on it seen in the exact mode.
 * Prints the sums. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rounds = 1000;
static char *shared; /* one line: worker 0 sets bytes 0..15, worker 1 bytes 32..47 */
static pthread_barrier_t bar;
static long sums[2];

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    long sum = 0;
    char *own = aligned_alloc(64, 64); /* its own line */
    if (!own)
        return NULL;
    for (int i = 0; i < rounds; i++) {
        memset(own, i, 16);
        sum += own[i & 15];
    }
    for (int i = 0; i < rounds; i++)
        for (int t = 0; t < 2; t++) {
            if (t == me)
                memset(shared + 32 * me, i, 16);
            pthread_barrier_wait(&bar);
        }
    sums[me] = sum; /* (own not freed: the other worker would reuse its line) */
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        rounds = atoi(argv[1]);
    shared = aligned_alloc(64, 64);
    if (!shared || rounds < 1)
        return 1;
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("loops %ld %ld %d %d\n", sums[0], sums[1], shared[0], shared[32]);
    return 0;
}
