/* Two threads take turns (a barrier between turns) writing their own
 * element of `long c[2]`: one line, disjoint bytes -> false sharing.
 * Each thread's read-modify-write after the other's turn is one reload:
 * 2 * (ROUNDS - 1) false-sharing reloads, no true ones. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000
volatile long c[2];
static pthread_barrier_t bar;

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
    printf("c = %ld %ld\n", c[0], c[1]);
    fprintf(stderr, "addr c[0] %p\naddr c[1] %p\n", (void *)&c[0], (void *)&c[1]);
    return 0;
}
