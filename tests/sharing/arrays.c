/* Arrays of scalars, per-thread elements: ./arrays MODE [ROUNDS].  Two
 * worker threads take turns (a barrier between turns), as in fixtures.c,
 * so the reload counts are fixed: 2*(R-1) false-sharing reloads each.
 *
 *   scalars  static volatile long c[2], c[me] += 1
 *   flags    static volatile bool flag[2], flag[me] = !flag[me]
 *   hist     static unsigned hist[2][4], per-thread rows of buckets
 *   locks    static atomic_int lock[2], each thread spins on its own
 *   escape   static volatile long e[2], bumped through bump(&e[me]):
 *            the address is passed to a function
 *   pointer  static volatile long p[2], written through a pointer to the
 *            array (the address is taken as a pointer)
 *   global   volatile long g[2], not static: visible to other units
 *   big      static volatile char buf[32768], each thread its own byte:
 *            padded it would take 2 MiB — a buffer, not per-thread slots
 *
 * The arrays are only indexed (except in escape and pointer), so a
 * rebuild may pad them; the program never prints an address of them.
 * Prints the results on stdout, the same in every build. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int rounds;
    const char *mode;
} ctl __attribute__((aligned(64))) = {1000, NULL};
static pthread_barrier_t bar __attribute__((aligned(64)));

static volatile long c[2];
static volatile bool flag[2];
static unsigned hist[2][4];
static atomic_int lock[2];
static volatile long e[2];
static volatile long p[2];
volatile long g[2];
static volatile char buf[32768];

__attribute__((noinline)) static void bump(volatile long *x)
{
    *x += 1;
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    const char *mode = ctl.mode;
    int rounds = ctl.rounds;
    volatile long *pp = p;
    for (int i = 0; i < rounds; i++) {
        for (int t = 0; t < 2; t++) {
            if (t == me) {
                if (!strcmp(mode, "scalars"))
                    c[me] = c[me] + 1;
                else if (!strcmp(mode, "flags"))
                    flag[me] = !flag[me];
                else if (!strcmp(mode, "hist"))
                    __atomic_store_n(&hist[me][i % 4], hist[me][i % 4] + 1, __ATOMIC_RELAXED);
                else if (!strcmp(mode, "locks")) {
                    while (atomic_exchange(&lock[me], 1))
                        ;
                    atomic_store(&lock[me], 0);
                } else if (!strcmp(mode, "escape"))
                    bump(&e[me]);
                else if (!strcmp(mode, "pointer"))
                    pp[me] = pp[me] + 1;
                else if (!strcmp(mode, "global"))
                    g[me] = g[me] + 1;
                else if (!strcmp(mode, "big"))
                    buf[me] = buf[me] + 1;
            }
            pthread_barrier_wait(&bar);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: arrays MODE [ROUNDS]\n");
        return 2;
    }
    ctl.mode = argv[1];
    if (argc > 2)
        ctl.rounds = atoi(argv[2]);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%s: c %ld %ld flag %d %d hist %u %u %u %u lock %d %d e %ld %ld p %ld %ld g %ld %ld buf %d %d\n", ctl.mode, c[0],
           c[1], flag[0], flag[1], hist[0][0], hist[0][3], hist[1][1], hist[1][2], atomic_load(&lock[0]),
           atomic_load(&lock[1]), e[0], e[1], p[0], p[1], g[0], g[1], buf[0], buf[1]);
    return 0;
}
