/* fsbench.c — false-sharing patterns for bench/sharing.sh, timed:
 *
 *   fsbench MODE ITERS
 *
 * Two threads hammer their own data ITERS times (no barriers), so the time
 * is dominated by how the data is laid out:
 *
 *   globals   two global counters, one per thread
 *   mixed     a struct with a rarely touched shared field and one field per
 *             thread
 *   linreg    per-thread accumulator structs in one calloc'd array (the
 *             Phoenix linear_regression pattern)
 *
 * Built three ways: as written (false sharing), repaired by perfinst's
 * feedback rebuild, and with -DHAND_FIXED (alignas(64) in the source, what
 * a programmer would write).  Prints a checksum that must not change. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAND_FIXED
#define LINE _Alignas(64)
#else
#define LINE
#endif

LINE volatile long hits_a;
LINE volatile long hits_b;
struct mixed {
    long shared;
    LINE volatile long a;
    LINE volatile long b;
} mixed;
struct acc {
    LINE long sx;
    long sy, sxx, syy, sxy;
};

static struct {
    const char *mode;
    long iters;
    struct acc *accs;
} ctl __attribute__((aligned(64))); /* its own line in every build */

static pthread_barrier_t start; /* both threads run at once */

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    pthread_barrier_wait(&start);
    const char *mode = ctl.mode;
    long n = ctl.iters;
    if (!strcmp(mode, "globals")) {
        volatile long *h = me ? &hits_b : &hits_a;
        for (long i = 0; i < n; i++)
            *h += 1;
    } else if (!strcmp(mode, "mixed")) {
        for (long i = 0; i < n; i++) {
            if (me)
                mixed.b += 1;
            else
                mixed.a += 1;
            if ((i & 1023) == 0)
                __atomic_fetch_add(&mixed.shared, 1, __ATOMIC_RELAXED);
        }
    } else {
        volatile struct acc *a = &ctl.accs[me];
        for (long i = 0; i < n; i++) {
            long x = i & 1023, y = (x * 7 + me) & 1023;
            a->sx += x;
            a->sy += y;
            a->sxx += x * x;
            a->syy += y * y;
            a->sxy += x * y;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fsbench globals|mixed|linreg ITERS\n");
        return 2;
    }
    ctl.mode = argv[1];
    ctl.iters = atol(argv[2]);
#ifdef HAND_FIXED
    ctl.accs = aligned_alloc(64, 2 * sizeof *ctl.accs);
    memset(ctl.accs, 0, 2 * sizeof *ctl.accs);
#else
    ctl.accs = calloc(2, sizeof *ctl.accs);
#endif
    pthread_t t[2];
    pthread_barrier_init(&start, NULL, 2);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    long sum = hits_a + hits_b + mixed.shared + mixed.a + mixed.b;
    for (int i = 0; i < 2; i++)
        sum += ctl.accs[i].sx + ctl.accs[i].sy + ctl.accs[i].sxx + ctl.accs[i].syy + ctl.accs[i].sxy;
    printf("%s %ld\n", ctl.mode, sum);
    free(ctl.accs);
    return 0;
}
