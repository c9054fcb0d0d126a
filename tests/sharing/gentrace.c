/* gentrace.c — a large synthetic sharing trace for the analysis' cost
 * (t-scale.sh, bench/sharing.sh):
 *
 *   gentrace OUT MEGABYTES
 *
 * The shapes that made the old analysis quadratic, together, sized to about
 * MEGABYTES of trace:
 *   - a line-misaligned matrix factorised by two threads (one heap object,
 *     each thread a block of rows: a footprint per line and thread);
 *   - 20000 allocations of one size at 100 addresses, freed and made again
 *     (the latest one at an address owns it);
 *   - an mmap'd input no allocation record holds (one object per mapping,
 *     not one per line), read by four threads, each writing its own
 *     per-thread results beside it;
 *   - per-thread structs with four writers on each line, and sites naming
 *     their fields.
 * Deterministic (no randomness): the same bytes every time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pishare.h"
#include "pitrace.h"

static struct pi_share s;
static size_t cl, cs, ca;

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 1024;
    p = realloc(p, *cap * size);
    if (!p) {
        fprintf(stderr, "gentrace: out of memory\n");
        exit(1);
    }
    return p;
}

static void line(uint64_t addr, int nt, const uint32_t *thr, const uint64_t *r, const uint64_t *w, uint64_t acc,
                 uint32_t ef, uint32_t el)
{
    s.lines = grow(s.lines, &cl, s.nlines, sizeof *s.lines);
    struct pi_share_line_v *v = &s.lines[s.nlines++];
    memset(v, 0, sizeof *v);
    v->rec.addr = addr;
    v->rec.nthreads = (uint32_t)nt;
    v->rec.flags = PI_SHARE_LINE_EPOCHS;
    v->thr = calloc((size_t)nt, sizeof *v->thr);
    for (int k = 0; k < nt; k++) {
        v->thr[k] = (struct pi_share_thr){.thread = thr[k], .cpu = (uint32_t)k % 2, .rmask = r[k], .wmask = w[k],
                                          .reads = acc, .writes = w[k] ? acc : 0, .epoch_first = ef,
                                          .epoch_last = el};
        if (nt > 1 && w[k]) {
            v->thr[k].reloads_false = acc / 8;
            v->rec.reloads_false += acc / 8;
        }
    }
}

static void site(uint64_t pc, uint64_t ln, uint32_t thread, uint64_t mask, const char *what)
{
    s.sites = grow(s.sites, &cs, s.nsites, sizeof *s.sites);
    struct pi_share_site_v *v = &s.sites[s.nsites++];
    memset(v, 0, sizeof *v);
    v->rec = (struct pi_rec_share_site){.pc = pc, .line = ln, .thread = thread, .flags = PI_ACCESS_WRITE,
                                        .accesses = 4096, .reloads_false = 512, .mask = mask};
    v->what = what ? strdup(what) : NULL;
    v->rec.what_len = what ? (uint32_t)strlen(what) + 1 : 0;
}

static void alloc(uint64_t addr, uint64_t size, uint64_t seq, uint32_t thread, int freed)
{
    s.allocs = grow(s.allocs, &ca, s.nallocs, sizeof *s.allocs);
    struct pi_share_alloc_v *v = &s.allocs[s.nallocs++];
    memset(v, 0, sizeof *v);
    v->rec = (struct pi_rec_share_alloc){.addr = addr, .size = size, .seq = seq, .thread = thread, .kind = 1,
                                         .freed = (uint32_t)freed, .nframes = 1};
    v->frames = malloc(sizeof(uint64_t));
    v->frames[0] = 0x401000 + (seq % 7) * 16;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gentrace OUT MEGABYTES\n");
        return 2;
    }
    uint64_t budget = strtoull(argv[2], NULL, 10) << 20;
    const uint64_t heap = 0x5555a0000000ull, input = 0x7f0000000000ull;
    /* about 2/5 of the bytes: the matrix, two writers per line (~290 bytes a line) */
    uint64_t mlines = budget * 2 / 5 / 290;
    uint64_t matrix = heap + 0x1000000 + 16; /* line-misaligned */
    alloc(matrix, mlines * 64, 1, 1, 0);
    uint32_t two[2] = {2, 3};
    for (uint64_t i = 0; i < mlines; i++) {
        uint64_t a = (matrix & ~63ull) + i * 64;
        /* rows of 256 bytes: thread 2 the first half of the matrix, thread 3 the second;
         * the line at the boundary of the halves is shared (misaligned by 16) */
        uint64_t r[2] = {~0ull, ~0ull}, w[2] = {~0ull, 0};
        if (i < mlines / 2)
            w[0] = ~0ull, w[1] = 0;
        if (i == mlines / 2)
            w[0] = 0xffff, w[1] = ~0xffffull;
        line(a, 2, two, r, w, 1024, 0, 0);
    }
    /* 20000 allocations of 192 bytes at 100 addresses, each written by one of
     * four threads, two records per line */
    uint32_t four[4] = {2, 3, 4, 5};
    uint64_t small = heap + 0x100000;
    for (uint64_t k = 0; k < 20000; k++)
        alloc(small + (k % 100) * 192, 192, 2 + k, 1, k < 19900);
    for (uint64_t i = 0; i < 100 * 192 / 64; i++) {
        uint64_t r[4] = {0xff, 0xff00, 0xff0000, 0xff000000}, w[4] = {0xff, 0xff00, 0xff0000, 0xff000000};
        line(small + i * 64, 4, four, r, w, 4096, 0, 0);
        for (int t = 0; t < 4; t++)
            site(0x401200 + 16 * (uint64_t)t, small + i * 64, four[t], w[t], "part sum 0 24 gen.c 7");
    }
    /* an mmap'd input (4 threads read it) with per-thread results beside it: the rest */
    uint64_t used = mlines * 290 + 20000 * 60 + 300 * 500;
    uint64_t ilines = used < budget ? (budget - used) / 430 : 1000;
    for (uint64_t i = 0; i < ilines; i++) {
        uint64_t r[4] = {~0ull, ~0ull, ~0ull, ~0ull}, w[4] = {0, 0, 0, 0};
        if (i % 64 == 63) { /* each thread's results word beside the input */
            w[0] = r[0] = 0xff, w[1] = r[1] = 0xff00, w[2] = r[2] = 0xff0000, w[3] = r[3] = 0xff000000;
        }
        line(input + i * 64, 4, four, r, w, 64, 0, 0);
        if (i % 16 == 0)
            site(0x401400, input + i * 64, four[i % 4], 0xff, "result hits 0 8 gen.c 12");
    }
    s.nregions = 2;
    s.regions = calloc(2, sizeof *s.regions);
    s.regions[0] = (struct pi_share_region_v){{heap, heap + 0x40000000, PI_SHARE_REGION_HEAP, 7}, strdup("[heap]")};
    s.regions[1] = (struct pi_share_region_v){{input, input + ilines * 64 + 4096, PI_SHARE_REGION_ANON, 1},
                                              strdup("")};
    s.nthreads = 5;
    s.threads = calloc(5, sizeof *s.threads);
    for (uint32_t t = 0; t < 5; t++)
        s.threads[t] = (struct pi_rec_share_thread){.thread = t + 1, .tid = 1000 + t, .period = 1024,
                                                    .birth = t ? t : 0, .death = t ? 10 + t : PI_SHARE_EPOCH_NONE,
                                                    .flags = PI_SHARE_THREAD_EPOCHS | (t ? 0 : PI_SHARE_THREAD_FORKS)};
    struct pi_trace t;
    memset(&t, 0, sizeof t);
    t.hdr.flags = PI_TF_SHARING;
    struct pi_err err;
    struct pi_trace_extra *x;
    if (pi_share_records(&s, &x, &t.nextra) || (t.extra = x, pi_trace_write(argv[1], &t, &err))) {
        fprintf(stderr, "gentrace: %s: %s\n", argv[1], err.msg);
        return 1;
    }
    printf("%zu lines, %zu sites, %zu allocations\n", s.nlines, s.nsites, s.nallocs);
    return 0;
}
