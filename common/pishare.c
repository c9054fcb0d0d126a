/* pishare.c — the sharing records of a trace (pishare.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "pishare.h"
#include "pitrace.h"
#include "piutil.h"

#define GROW(arr, n, cap)                                                        \
    ((n) < (cap) ? 0                                                             \
                 : ((cap) = (cap) ? 2 * (cap) : 16,                              \
                    (arr) = reallocarray_or_free((arr), (cap), sizeof *(arr)),   \
                    (arr) ? 0 : -1))

static void *reallocarray_or_free(void *p, size_t n, size_t size)
{
    void *q = n && size <= SIZE_MAX / n ? realloc(p, n * size) : NULL;
    if (!q)
        free(p);
    return q;
}

/* realloc that leaves p alone when it fails */
static void *reallocarray_keep(void *p, size_t n, size_t size)
{
    return n && size <= SIZE_MAX / n ? realloc(p, n * size) : NULL;
}

static int bad(struct pi_err *err, const char *path, const struct pi_trace_rec *r, const char *what)
{
    return pi_err_set(err, "%s: record #%u (offset 0x%llx, type %u): %s", path, r->index,
                      (unsigned long long)r->offset, r->hdr.type, what);
}

static int walk(struct pi_trace_file *f, struct pi_share *s, struct pi_err *err)
{
    size_t cl = 0, cs = 0, ct = 0, ca = 0, cg = 0;
    struct pi_trace_rec r;
    int k;
    while ((k = pi_trace_next(f, &r, err)) == 1) {
        size_t n = r.hdr.size;
        const uint8_t *p = r.payload;
        switch (r.hdr.type) {
        case PI_REC_SHARE_LINE: {
            struct pi_share_line_v v;
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "LINE record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            /* entries of 64 bytes with epochs, or (older traces) 56 without */
            size_t esz = v.rec.flags & PI_SHARE_LINE_EPOCHS ? sizeof(struct pi_share_thr) : PI_SHARE_THR_OLD_SIZE;
            if (v.rec.nthreads == 0 || v.rec.nthreads > (1u << 20) || n < sizeof v.rec + (size_t)v.rec.nthreads * esz)
                return bad(err, f->path, &r, "LINE record: thread count does not match its size");
            if (v.rec.addr % PI_SHARE_LINE)
                return bad(err, f->path, &r, "LINE record: address not on a line boundary");
            v.thr = malloc(v.rec.nthreads * sizeof *v.thr);
            if (!v.thr || GROW(s->lines, s->nlines, cl)) {
                free(v.thr);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            for (uint32_t k = 0; k < v.rec.nthreads; k++) {
                memset(&v.thr[k], 0, sizeof v.thr[k]);
                memcpy(&v.thr[k], p + sizeof v.rec + k * esz, esz);
                if (esz < sizeof(struct pi_share_thr))
                    v.thr[k].epoch_first = v.thr[k].epoch_last = PI_SHARE_EPOCH_NONE;
            }
            v.rec.flags |= PI_SHARE_LINE_EPOCHS; /* as held in memory and written back */
            s->lines[s->nlines++] = v;
            break;
        }
        case PI_REC_SHARE_SITE: {
            struct pi_share_site_v v = {0};
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "SITE record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            if (v.rec.what_len) {
                if (v.rec.what_len > n - sizeof v.rec || p[sizeof v.rec + v.rec.what_len - 1] != 0)
                    return bad(err, f->path, &r, "SITE record: its text is not NUL-terminated inside it");
                v.what = strdup((const char *)p + sizeof v.rec);
                if (!v.what)
                    return pi_err_set(err, "%s: out of memory", f->path);
            }
            if (GROW(s->sites, s->nsites, cs)) {
                free(v.what);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            s->sites[s->nsites++] = v;
            break;
        }
        case PI_REC_SHARE_THREAD: {
            struct pi_rec_share_thread t = {.death = PI_SHARE_EPOCH_NONE};
            if (n < PI_SHARE_THREAD_OLD_SIZE)
                return bad(err, f->path, &r, "THREAD record too short");
            /* (a 16-byte record of an older trace: its epochs unknown) */
            memcpy(&t, p, n < sizeof t ? PI_SHARE_THREAD_OLD_SIZE : sizeof t);
            if (GROW(s->threads, s->nthreads, ct))
                return pi_err_set(err, "%s: out of memory", f->path);
            s->threads[s->nthreads++] = t;
            break;
        }
        case PI_REC_SHARE_STATS:
            if (n < sizeof(struct pi_rec_share_stats))
                return bad(err, f->path, &r, "STATS record too short");
            {
                struct pi_rec_share_stats st;
                memcpy(&st, p, sizeof st);
                pi_share_stats_add(&s->stats, &st);
                s->has_stats = 1;
            }
            break;
        case PI_REC_SHARE_ALLOC: {
            struct pi_share_alloc_v v;
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "ALLOC record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            if (v.rec.nframes > 256 || n < sizeof v.rec + v.rec.nframes * sizeof(uint64_t))
                return bad(err, f->path, &r, "ALLOC record: frame count does not match its size");
            v.frames = malloc((v.rec.nframes ? v.rec.nframes : 1) * sizeof(uint64_t));
            if (!v.frames || GROW(s->allocs, s->nallocs, ca)) {
                free(v.frames);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            memcpy(v.frames, p + sizeof v.rec, v.rec.nframes * sizeof(uint64_t));
            s->allocs[s->nallocs++] = v;
            break;
        }
        case PI_REC_SHARE_REGION: {
            struct pi_share_region_v v;
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "REGION record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            if (!v.rec.path_len || v.rec.path_len > n - sizeof v.rec || p[sizeof v.rec + v.rec.path_len - 1] != 0)
                return bad(err, f->path, &r, "REGION record: its path is not NUL-terminated inside it");
            if (v.rec.hi < v.rec.lo)
                return bad(err, f->path, &r, "REGION record: it ends before it starts");
            v.path = strdup((const char *)p + sizeof v.rec);
            if (!v.path || GROW(s->regions, s->nregions, cg)) {
                free(v.path);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            s->regions[s->nregions++] = v;
            break;
        }
        default:
            break;
        }
    }
    return k < 0 ? -1 : 0;
}

int pi_share_read(const char *path, struct pi_share *s, struct pi_err *err)
{
    struct pi_trace_file f;
    memset(s, 0, sizeof *s);
    if (pi_trace_open(path, &f, err) < 0)
        return -1;
    int rc = walk(&f, s, err);
    pi_trace_close(&f);
    return rc;
}

int pi_share_parse(const char *path, const void *data, size_t size, struct pi_share *s, struct pi_err *err)
{
    struct pi_trace_file f;
    memset(s, 0, sizeof *s);
    if (pi_trace_open_mem(path, data, size, &f, err) < 0)
        return -1;
    int rc = walk(&f, s, err);
    pi_trace_close(&f);
    return rc;
}

void pi_share_free(struct pi_share *s)
{
    for (size_t i = 0; i < s->nlines; i++)
        free(s->lines[i].thr);
    for (size_t i = 0; i < s->nsites; i++)
        free(s->sites[i].what);
    for (size_t i = 0; i < s->nallocs; i++)
        free(s->allocs[i].frames);
    free(s->lines);
    free(s->sites);
    free(s->threads);
    free(s->allocs);
    for (size_t i = 0; i < s->nregions; i++)
        free(s->regions[i].path);
    free(s->regions);
    memset(s, 0, sizeof *s);
}

const struct pi_share_region_v *pi_share_region_of(const struct pi_share *s, uint64_t addr)
{
    for (size_t i = 0; i < s->nregions; i++)
        if (addr >= s->regions[i].rec.lo && addr < s->regions[i].rec.hi)
            return &s->regions[i];
    return NULL;
}

uint32_t pi_share_tid(const struct pi_share *s, uint32_t thread)
{
    for (size_t i = 0; i < s->nthreads; i++)
        if (s->threads[i].thread == thread)
            return s->threads[i].tid;
    return 0;
}

/* ---- merging ---------------------------------------------------------------- */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

void pi_share_stats_add(struct pi_rec_share_stats *d, const struct pi_rec_share_stats *x)
{
#define MAXF(f) d->f = x->f > d->f ? x->f : d->f
#define SUMF(f) d->f = sat_add(d->f, x->f)
    MAXF(lines_max), SUMF(lines_lost), MAXF(sites_max), SUMF(sites_lost), MAXF(allocs_max), SUMF(allocs_lost);
    MAXF(threads_max), SUMF(threads_lost), MAXF(private_max), SUMF(private_dropped);
    SUMF(ids_recycled), SUMF(nofast_threads), SUMF(blocks);
#undef MAXF
#undef SUMF
}

static int same_identity(const struct pi_trace_module *x, const struct pi_trace_module *y)
{
    if (x->build_id_len != y->build_id_len || memcmp(x->build_id, y->build_id, x->build_id_len))
        return 0;
    return x->build_id_len || !strcmp(x->path ? x->path : "", y->path ? y->path : "");
}

/* An address of st as the merged records hold it (pishare.h). */
static uint64_t rebase(const struct pi_trace *st, const struct pi_trace_module *modules, size_t nmodules,
                       uint64_t addr)
{
    uint64_t link;
    const struct pi_trace_module *m = pi_trace_watch_module(st, addr, &link);
    if (!m) /* a merged trace's untagged address, or outside every module */
        return addr;
    for (size_t pos = 0; pos < nmodules && pos + 1 < PI_SHARE_HEAP_TAG; pos++)
        if (same_identity(&modules[pos], m) && !PI_WATCH_MODULE(link))
            return (uint64_t)(pos + 1) << PI_WATCH_MODULE_SHIFT | link;
    return addr;
}

/* An address in the brk heap of a process's trace: heap-relative, tagged
 * PI_SHARE_HEAP_TAG (the heap starts at a random page, but what a
 * deterministic program allocates lies at the same offset in every run);
 * *moved says whether it was. */
static uint64_t heap_rel(const struct pi_share *src, const struct pi_trace *st, uint64_t addr, int *moved)
{
    const struct pi_share_region_v *g = st->hdr.flags & PI_TF_MERGED ? NULL : pi_share_region_of(src, addr);
    *moved = g && g->rec.kind == PI_SHARE_REGION_HEAP && !PI_WATCH_MODULE(addr - g->rec.lo);
    return *moved ? (uint64_t)PI_SHARE_HEAP_TAG << PI_WATCH_MODULE_SHIFT | (addr - g->rec.lo) : addr;
}

/* A line's address: the heap's, made heap-relative; another heap or stack
 * mapping's, or in a recorded object: run-time; else module-relative. */
static uint64_t rebase_line(const struct pi_share *src, const struct pi_trace *st,
                            const struct pi_trace_module *modules, size_t nmodules, uint64_t line)
{
    int moved;
    uint64_t h = heap_rel(src, st, line, &moved);
    if (moved)
        return h;
    const struct pi_share_region_v *g = pi_share_region_of(src, line);
    if (g && g->rec.kind != PI_SHARE_REGION_FILE) /* heap, stack: run-time, even right above the program */
        return line;
    if (!(st->hdr.flags & PI_TF_MERGED))
        for (size_t i = 0; i < src->nallocs; i++) {
            const struct pi_rec_share_alloc *al = &src->allocs[i].rec;
            if (line < al->addr + (al->size ? al->size : 1) && al->addr < line + PI_SHARE_LINE)
                return line;
        }
    return rebase(st, modules, nmodules, line);
}

/* Threads renumbered by what they did rather than by when they first
 * touched shared data (which the scheduler decides): a thread's key is the
 * sorted list of the sites where it wrote (pc, and for lines in a module
 * the line and the bytes), then of those where it only read, then its
 * lines in modules (line, bytes read, written) — writes first, because a
 * stray read (the last thread out of a barrier) must not decide the order;
 * threads are numbered 1, 2, ... in the order of their keys (ties: their
 * ids), so that the worker that writes `a` is the same thread in every
 * run.  Heap addresses, different in each run, are left out of the keys. */
struct tkey {
    uint32_t id;
    size_t n;
    uint64_t (*t)[4];
};

static int cmp_tuple(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    for (int i = 0; i < 4; i++)
        PI_CMP_RET(a[i], b[i]);
    return 0;
}

static int cmp_tkey(const void *x, const void *y)
{
    const struct tkey *a = x, *b = y;
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        int c = cmp_tuple(a->t[i], b->t[i]);
        if (c)
            return c;
    }
    PI_CMP_RET(a->n, b->n);
    return a->id < b->id ? -1 : a->id > b->id;
}

static int tkey_add(struct tkey *k, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    if (!(k->n & (k->n + 1)) || !k->t) { /* n + 1 a power of two: grow */
        void *q = reallocarray_keep(k->t, 2 * (k->n + 1), sizeof *k->t);
        if (!q)
            return -1;
        k->t = q;
    }
    k->t[k->n][0] = a, k->t[k->n][1] = b, k->t[k->n][2] = c, k->t[k->n][3] = d;
    k->n++;
    return 0;
}

/* map[old id] = new id, for ids below nmap (ids are small: < 256 + slack) */
static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* The position of thread number id in ids[0..n) (sorted, unique). */
static size_t id_index(const uint32_t *ids, size_t n, uint32_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (ids[m] < id)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

static int renumber(struct pi_share *s, size_t first_line, size_t first_site, size_t first_thread,
                    size_t first_alloc)
{
    /* the thread numbers that appear, sorted and unique */
    size_t nids = 0, cap = 0;
    uint32_t *ids = NULL;
    int rc = -1;
    struct tkey *keys = NULL;
    uint32_t *map = NULL;
#define PUSH(v)                                                                   \
    do {                                                                          \
        if (nids == cap) {                                                        \
            void *q_ = reallocarray_keep(ids, cap = cap ? 2 * cap : 64, sizeof *ids); \
            if (!q_)                                                              \
                goto out;                                                         \
            ids = q_;                                                             \
        }                                                                         \
        ids[nids++] = (v);                                                        \
    } while (0)
    for (size_t i = first_site; i < s->nsites; i++)
        PUSH(s->sites[i].rec.thread);
    for (size_t i = first_line; i < s->nlines; i++)
        for (uint32_t k = 0; k < s->lines[i].rec.nthreads; k++)
            PUSH(s->lines[i].thr[k].thread);
    for (size_t i = first_thread; i < s->nthreads; i++)
        PUSH(s->threads[i].thread);
#undef PUSH
    if (nids)
        qsort(ids, nids, sizeof *ids, cmp_u32);
    size_t m = 0;
    for (size_t i = 0; i < nids; i++)
        if (!m || ids[m - 1] != ids[i])
            ids[m++] = ids[i];
    nids = m;
    keys = calloc(nids ? nids : 1, sizeof *keys);
    map = calloc(nids ? nids : 1, sizeof *map);
    if (!keys || !map)
        goto out;
    for (size_t i = 0; i < nids; i++)
        keys[i].id = ids[i];
#define KEY(id) (&keys[id_index(ids, nids, (id))])
    for (size_t i = first_site; i < s->nsites; i++) {
        const struct pi_rec_share_site *x = &s->sites[i].rec;
        int mod = PI_WATCH_MODULE(x->line) != 0;
        if (tkey_add(KEY(x->thread), x->flags & PI_ACCESS_WRITE ? 0 : 1, x->pc, mod ? x->line : 0, mod ? x->mask : 0))
            goto out;
    }
    for (size_t i = first_line; i < s->nlines; i++) {
        const struct pi_share_line_v *l = &s->lines[i];
        int mod = PI_WATCH_MODULE(l->rec.addr) != 0;
        for (uint32_t k = 0; k < l->rec.nthreads; k++)
            if (tkey_add(KEY(l->thr[k].thread), 2, mod ? l->rec.addr : 0, mod ? l->thr[k].rmask : 0,
                         mod ? l->thr[k].wmask : 0))
                goto out;
    }
    for (size_t i = first_thread; i < s->nthreads; i++) /* threads without sites or lines still count */
        if (tkey_add(KEY(s->threads[i].thread), 3, 0, 0, 0))
            goto out;
#undef KEY
    for (size_t i = 0; i < nids; i++)
        if (keys[i].n)
            qsort(keys[i].t, keys[i].n, sizeof *keys[i].t, cmp_tuple);
    qsort(keys, nids, sizeof *keys, cmp_tkey);
    /* map[index of the old number] = the new one */
    for (size_t i = 0; i < nids; i++)
        map[id_index(ids, nids, keys[i].id)] = (uint32_t)i + 1;
#define MAP(id) (id_index(ids, nids, (id)) < nids && ids[id_index(ids, nids, (id))] == (id) \
                     ? map[id_index(ids, nids, (id))] : (id))
    for (size_t i = first_site; i < s->nsites; i++)
        s->sites[i].rec.thread = MAP(s->sites[i].rec.thread);
    for (size_t i = first_line; i < s->nlines; i++)
        for (uint32_t k = 0; k < s->lines[i].rec.nthreads; k++)
            s->lines[i].thr[k].thread = MAP(s->lines[i].thr[k].thread);
    for (size_t i = first_thread; i < s->nthreads; i++)
        s->threads[i].thread = MAP(s->threads[i].thread);
    for (size_t i = first_alloc; i < s->nallocs; i++)
        s->allocs[i].rec.thread = MAP(s->allocs[i].rec.thread);
#undef MAP
    rc = 0;
out:
    if (keys)
        for (size_t i = 0; i < nids; i++)
            free(keys[i].t);
    free(keys);
    free(map);
    free(ids);
    return rc;
}

int pi_share_add(struct pi_share *dst, const struct pi_share *src, const struct pi_trace *st,
                 const struct pi_trace_module *modules, size_t nmodules, struct pi_err *err)
{
    const char *name = st->path ? st->path : "trace";
    size_t cap;
    size_t l0 = dst->nlines, s0 = dst->nsites, t0 = dst->nthreads, a0 = dst->nallocs;
#define RESERVE(arr, n, more)                                                                     \
    do {                                                                                          \
        cap = (n) + (more);                                                                       \
        void *q_ = cap ? reallocarray_keep((arr), cap, sizeof *(arr)) : (arr);                    \
        if (cap && !q_)                                                                           \
            return pi_err_set(err, "%s: out of memory", name);                                    \
        (arr) = q_;                                                                               \
    } while (0)
    RESERVE(dst->lines, dst->nlines, src->nlines);
    RESERVE(dst->sites, dst->nsites, src->nsites);
    RESERVE(dst->threads, dst->nthreads, src->nthreads);
    RESERVE(dst->allocs, dst->nallocs, src->nallocs);
    RESERVE(dst->regions, dst->nregions, src->nregions);
#undef RESERVE
    for (size_t i = 0; i < src->nregions; i++) { /* as the lines they describe: the heap heap-relative */
        struct pi_share_region_v v = src->regions[i];
        if (!(v.path = strdup(v.path ? v.path : "")))
            return pi_err_set(err, "%s: out of memory", name);
        v.rec.path_len = (uint32_t)strlen(v.path) + 1;
        if (v.rec.kind == PI_SHARE_REGION_HEAP && !(st->hdr.flags & PI_TF_MERGED) &&
            !PI_WATCH_MODULE(v.rec.hi - v.rec.lo)) {
            v.rec.hi = (uint64_t)PI_SHARE_HEAP_TAG << PI_WATCH_MODULE_SHIFT | (v.rec.hi - v.rec.lo);
            v.rec.lo = (uint64_t)PI_SHARE_HEAP_TAG << PI_WATCH_MODULE_SHIFT;
        }
        dst->regions[dst->nregions++] = v;
    }
    for (size_t i = 0; i < src->nlines; i++) {
        struct pi_share_line_v v = src->lines[i];
        v.thr = malloc(v.rec.nthreads * sizeof *v.thr);
        if (!v.thr)
            return pi_err_set(err, "%s: out of memory", name);
        memcpy(v.thr, src->lines[i].thr, v.rec.nthreads * sizeof *v.thr);
        v.rec.addr = rebase_line(src, st, modules, nmodules, v.rec.addr);
        dst->lines[dst->nlines++] = v;
    }
    for (size_t i = 0; i < src->nsites; i++) {
        struct pi_share_site_v v = src->sites[i];
        if (v.what && !(v.what = strdup(v.what)))
            return pi_err_set(err, "%s: out of memory", name);
        v.rec.what_len = v.what ? (uint32_t)strlen(v.what) + 1 : 0; /* what the writer copies */
        v.rec.pc = rebase(st, modules, nmodules, v.rec.pc);
        v.rec.line = rebase_line(src, st, modules, nmodules, v.rec.line);
        dst->sites[dst->nsites++] = v;
    }
    for (size_t i = 0; i < src->nthreads; i++)
        dst->threads[dst->nthreads++] = src->threads[i];
    if (src->has_stats) {
        pi_share_stats_add(&dst->stats, &src->stats);
        dst->has_stats = 1;
    }
    for (size_t i = 0; i < src->nallocs; i++) {
        struct pi_share_alloc_v v = src->allocs[i];
        v.frames = malloc((v.rec.nframes ? v.rec.nframes : 1) * sizeof(uint64_t));
        if (!v.frames)
            return pi_err_set(err, "%s: out of memory", name);
        for (uint32_t k = 0; k < v.rec.nframes; k++)
            v.frames[k] = rebase(st, modules, nmodules, src->allocs[i].frames[k]);
        int moved;
        v.rec.addr = heap_rel(src, st, v.rec.addr, &moved);
        dst->allocs[dst->nallocs++] = v;
    }
    if (renumber(dst, l0, s0, t0, a0))
        return pi_err_set(err, "%s: out of memory", name);
    return pi_share_fold(dst, err);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

static int cmp_line(const void *x, const void *y)
{
    return cmp_u64(((const struct pi_share_line_v *)x)->rec.addr, ((const struct pi_share_line_v *)y)->rec.addr);
}

static int cmp_thr(const void *x, const void *y)
{
    return cmp_u64(((const struct pi_share_thr *)x)->thread, ((const struct pi_share_thr *)y)->thread);
}

static int cmp_site(const void *x, const void *y)
{
    const struct pi_share_site_v *a = x, *b = y;
    int c = cmp_u64(a->rec.pc, b->rec.pc);
    if (!c)
        c = cmp_u64(a->rec.line, b->rec.line);
    if (!c)
        c = cmp_u64(a->rec.thread, b->rec.thread);
    if (!c)
        c = strcmp(a->what ? a->what : "", b->what ? b->what : "");
    return c;
}

static int cmp_thread(const void *x, const void *y)
{
    return cmp_u64(((const struct pi_rec_share_thread *)x)->thread, ((const struct pi_rec_share_thread *)y)->thread);
}

static int cmp_region(const void *x, const void *y)
{
    const struct pi_share_region_v *a = x, *b = y;
    int c = cmp_u64(a->rec.lo, b->rec.lo);
    if (!c)
        c = cmp_u64(a->rec.hi, b->rec.hi);
    if (!c)
        c = cmp_u64(a->rec.kind, b->rec.kind);
    return c ? c : strcmp(a->path, b->path);
}

static int cmp_alloc(const void *x, const void *y)
{
    const struct pi_share_alloc_v *a = x, *b = y;
    int c = cmp_u64(a->rec.addr, b->rec.addr);
    if (!c)
        c = cmp_u64(a->rec.seq, b->rec.seq);
    if (!c)
        c = cmp_u64(a->rec.size, b->rec.size);
    if (!c)
        c = cmp_u64(a->rec.thread, b->rec.thread);
    if (!c)
        c = cmp_u64(a->rec.kind, b->rec.kind);
    if (!c)
        c = cmp_u64(a->rec.freed, b->rec.freed);
    if (!c)
        c = cmp_u64(a->rec.nframes, b->rec.nframes);
    for (uint32_t k = 0; !c && k < a->rec.nframes; k++)
        c = cmp_u64(a->frames[k], b->frames[k]);
    return c;
}

/* [first, last] widened by [f, l]; an unknown end (PI_SHARE_EPOCH_NONE)
 * makes the result unknown. */
static void epochs_widen(uint32_t *first, uint32_t *last, uint32_t f, uint32_t l)
{
    if (*first == PI_SHARE_EPOCH_NONE || f == PI_SHARE_EPOCH_NONE) {
        *first = *last = PI_SHARE_EPOCH_NONE;
        return;
    }
    *first = f < *first ? f : *first;
    *last = l > *last ? l : *last;
}

/* Threads of line b added into line a (both sorted by thread). */
static int fold_line(struct pi_share_line_v *a, struct pi_share_line_v *b)
{
    uint32_t n = a->rec.nthreads + b->rec.nthreads;
    struct pi_share_thr *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    memcpy(t, a->thr, a->rec.nthreads * sizeof *t);
    memcpy(t + a->rec.nthreads, b->thr, b->rec.nthreads * sizeof *t);
    qsort(t, n, sizeof *t, cmp_thr);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m && t[m - 1].thread == t[i].thread) {
            struct pi_share_thr *d = &t[m - 1];
            if (d->cpu != t[i].cpu)
                d->cpu = ~0u;
            d->rmask |= t[i].rmask;
            d->wmask |= t[i].wmask;
            d->reads = sat_add(d->reads, t[i].reads);
            d->writes = sat_add(d->writes, t[i].writes);
            d->reloads_true = sat_add(d->reloads_true, t[i].reloads_true);
            d->reloads_false = sat_add(d->reloads_false, t[i].reloads_false);
            epochs_widen(&d->epoch_first, &d->epoch_last, t[i].epoch_first, t[i].epoch_last);
        } else
            t[m++] = t[i];
    }
    free(a->thr);
    free(b->thr);
    b->thr = NULL;
    a->thr = t;
    a->rec.nthreads = m;
    a->rec.flags = PI_SHARE_LINE_EPOCHS;
    a->rec.reloads_true = sat_add(a->rec.reloads_true, b->rec.reloads_true);
    a->rec.reloads_false = sat_add(a->rec.reloads_false, b->rec.reloads_false);
    for (unsigned k = 0; k < PI_SHARE_AREAS; k++) {
        a->rec.area_true[k] = sat_add(a->rec.area_true[k], b->rec.area_true[k]);
        a->rec.area_false[k] = sat_add(a->rec.area_false[k], b->rec.area_false[k]);
    }
    return 0;
}

int pi_share_fold(struct pi_share *s, struct pi_err *err)
{
    size_t m = 0;
    for (size_t i = 0; i < s->nlines; i++) /* each line's threads in order, so that equal lines compare equal */
        qsort(s->lines[i].thr, s->lines[i].rec.nthreads, sizeof *s->lines[i].thr, cmp_thr);
    if (s->nlines)
        qsort(s->lines, s->nlines, sizeof *s->lines, cmp_line);
    for (size_t i = 0; i < s->nlines; i++) {
        if (m && s->lines[m - 1].rec.addr == s->lines[i].rec.addr) {
            if (fold_line(&s->lines[m - 1], &s->lines[i]))
                return pi_err_set(err, "out of memory");
        } else
            s->lines[m++] = s->lines[i];
    }
    s->nlines = m;

    if (s->nsites)
        qsort(s->sites, s->nsites, sizeof *s->sites, cmp_site);
    m = 0;
    for (size_t i = 0; i < s->nsites; i++) {
        if (m && !cmp_site(&s->sites[m - 1], &s->sites[i])) {
            struct pi_rec_share_site *d = &s->sites[m - 1].rec, *x = &s->sites[i].rec;
            d->flags |= x->flags;
            d->mask |= x->mask;
            d->accesses = sat_add(d->accesses, x->accesses);
            d->reloads_true = sat_add(d->reloads_true, x->reloads_true);
            d->reloads_false = sat_add(d->reloads_false, x->reloads_false);
            free(s->sites[i].what);
        } else
            s->sites[m++] = s->sites[i];
    }
    s->nsites = m;

    if (s->nthreads)
        qsort(s->threads, s->nthreads, sizeof *s->threads, cmp_thread);
    m = 0;
    for (size_t i = 0; i < s->nthreads; i++) {
        if (m && s->threads[m - 1].thread == s->threads[i].thread) {
            struct pi_rec_share_thread *d = &s->threads[m - 1], *x = &s->threads[i];
            if (d->tid != x->tid)
                d->tid = 0;
            if (d->cpu != x->cpu)
                d->cpu = ~0u;
            if (x->period > d->period)
                d->period = x->period;
            /* one program, several runs: the widest lifetime (the same in
             * every run of a deterministic program) */
            if ((d->flags & x->flags & PI_SHARE_THREAD_EPOCHS)) {
                d->birth = x->birth < d->birth ? x->birth : d->birth;
                d->death = x->death > d->death ? x->death : d->death;
            } else {
                d->birth = 0;
                d->death = PI_SHARE_EPOCH_NONE;
                d->flags &= ~(uint32_t)PI_SHARE_THREAD_EPOCHS;
            }
            d->flags |= x->flags & PI_SHARE_THREAD_FORKS;
        } else
            s->threads[m++] = s->threads[i];
    }
    s->nthreads = m;

    if (s->nallocs)
        qsort(s->allocs, s->nallocs, sizeof *s->allocs, cmp_alloc);
    m = 0;
    for (size_t i = 0; i < s->nallocs; i++) {
        if (m && !cmp_alloc(&s->allocs[m - 1], &s->allocs[i]))
            free(s->allocs[i].frames);
        else
            s->allocs[m++] = s->allocs[i];
    }
    s->nallocs = m;

    if (s->nregions)
        qsort(s->regions, s->nregions, sizeof *s->regions, cmp_region);
    m = 0;
    for (size_t i = 0; i < s->nregions; i++) {
        if (m && !cmp_region(&s->regions[m - 1], &s->regions[i]))
            free(s->regions[i].path);
        else
            s->regions[m++] = s->regions[i];
    }
    s->nregions = m;
    return 0;
}

int pi_share_records(const struct pi_share *s, struct pi_trace_extra **out, size_t *n)
{
    size_t total = s->nthreads + s->nallocs + s->nlines + s->nsites + s->nregions + (s->has_stats != 0), k = 0;
    *out = NULL;
    *n = 0;
    if (!total)
        return 0;
    struct pi_trace_extra *x = calloc(total, sizeof *x);
    if (!x)
        return -1;
    for (size_t i = 0; i < s->nthreads; i++)
        x[k++] = (struct pi_trace_extra){PI_REC_SHARE_THREAD, &s->threads[i], NULL, sizeof s->threads[i], 0};
    for (size_t i = 0; i < s->nallocs; i++)
        x[k++] = (struct pi_trace_extra){PI_REC_SHARE_ALLOC, &s->allocs[i].rec, s->allocs[i].frames,
                                         sizeof s->allocs[i].rec, s->allocs[i].rec.nframes * sizeof(uint64_t)};
    for (size_t i = 0; i < s->nlines; i++)
        x[k++] = (struct pi_trace_extra){PI_REC_SHARE_LINE, &s->lines[i].rec, s->lines[i].thr,
                                         sizeof s->lines[i].rec,
                                         s->lines[i].rec.nthreads * sizeof(struct pi_share_thr)};
    for (size_t i = 0; i < s->nsites; i++)
        x[k++] = (struct pi_trace_extra){PI_REC_SHARE_SITE, &s->sites[i].rec, s->sites[i].what,
                                         sizeof s->sites[i].rec, s->sites[i].rec.what_len};
    for (size_t i = 0; i < s->nregions; i++)
        x[k++] = (struct pi_trace_extra){PI_REC_SHARE_REGION, &s->regions[i].rec, s->regions[i].path,
                                         sizeof s->regions[i].rec, s->regions[i].rec.path_len};
    if (s->has_stats)
        x[k++] = (struct pi_trace_extra){PI_REC_SHARE_STATS, &s->stats, NULL, sizeof s->stats, 0};
    *out = x;
    *n = k;
    return 0;
}

/* ---- the arrays' facts ---------------------------------------------------- */

int pi_share_arrays_parse(const char *data, size_t size, struct pi_share_array **out, size_t *n)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    const char *p = data, *end = data + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[1024], status[16];
        struct pi_share_array a;
        int used = 0;
        memset(&a, 0, sizeof a);
        if (len < sizeof line) {
            memcpy(line, p, len);
            line[len] = 0;
            unsigned long long es, cnt;
            unsigned ln;
            if (sscanf(line, "pi-share-array %127s %255s %u %llu %llu %15s %n", a.name, a.file, &ln, &es, &cnt,
                       status, &used) == 6 &&
                (!strcmp(status, "ok") || !strcmp(status, "refused"))) {
                a.line = ln;
                a.elem_size = es;
                a.count = cnt;
                a.ok = !strcmp(status, "ok");
                snprintf(a.reason, sizeof a.reason, "%s", used ? line + used : ""); /* ok: "public" or "" */
                if (GROW(*out, *n, cap))
                    return -1;
                (*out)[(*n)++] = a;
            }
        }
        p += len + 1;
        while (p < end && !*p) /* units' sections are padded with NULs */
            p++;
    }
    return 0;
}

int pi_share_arrays_read(const char *path, struct pi_share_array **out, size_t *n, struct pi_err *err)
{
    *out = NULL;
    *n = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return pi_err_set(err, "%s: libelf: %s", path, elf_errmsg(-1));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pi_err_set(err, "%s: %s", path, strerror(errno));
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    int rc = 0;
    if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
        rc = pi_err_set(err, "%s: not an ELF file%s", path, pi_not_elf_why(path));
        goto done;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
            strcmp(name, ".perfinst_share_arrays") || sh.sh_type == SHT_NOBITS)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (d && d->d_buf && pi_share_arrays_parse(d->d_buf, d->d_size, out, n))
            rc = pi_err_set(err, "%s: out of memory", path);
        break;
    }
done:
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}
