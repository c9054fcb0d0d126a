/* Two threads allocating at the same call at once (t-twins.sh): thread A
 * (created first, worker_a) and thread B (worker_b) each allocate a block
 * at make_buf's malloc, in the order the argument forces with semaphores
 * ("ab": A's allocation first, "ba": B's first).  Then each thread writes
 * word 2 of its own block and word 9 of the other's: threads write
 * different parts of both blocks, 56 bytes apart (on one line at most
 * placements, on two when the block starts a line: align-alloc). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
    long v[12];
};

static struct buf *bufs[2];
static sem_t turn[2];
static pthread_barrier_t both;
static int first; /* the thread (0: A, 1: B) that allocates first */

__attribute__((noinline)) static struct buf *make_buf(void)
{
    return malloc(sizeof(struct buf));
}

static void work(int me, int rounds)
{
    if (me != first)
        sem_wait(&turn[me]);
    bufs[me] = make_buf();
    bufs[me]->v[2] = 0;
    if (me == first)
        sem_post(&turn[!me]);
    pthread_barrier_wait(&both);
    bufs[!me]->v[9] = 0;
    for (int i = 0; i < rounds; i++) {
        ((volatile long *)bufs[me]->v)[2] += i;
        ((volatile long *)bufs[!me]->v)[9] += i;
    }
    pthread_barrier_wait(&both);
}

static int rounds;

__attribute__((noinline)) static void *worker_a(void *p)
{
    (void)p;
    work(0, rounds);
    return NULL;
}

__attribute__((noinline)) static void *worker_b(void *p)
{
    (void)p;
    work(1, rounds);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "ab") && strcmp(argv[2], "ba"))) {
        fprintf(stderr, "usage: twins ROUNDS ab|ba\n");
        return 2;
    }
    rounds = atoi(argv[1]);
    first = argv[2][0] == 'b';
    sem_init(&turn[0], 0, 0);
    sem_init(&turn[1], 0, 0);
    pthread_barrier_init(&both, NULL, 2);
    pthread_t a, b;
    pthread_create(&a, NULL, worker_a, NULL);
    pthread_create(&b, NULL, worker_b, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld %ld %ld\n", bufs[0]->v[2], bufs[0]->v[9], bufs[1]->v[2], bufs[1]->v[9]);
    free(bufs[0]);
    free(bufs[1]);
    return 0;
}
