/* Verdict fixtures: ./verdict MODE [ITERS] [THREADS].  Free-running
 * threads (no barriers: how real programs run, and how a loaded machine
 * serialises them), each on its own data, the patterns that real programs
 * got wrong (issue 19):
 *
 *   hist    per-thread histograms in a heap array of a struct that has no
 *           tag, only a typedef (3 threads, 48-byte elements where glibc
 *           puts the first block, +32 of a line: threads 0 and 1 share a
 *           line, 1 and 2 another; aligned alone, 0 and 1 still would — the
 *           repair must pad the type and align the array together)
 *   macro   per-thread accumulators allocated inside a macro of a header
 *           (verdict-defs.h, a CHECK_ERROR in the style of Phoenix's)
 *   bzero   per-thread word buffers (malloc'ed one after the other)
 *           cleared with bzero, which GCC expands inline, and only read
 *           otherwise: the clearing is the only write
 *   copy    the same buffers' first 16 bytes written by memcpy and memmove
 *           (expanded inline) and strcpy, and read by strlen and strcmp,
 *           of data made at run time: each is seen, at its source line
 *   matrix  a 256 x 256 matrix of doubles from malloc (at +16 of a line),
 *           each thread updating its own block of rows: the rows at the
 *           blocks' boundary share a line; starting a line removes it
 *   flag    read-mostly globals on one line with a flag every thread sets
 *           (true sharing of the flag; the readers' false sharing ends when
 *           the flag alone moves)
 *   late    main writes one half of a global pair right after
 *           pthread_create, the worker the other half after its setup
 *           (10 ms asleep): they run at once by program order, whenever
 *           the scheduler lets the worker in (the verdict once depended
 *           on whether main's writes came before the worker's first access)
 *
 * Prints a checksum (the same in every build) on stdout and, on stderr,
 * "addr T<k> <first> <last>" for each thread's written data, for the
 * checks of a repaired build. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "verdict-defs.h"

typedef struct {
    unsigned long count[5];
    int id;
} hist_t;

struct acc {
    long sum, sumsq, n;
};

#define WORD 24 /* (malloc(24): chunks 32 bytes apart, two on a line) */

#define N 256
static struct {
    const char *mode;
    long iters;
    int threads;
    hist_t *hists;
    struct acc *accs;
    char *bufs[16];       /* each thread's buffer, allocated one after the other */
    double *m;
    char text[32];        /* copy's sources, made at run time: "abcdefg", "wxyz", ... */
} ctl __attribute__((aligned(64)));

/* the flag mode's globals: read-mostly data (set before the threads
 * start), on one line with the flag */
long num_points __attribute__((aligned(64)));
long dims;
volatile int modified;
long num_means;

/* the late mode's pair: main writes a, the worker b */
static struct {
    volatile long a, b;
} pair __attribute__((aligned(64)));

static void addr_range(int me, const volatile void *lo, size_t n)
{
    fprintf(stderr, "addr T%d %p %p\n", me, (void *)lo, (void *)((const char *)lo + n - 1));
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    if (me < 0) { /* the late mode's worker (its first access after the sleep) */
        usleep(10000);
        for (long i = 0; i < ctl.iters; i++)
            pair.b++;
        addr_range(1, &pair.b, sizeof pair.b);
        return NULL;
    }
    const char *mode = ctl.mode;
    long iters = ctl.iters;
    if (!strcmp(mode, "hist")) {
        volatile hist_t *h = &ctl.hists[me];
        h->id = me;
        for (long i = 0; i < iters; i++)
            h->count[i % 5]++;
        addr_range(me, h, sizeof *h);
    } else if (!strcmp(mode, "macro")) {
        volatile struct acc *a = &ctl.accs[me];
        for (long i = 0; i < iters; i++) {
            a->sum += i;
            a->sumsq += i * i;
            a->n++;
        }
        addr_range(me, a, sizeof *a);
    } else if (!strcmp(mode, "bzero")) {
        char *w = ctl.bufs[me];
        long s = 0;
        for (long i = 0; i < iters; i++) {
            bzero(w, WORD);
            s += ((volatile char *)w)[i % WORD];
        }
        if (s)
            w[0] = 1; /* (never: the buffer stays zero) */
        addr_range(me, w, WORD);
    } else if (!strcmp(mode, "copy")) {
        char *w = ctl.bufs[me];
        long s = 0;
        w[8] = 0;
        for (long i = 0; i < iters; i++) {
            s += (long)strlen(w + 8);                  /* copy: strlen (the last round's string) */
            memcpy(w, ctl.text + (i & 3), 4);          /* copy: memcpy */
            memmove(w + 2, w, 4);                      /* copy: memmove */
            strcpy(w + 8, ctl.text + 8 + (i & 3));     /* copy: strcpy */
            s += !strcmp(w, ctl.text + 16 + (i & 1));  /* copy: strcmp */
        }
        if (s == 12345)
            w[0] = 1; /* (never: s is 4 or 5 an iteration) */
        addr_range(me, w, 16);
    } else if (!strcmp(mode, "matrix")) {
        int nt = ctl.threads, lo = me * N / nt, hi = (me + 1) * N / nt;
        volatile double *m = ctl.m;
        for (long k = 0; k < iters / 4096; k++) /* (whole rows: each element) */
            for (int r = lo; r < hi; r++)
                for (int c = 0; c < N; c++)
                    m[r * N + c] += 1.0;
        addr_range(me, &m[lo * N], (size_t)(hi - lo) * N * sizeof *m);
    } else if (!strcmp(mode, "flag")) {
        long s = 0;
        for (long i = 0; i < iters; i++) {
            s += *(volatile long *)&num_points + *(volatile long *)&dims + *(volatile long *)&num_means;
            if (i % 64 == 0)
                modified = 1;
        }
        if (s < 0)
            modified = 2;
        addr_range(me, &modified, sizeof modified);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: verdict MODE [ITERS] [THREADS]\n");
        return 2;
    }
    ctl.mode = argv[1];
    ctl.iters = argc > 2 ? atol(argv[2]) : 200000;
    ctl.threads = argc > 3 ? atoi(argv[3]) : !strcmp(ctl.mode, "hist") ? 3 : 2;
    int nt = ctl.threads;
    ctl.hists = calloc((size_t)nt, sizeof *ctl.hists);
    ALLOC_CHECKED(ctl.accs, nt);
    for (int i = 0; i < nt && i < 16; i++)
        ctl.bufs[i] = malloc(WORD);
    ctl.m = malloc(N * N * sizeof *ctl.m);
    num_points = 1000, dims = 3, num_means = 8;
    snprintf(ctl.text, sizeof ctl.text, "%.8s", "abcdefgh");
    snprintf(ctl.text + 8, 8, "%s", "wxyz");
    snprintf(ctl.text + 16, 8, "%s", argv[1]);
    memset(ctl.m, 0, N * N * sizeof *ctl.m);
    pthread_t t[16];
    if (!strcmp(ctl.mode, "late")) {
        pthread_create(&t[0], NULL, worker, (void *)-1L);
        for (long i = 0; i < ctl.iters; i++)
            pair.a++;
        addr_range(0, &pair.a, sizeof pair.a);
        nt = 1;
    } else {
        for (long i = 0; i < nt && i < 16; i++)
            pthread_create(&t[i], NULL, worker, (void *)i);
    }
    for (int i = 0; i < nt && i < 16; i++)
        pthread_join(t[i], NULL);
    double ms = 0;
    for (int i = 0; i < N * N; i++)
        ms += ctl.m[i];
    /* the buffers hold what a mode wrote only in bzero and copy (malloc's
       bytes are undefined, and a repaired build's allocation differs) */
    int words = !strcmp(ctl.mode, "bzero") || !strcmp(ctl.mode, "copy") ? ctl.bufs[0][0] : 0;
    printf("%s: hist %lu %lu acc %ld %ld words %d matrix %.0f flag %d pair %ld %ld\n", ctl.mode,
           ctl.hists[0].count[1], ctl.hists[nt - 1].count[2], ctl.accs[0].sum, ctl.accs[nt - 1].n, words, ms,
           modified, pair.a, pair.b);
    return 0;
}
