/* Sharing fixtures: ./fixtures MODE [ROUNDS].  Two worker threads take
 * turns, a barrier between turns, so that every interleaving — and so every
 * reload count — is fixed by the program:
 *
 *   adjacent  T0 and T1 each read-modify-write their own element of a
 *             `volatile long c[2]`: FALSE sharing, 2*(R-1) reloads
 *   atomic    both atomically increment one long: TRUE sharing, 2*(R-1)
 *   padded    per-thread counters, each on its own line: no reloads
 *   mixed     struct { shared; a; b; }: T0 writes a then adds to shared,
 *             T1 adds to shared then writes b: T0's access to a reloads
 *             FALSE (T1 wrote only shared and b), T1's to shared reloads
 *             TRUE (T0 wrote it): R-1 of each
 *   linreg    per-thread accumulator structs in one calloc'd array (the
 *             Phoenix linear_regression pattern): FALSE sharing
 *   hist      per-thread histogram buckets, rows of one global array
 *   flags     a per-thread `bool` flag array: FALSE sharing (bytes)
 *   locks     a pool of spin locks, each thread its own: FALSE sharing
 *   hidden    two per-thread halves of a line-aligned array, each a whole
 *             line: safe in this placement, FALSE at any other offset
 *   globals   two separate global counters, one per thread: FALSE
 *
 * Prints the results (the same in every build) on stdout, and the
 * addresses of each thread's written data on stderr as
 * "addr T<k> <first> <last>" for the checks of a repaired build. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct acc {
    long sx, sy, sxx, syy, sxy;
};
/* the control variables on a line of their own (only main writes them) */
static struct {
    int rounds;
    const char *mode;
    struct acc *accs;
} ctl __attribute__((aligned(64))) = {1000, NULL, NULL};
static pthread_barrier_t bar __attribute__((aligned(64)));

volatile long c[2] __attribute__((aligned(16))); /* one line, whatever the layout */
long total;
struct padded {
    long v;
    char pad[56];
} __attribute__((aligned(64)));
struct padded counters[2];
struct mixed {
    long shared;
    volatile long a;
    volatile long b;
} mixed __attribute__((aligned(32)));
unsigned hist[2][8] __attribute__((aligned(64)));
volatile bool flags[2] __attribute__((aligned(2)));
atomic_int locks[4] __attribute__((aligned(16)));
long halves[16] __attribute__((aligned(64)));
volatile long hits_a, hits_b;

static void addr_range(int me, const volatile void *lo, size_t n)
{
    fprintf(stderr, "addr T%d %p %p\n", me, (void *)lo, (void *)((const char *)lo + n - 1));
}

static void turn(void)
{
    pthread_barrier_wait(&bar);
}

/* The control variables are read once, into locals: a worker reading them
 * in its loop would touch their lines too. */
static void *worker(void *arg)
{
    int me = (int)(long)arg;
    const char *mode = ctl.mode;
    int rounds = ctl.rounds;
    struct acc *accs = ctl.accs;
    for (int i = 0; i < rounds; i++) {
        for (int t = 0; t < 2; t++) {
            if (t == me) {
                if (!strcmp(mode, "adjacent"))
                    c[me] = c[me] + 1;
                else if (!strcmp(mode, "atomic"))
                    __atomic_fetch_add(&total, 1, __ATOMIC_SEQ_CST);
                else if (!strcmp(mode, "padded"))
                    ((volatile long *)&counters[me].v)[0] += 1;
                else if (!strcmp(mode, "mixed")) {
                    if (me == 0) {
                        mixed.a += 1;
                        __atomic_fetch_add(&mixed.shared, 1, __ATOMIC_SEQ_CST);
                    } else {
                        __atomic_fetch_add(&mixed.shared, 1, __ATOMIC_SEQ_CST);
                        mixed.b += 1;
                    }
                } else if (!strcmp(mode, "linreg")) {
                    volatile struct acc *a = &accs[me];
                    long x = i, y = 2 * i + me;
                    a->sx += x;
                    a->sy += y;
                    a->sxx += x * x;
                    a->syy += y * y;
                    a->sxy += x * y;
                } else if (!strcmp(mode, "hist"))
                    ((volatile unsigned *)hist[me])[i % 8] += 1;
                else if (!strcmp(mode, "flags"))
                    flags[me] = !flags[me];
                else if (!strcmp(mode, "locks")) {
                    while (atomic_exchange(&locks[me], 1))
                        ;
                    atomic_store(&locks[me], 0);
                } else if (!strcmp(mode, "hidden")) {
                    volatile long *h = &halves[8 * me];
                    for (int k = 0; k < 8; k++)
                        h[k] += k;
                } else if (!strcmp(mode, "globals")) {
                    if (me == 0)
                        hits_a = hits_a + 1;
                    else
                        hits_b = hits_b + 1;
                }
            }
            turn();
        }
    }
    if (!strcmp(mode, "adjacent"))
        addr_range(me, &c[me], sizeof c[me]);
    else if (!strcmp(mode, "padded"))
        addr_range(me, &counters[me].v, sizeof counters[me].v);
    else if (!strcmp(mode, "mixed"))
        addr_range(me, me ? &mixed.b : &mixed.a, sizeof(long));
    else if (!strcmp(mode, "linreg"))
        addr_range(me, &accs[me], sizeof accs[me]);
    else if (!strcmp(mode, "hist"))
        addr_range(me, hist[me], sizeof hist[me]);
    else if (!strcmp(mode, "flags"))
        addr_range(me, &flags[me], sizeof flags[me]);
    else if (!strcmp(mode, "locks"))
        addr_range(me, &locks[me], sizeof locks[me]);
    else if (!strcmp(mode, "hidden"))
        addr_range(me, &halves[8 * me], 8 * sizeof(long));
    else if (!strcmp(mode, "globals"))
        addr_range(me, me ? &hits_b : &hits_a, sizeof(long));
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fixtures MODE [ROUNDS]\n");
        return 2;
    }
    const char *mode = ctl.mode = argv[1];
    if (argc > 2)
        ctl.rounds = atoi(argv[2]);
    struct acc *accs = ctl.accs = calloc(2, sizeof *accs);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%s: c %ld %ld total %ld counters %ld %ld mixed %ld %ld %ld acc %ld %ld %ld %ld hist %u %u flags %d %d "
           "halves %ld %ld hits %ld %ld\n",
           mode, c[0], c[1], total, counters[0].v, counters[1].v, mixed.shared, mixed.a, mixed.b, accs[0].sx,
           accs[1].sy, accs[0].sxy, accs[1].sxy, hist[0][3], hist[1][5], flags[0], flags[1], halves[7], halves[8],
           hits_a, hits_b);
    free(accs);
    return 0;
}
