/* sharing-model.c — the model behind pmopt report --sharing and plan
 * --sharing: a trace's sharing records (PI_REC_SHARE_*) against PROG,
 * mapped to objects, judged, predicted at other placements and, for the
 * plan, under a repair (docs/sharing.md).
 *
 *   1. The records are folded (pi_share_fold: lines by address, sites,
 *      threads, allocations and mappings sorted), the sites indexed by
 *      line, the heap cut into segments, each the latest allocation that
 *      holds it (a sweep over the allocations: one binary search per
 *      lookup afterwards).
 *   2. Each line's bytes are mapped to objects, a few lookups per line: a
 *      global of PROG by DWARF (pidwarf, binary search), a recorded heap
 *      object by its segment, else the mapping the line lies in (one
 *      object per mapping: memory allocated where perfinst did not see it),
 *      else a run of adjacent lines.
 *   3. The verdict of a line: two threads whose lives overlap in fork/join
 *      epochs (SH_V_*), one writing bytes the other does not touch (false)
 *      or touches (true).  Epochs, not the interleaving of this run: the
 *      same program gives the same verdict idle or loaded.  The runtime's
 *      observed reloads (sampled) are the cost; when it observed none, an
 *      upper bound from the access counts is the estimate.
 *   4. Each object two or more threads touched: its threads' byte
 *      footprints (private lines included) placed at every 8-byte offset of
 *      a line and of a 128-byte pair, one pass over the footprints per
 *      placement (each footprint lands in at most two windows); its
 *      neighbours on its lines (victim, culprit); one verdict and one
 *      figure.
 *
 * Every loop adds to a->work, the measure of the analysis the tests check
 * instead of the clock (near-linear: a few dozen steps per record).
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "merge.h"
#include "sharing.h"

struct sh_seg {
    uint64_t lo, hi;           /* [lo, hi) */
    size_t alloc;              /* index into a->s.allocs */
};

/* ---- threads and epochs ----------------------------------------------------- */

const struct sh_thread *sh_thread_of(const struct sh_analysis *a, uint32_t num)
{
    size_t lo = 0, hi = a->nthr;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (a->thr[m].thread < num)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < a->nthr && a->thr[lo].thread == num ? &a->thr[lo] : NULL;
}

void sh_thread_span(const struct sh_analysis *a, uint32_t thread, uint32_t e_first, uint32_t e_last, uint32_t *lo,
                    uint32_t *hi)
{
    const struct sh_thread *t = sh_thread_of(a, thread);
    *lo = 0;
    *hi = UINT32_MAX;
    if (!t || !t->known)
        return; /* unknown: at any time */
    if (t->forks && e_first != PI_SHARE_EPOCH_NONE) {
        /* a thread that creates and joins others: when it touched the line */
        *lo = e_first;
        *hi = e_last == UINT32_MAX ? UINT32_MAX : e_last + 1;
        return;
    }
    *lo = t->birth;
    *hi = t->death == PI_SHARE_EPOCH_NONE ? UINT32_MAX : t->death;
}

static int overlap(uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi)
{
    return alo < bhi && blo < ahi;
}

/* ---- windows: what threads do on one (virtual) line -------------------------- */

struct wthr {
    uint32_t thread;
    uint64_t r[2], w[2];       /* window bytes (up to 128) */
    uint64_t acc, wr;
    uint32_t lo, hi;
};

struct window {
    int64_t v;                 /* its index; INT64_MIN: unused */
    int n, cap;
    struct wthr *t;
};

static void win_add(struct sh_analysis *a, struct window *w, uint32_t thread, const uint64_t r[2],
                    const uint64_t wm[2], uint64_t acc, uint64_t wr, uint32_t lo, uint32_t hi)
{
    int k;
    for (k = 0; k < w->n && w->t[k].thread != thread; k++)
        ;
    a->work += (uint64_t)k + 1;
    if (k == w->n) {
        if (w->n == w->cap) {
            int nc = w->cap ? 2 * w->cap : 8;
            struct wthr *nt = realloc(w->t, (size_t)nc * sizeof *nt);
            if (!nt) {
                rep_oom();
                exit(PM_ERROR);
            }
            w->t = nt;
            w->cap = nc;
        }
        w->t[k] = (struct wthr){.thread = thread, .lo = lo, .hi = hi};
        w->n++;
    }
    struct wthr *t = &w->t[k];
    for (int q = 0; q < 2; q++)
        t->r[q] |= r[q], t->w[q] |= wm[q];
    t->acc += acc;
    t->wr += wr;
    t->lo = lo < t->lo ? lo : t->lo;
    t->hi = hi > t->hi ? hi : t->hi;
}

/* The verdict (SH_V_*) of one window, *bound += its false reloads' bound:
 * false sharing when a thread touches bytes another thread, running at the
 * same time, never writes while that thread writes others (the first loses
 * the line for data it does not share); true sharing when the other writes
 * bytes it touches.  A thread's accesses reload falsely at most as often as
 * such threads write. */
static int win_eval(struct sh_analysis *a, const struct window *w, uint64_t *bound)
{
    int v = 0;
    for (int u = 0; u < w->n; u++) {
        const struct wthr *tu = &w->t[u];
        uint64_t touch[2] = {tu->r[0] | tu->w[0], tu->r[1] | tu->w[1]};
        if (!(touch[0] | touch[1]))
            continue;
        uint64_t other = 0;
        for (int x = 0; x < w->n; x++) {
            const struct wthr *tx = &w->t[x];
            if (x == u || !(tx->w[0] | tx->w[1]) || !overlap(tu->lo, tu->hi, tx->lo, tx->hi))
                continue;
            /* u's accesses to bytes x never writes lose the line to x's
             * writes: false sharing (the runtime's rule, per access) */
            if ((touch[0] & ~tx->w[0]) | (touch[1] & ~tx->w[1])) {
                v |= SH_V_FALSE;
                other += tx->wr;
            }
            if ((tx->w[0] & touch[0]) | (tx->w[1] & touch[1]))
                v |= SH_V_TRUE;
        }
        a->work += (uint64_t)w->n;
        if (bound)
            *bound += tu->acc < other ? tu->acc : other;
    }
    return v;
}

/* ---- objects: the heap's segments -------------------------------------------- */

/* The heap cut into segments, each owned by the latest allocation (largest
 * seq) holding it, none where that is an unrecorded one: a sweep over the allocations' starts and ends with a
 * heap of the open ones by seq (lazy deletion). */
struct ev {
    uint64_t at;
    size_t alloc;
    int start;
};

static int cmp_ev(const void *x, const void *y)
{
    const struct ev *a = x, *b = y;
    PI_CMP_RET(a->at, b->at);
    return a->start - b->start; /* ends first */
}

static uint64_t alloc_end(const struct pi_share_alloc_v *al)
{
    uint64_t n = al->rec.size ? al->rec.size : 1;
    return al->rec.addr + n < al->rec.addr ? UINT64_MAX : al->rec.addr + n;
}

static int build_segments(struct sh_analysis *a)
{
    size_t n = a->s.nallocs;
    if (!n)
        return 0;
    struct ev *ev = malloc(2 * n * sizeof *ev);
    size_t *heap = malloc(n * sizeof *heap);
    a->segs = malloc(2 * n * sizeof *a->segs);
    if (!ev || !heap || !a->segs) {
        free(ev);
        free(heap);
        return rep_oom();
    }
    for (size_t i = 0; i < n; i++) {
        ev[2 * i] = (struct ev){a->s.allocs[i].rec.addr, i, 1};
        ev[2 * i + 1] = (struct ev){alloc_end(&a->s.allocs[i]), i, 0};
    }
    qsort(ev, 2 * n, sizeof *ev, cmp_ev);
    a->work += 2 * n * 20;
    char *ended = calloc(n, 1);
    if (!ended) {
        free(ev);
        free(heap);
        return rep_oom();
    }
#define SEQ(i) (a->s.allocs[heap[i]].rec.seq)
    size_t hn = 0;
    for (size_t e = 0; e < 2 * n;) {
        uint64_t at = ev[e].at;
        for (; e < 2 * n && ev[e].at == at; e++) {
            a->work++;
            if (!ev[e].start) {
                ended[ev[e].alloc] = 1;
                continue;
            }
            size_t c = hn++; /* push, sift up */
            heap[c] = ev[e].alloc;
            while (c && SEQ((c - 1) / 2) < SEQ(c)) {
                size_t p = (c - 1) / 2, t = heap[p];
                heap[p] = heap[c], heap[c] = t, c = p;
                a->work++;
            }
        }
        while (hn && ended[heap[0]]) { /* pop the ended tops */
            heap[0] = heap[--hn];
            for (size_t c = 0;;) {
                size_t l = 2 * c + 1, r = l + 1, m = c;
                if (l < hn && SEQ(l) > SEQ(m))
                    m = l;
                if (r < hn && SEQ(r) > SEQ(m))
                    m = r;
                a->work++;
                if (m == c)
                    break;
                size_t t = heap[m];
                heap[m] = heap[c], heap[c] = t, c = m;
            }
        }
        /* (an allocation outside instrumented code over an earlier
         * object's bytes, PI_SHARE_ALLOC_UNRECORDED: no segment, its bytes
         * named by their mapping) */
        if (hn && e < 2 * n && a->s.allocs[heap[0]].rec.kind != PI_SHARE_ALLOC_UNRECORDED) {
            struct sh_seg *last = a->nsegs ? &a->segs[a->nsegs - 1] : NULL;
            if (last && last->hi == at && last->alloc == heap[0])
                last->hi = ev[e].at;
            else
                a->segs[a->nsegs++] = (struct sh_seg){at, ev[e].at, heap[0]};
        }
    }
#undef SEQ
    free(ended);
    free(ev);
    free(heap);
    return 0;
}

/* The segment holding b, or the first after it (index; nsegs if none). */
static size_t seg_at(struct sh_analysis *a, uint64_t b)
{
    size_t lo = 0, hi = a->nsegs;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        a->work++;
        if (a->segs[m].hi <= b)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* The mapping holding b (regions sorted, disjoint), or NULL; *next: the
 * start of the next one above b. */
static const struct pi_share_region_v *region_at(struct sh_analysis *a, uint64_t b, uint64_t *next)
{
    size_t lo = 0, hi = a->s.nregions;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        a->work++;
        if (a->s.regions[m].rec.hi <= b)
            lo = m + 1;
        else
            hi = m;
    }
    *next = lo < a->s.nregions ? a->s.regions[lo].rec.lo : UINT64_MAX;
    return lo < a->s.nregions && a->s.regions[lo].rec.lo <= b ? &a->s.regions[lo] : NULL;
}

/* ---- objects ------------------------------------------------------------------ */

struct obj_maps {
    int *var, *alloc, *region; /* object index per DWARF variable, allocation, mapping; -1 */
    int run;                   /* the object of the last run of lines outside every mapping */
    uint64_t run_end;
    size_t cap;
};

static int in_module(const struct sh_analysis *a, uint64_t addr, uint64_t *link)
{
    if (!a->mod || addr < a->bias)
        return 0;
    *link = addr - a->bias;
    return a->have_dbg && a->dbg.alloc_hi && *link >= a->dbg.alloc_lo && *link < a->dbg.alloc_hi;
}

static int obj_add(struct sh_analysis *a, const struct sh_object *o, struct obj_maps *m)
{
    if (a->nobjs == m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 16;
        struct sh_object *no = realloc(a->objs, nc * sizeof *no);
        if (!no) {
            rep_oom();
            exit(PM_ERROR);
        }
        a->objs = no;
        m->cap = nc;
    }
    a->objs[a->nobjs] = *o;
    a->objs[a->nobjs].row0 = SIZE_MAX;
    return (int)a->nobjs++;
}

/* Memory no global of PROG and no recorded allocation holds: one object
 * per mapping (its extent), named by the mapping; outside every mapping
 * (no REGION records), a run of adjacent lines. */
static void name_unrecorded(struct sh_analysis *a, struct sh_object *o)
{
    unsigned long long lo = o->addr, hi = o->addr + o->size - 1;
    uint32_t tag = PI_WATCH_MODULE(o->addr);
    const char *pre = "";
    if (tag == PI_SHARE_HEAP_TAG) { /* a merged trace: heap-relative */
        pre = "heap+";
        lo = PI_WATCH_OFFSET(lo), hi = PI_WATCH_OFFSET(hi);
    }
    const struct pi_share_region_v *g = o->region;
    if (tag && tag != PI_SHARE_HEAP_TAG) { /* a merged trace: another module's data, module-relative */
        const struct pi_trace_module *m = tag - 1 < a->t.nmodules ? &a->t.modules[tag - 1] : NULL;
        snprintf(o->name, sizeof o->name, "data of %s at +0x%llx-0x%llx",
                 m && m->path ? pm_basename(m->path) : "a module", (unsigned long long)PI_WATCH_OFFSET(lo),
                 (unsigned long long)PI_WATCH_OFFSET(hi));
    } else if (!g)
        snprintf(o->name, sizeof o->name, "memory %s0x%llx-0x%llx (not a global, not recorded: heap allocated "
                 "outside instrumented code?)", pre, lo, hi);
    else if (g->rec.kind == PI_SHARE_REGION_HEAP)
        snprintf(o->name, sizeof o->name, "memory %s0x%llx-0x%llx (the heap, allocated outside instrumented code)",
                 pre, lo, hi);
    else if (g->rec.kind == PI_SHARE_REGION_ANON)
        snprintf(o->name, sizeof o->name, "memory %s0x%llx-0x%llx (an anonymous mapping: mmap'd memory, another "
                 "thread's heap or stack, allocated outside instrumented code)", pre, lo, hi);
    else if (g->rec.kind == PI_SHARE_REGION_STACK)
        snprintf(o->name, sizeof o->name, "memory %s0x%llx-0x%llx (the main thread's stack)", pre, lo, hi);
    else
        snprintf(o->name, sizeof o->name, "memory %s0x%llx-0x%llx (data of %.60s)", pre, lo, hi,
                 g->path[0] ? pm_basename(g->path) : "an anonymous mapping");
}

static int heap_object(struct sh_analysis *a, size_t ai, struct obj_maps *m)
{
    if (m->alloc[ai] >= 0)
        return m->alloc[ai];
    const struct pi_share_alloc_v *al = &a->s.allocs[ai];
    struct sh_object o;
    memset(&o, 0, sizeof o);
    o.kind = SH_OBJ_HEAP;
    o.alloc = al;
    o.addr = al->rec.addr;
    o.size = al->rec.size ? al->rec.size : 1;
    uint64_t pc = al->rec.nframes ? al->frames[0] : 0;
    const char *file = NULL;
    uint32_t line = 0;
    uint64_t pl = pc - a->bias - 1;
    if (a->have_dbg && a->mod && pi_debug_line(&a->dbg, pl, &file, &line)) {
        const struct pi_dfunc *f = pi_debug_func(&a->dbg, pl);
        snprintf(o.file, sizeof o.file, "%s", pm_file(NULL, file));
        snprintf(o.func, sizeof o.func, "%s", f ? pm_fn_key(pm_dfunc_linkage(f)) : "?");
        o.line = line;
        snprintf(o.name, sizeof o.name, "heap object from %s:%u (%s)", pm_basename(file), line,
                 f ? pm_dfunc_name(f) : "?");
    } else
        snprintf(o.name, sizeof o.name, "heap object from pc 0x%llx", (unsigned long long)pc);
    o.stack_as = -1;
    return m->alloc[ai] = obj_add(a, &o, m);
}

/* Heap objects of one name (blocks from one allocation call: per-thread
 * buffers allocated in a loop) are told apart by their order: ", block K
 * of N"; one whose allocation stack is the first block's prints none of
 * its own.  The order is one the scheduler cannot change: by the
 * allocating thread's birth (the epoch of the pthread_create that made it:
 * creation order; the first thread 0), then by that thread's own
 * allocation order.  (The process-wide allocation order interleaves
 * threads allocating at the same call at once as the scheduler ran them:
 * xz -T2's workers' buffers were "block 8 of 27" in one run and "block 14
 * of 27" in the next.)  Threads of unknown birth, or born at one epoch,
 * fall back to their numbers (order of first access). */
static uint64_t twin_birth(const struct sh_analysis *a, const struct sh_object *o)
{
    const struct sh_thread *t = sh_thread_of(a, o->alloc->rec.thread);
    return t && t->known ? t->birth : 0;
}

static int cmp_heap_twins(const void *x, const void *y, void *ctx)
{
    const struct sh_analysis *a = ctx;
    const struct sh_object *p = &a->objs[*(const size_t *)x], *q = &a->objs[*(const size_t *)y];
    int c = strcmp(p->name, q->name);
    if (c)
        return c;
    uint64_t bp = twin_birth(a, p), bq = twin_birth(a, q);
    if (bp != bq)
        return bp < bq ? -1 : 1;
    if (p->alloc->rec.thread != q->alloc->rec.thread)
        return p->alloc->rec.thread < q->alloc->rec.thread ? -1 : 1;
    return (p->alloc->rec.seq > q->alloc->rec.seq) - (p->alloc->rec.seq < q->alloc->rec.seq);
}

static int number_heap_twins(struct sh_analysis *a)
{
    size_t n = 0, *ix = malloc((a->nobjs ? a->nobjs : 1) * sizeof *ix);
    if (!ix)
        return rep_oom();
    for (size_t i = 0; i < a->nobjs; i++)
        if (a->objs[i].kind == SH_OBJ_HEAP)
            ix[n++] = i;
    qsort_r(ix, n, sizeof *ix, cmp_heap_twins, a);
    a->work += n * 20;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && !strcmp(a->objs[ix[j]].name, a->objs[ix[i]].name); j++)
            ;
        if (j - i < 2)
            continue;
        const struct pi_share_alloc_v *first = a->objs[ix[i]].alloc;
        for (size_t k = i; k < j; k++) {
            struct sh_object *o = &a->objs[ix[k]];
            size_t len = strlen(o->name);
            o->twin = k - i + 1;
            snprintf(o->name + len, sizeof o->name - len, ", block %zu of %zu", o->twin, j - i);
            if (k > i && o->alloc->rec.nframes == first->rec.nframes &&
                !memcmp(o->alloc->frames, first->frames, first->rec.nframes * sizeof *first->frames))
                o->stack_as = (int)ix[i];
            a->work += o->alloc->rec.nframes;
        }
    }
    free(ix);
    return 0;
}

/* The object holding byte b, made on first sight, or -1 (padding between
 * globals); *end: where it (or the gap) ends, at most `limit`. */
static int object_at(struct sh_analysis *a, uint64_t b, uint64_t limit, struct obj_maps *m, uint64_t *end)
{
    uint64_t link;
    *end = limit;
    a->work++;
    if (in_module(a, b, &link)) {
        const struct pi_dvar *v = pi_debug_var(&a->dbg, link, link + (limit - b));
        a->work += 16;
        if (!v)
            return -1;
        if (link < v->addr) { /* padding up to the next variable */
            *end = b + (v->addr - link);
            return -1;
        }
        uint64_t vend = v->addr + (v->size ? v->size : 1);
        *end = vend - link < limit - b ? b + (vend - link) : limit;
        size_t vi = (size_t)(v - a->dbg.vars);
        if (m->var[vi] >= 0)
            return m->var[vi];
        struct sh_object o;
        memset(&o, 0, sizeof o);
        o.kind = SH_OBJ_GLOBAL;
        o.var = v;
        o.link = v->addr;
        o.addr = v->addr + a->bias;
        o.size = v->size ? v->size : 1;
        snprintf(o.name, sizeof o.name, "%s", v->name);
        return m->var[vi] = obj_add(a, &o, m);
    }
    size_t si = seg_at(a, b);
    if (si < a->nsegs && a->segs[si].lo <= b) {
        *end = a->segs[si].hi < limit ? a->segs[si].hi : limit;
        return heap_object(a, a->segs[si].alloc, m);
    }
    uint64_t next_seg = si < a->nsegs ? a->segs[si].lo : UINT64_MAX;
    if (next_seg < *end)
        *end = next_seg;
    uint64_t next_region;
    const struct pi_share_region_v *g = region_at(a, b, &next_region);
    if (g) {
        if (g->rec.hi < *end)
            *end = g->rec.hi;
        size_t gi = (size_t)(g - a->s.regions);
        if (m->region[gi] < 0) {
            struct sh_object o;
            memset(&o, 0, sizeof o);
            o.kind = SH_OBJ_OTHER;
            o.region = g;
            o.addr = g->rec.lo;
            o.size = g->rec.hi - g->rec.lo;
            name_unrecorded(a, &o);
            m->region[gi] = obj_add(a, &o, m);
        }
        return m->region[gi];
    }
    if (next_region < *end)
        *end = next_region;
    /* outside every mapping: runs of adjacent lines */
    uint64_t ln = b / PI_SHARE_LINE * PI_SHARE_LINE;
    if (m->run >= 0 && m->run_end == ln) {
        struct sh_object *o = &a->objs[m->run];
        o->size = ln + PI_SHARE_LINE - o->addr;
        m->run_end = ln + PI_SHARE_LINE;
        return m->run;
    }
    if (m->run >= 0 && m->run_end > b)
        return m->run;
    struct sh_object o;
    memset(&o, 0, sizeof o);
    o.kind = SH_OBJ_OTHER;
    o.addr = ln;
    o.size = PI_SHARE_LINE;
    m->run = obj_add(a, &o, m);
    m->run_end = ln + PI_SHARE_LINE;
    return m->run;
}

/* ---- rows ------------------------------------------------------------------------ */

static int cmp_site_line(const void *x, const void *y, void *ctx)
{
    const struct pi_share *s = ctx;
    const struct pi_rec_share_site *a = &s->sites[*(const size_t *)x].rec, *b = &s->sites[*(const size_t *)y].rec;
    PI_CMP_RET(a->line, b->line);
    PI_CMP_RET(a->pc, b->pc);
    return a->thread < b->thread ? -1 : a->thread > b->thread;
}

static int cmp_rank(const void *x, const void *y, void *ctx)
{
    const struct sh_line_row *rows = ctx;
    const struct sh_line_row *a = &rows[*(const size_t *)x], *b = &rows[*(const size_t *)y];
    if ((a->verdict != 0) != (b->verdict != 0)) /* lines with sharing first */
        return a->verdict ? -1 : 1;
    PI_CMP_RET(b->gain, a->gain);
    PI_CMP_RET(b->cost, a->cost);
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void thr_row(const struct sh_analysis *a, const struct pi_share_thr *t, struct sh_thr_row *r)
{
    const struct sh_thread *th = sh_thread_of(a, t->thread);
    /* (sampled counts are 0 for a thread the countdown never picked on this
     * line: its bytes say it read or wrote at least once) */
    uint64_t reads = t->reads ? t->reads : t->rmask != 0, writes = t->writes ? t->writes : t->wmask != 0;
    *r = (struct sh_thr_row){t->thread, th ? th->tid : 0, t->cpu, t->rmask, t->wmask,
                             reads, writes, t->reloads_true, t->reloads_false, 0, UINT32_MAX};
    sh_thread_span(a, t->thread, t->epoch_first, t->epoch_last, &r->lo, &r->hi);
}

/* The verdict and bound of a whole line as it lies. */
static void judge_row(struct sh_analysis *a, struct sh_line_row *r, struct window *w)
{
    w->n = 0;
    for (int k = 0; k < r->nthr; k++) {
        const struct sh_thr_row *t = &r->thr[k];
        uint64_t rm[2] = {t->rmask, 0}, wm[2] = {t->wmask, 0};
        win_add(a, w, t->thread, rm, wm, t->reads + t->writes, t->writes, t->lo, t->hi);
    }
    r->bound = 0;
    r->verdict = win_eval(a, w, &r->bound);
    r->est_observed = r->rf > 0 || !(r->verdict & SH_V_FALSE);
    r->est_false = r->rf ? r->rf : r->verdict & SH_V_FALSE ? r->bound : 0;
    r->cost = (double)(r->rt + r->est_false) * a->reload_cycles;
    r->gain = (double)r->est_false * a->reload_cycles;
}

/* ---- per object: footprints, prediction, verdict ---------------------------------- */

struct foot {
    uint32_t thread;
    int64_t start;             /* line start - object start */
    uint64_t r, w;             /* its bytes of the object on that line */
    uint64_t acc, wr;
    uint32_t lo, hi;
};

/* Bytes of row r inside object oi. */
static uint64_t mine_of(const struct sh_line_row *r, int oi)
{
    uint64_t m = 0;
    for (int b = 0; b < (int)PI_SHARE_LINE; b++)
        if (r->obj[b] == oi)
            m |= 1ull << b;
    return m;
}

static size_t footprints(struct sh_analysis *a, int oi, struct foot **out)
{
    const struct sh_object *o = &a->objs[oi];
    size_t n = 0, cap = 0;
    struct foot *f = NULL;
    for (size_t ri = o->row0; o->row0 != SIZE_MAX && ri < o->row0 + o->nrows; ri++) {
        const struct sh_line_row *r = &a->rows[ri];
        uint64_t mine = mine_of(r, oi);
        a->work += PI_SHARE_LINE / 8;
        for (int k = 0; k < r->nthr; k++) {
            const struct sh_thr_row *t = &r->thr[k];
            if (!((t->rmask | t->wmask) & mine))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                struct foot *nf = realloc(f, cap * sizeof *f);
                if (!nf) {
                    rep_oom();
                    exit(PM_ERROR);
                }
                f = nf;
            }
            f[n++] = (struct foot){t->thread, (int64_t)(r->addr - o->addr), t->rmask & mine, t->wmask & mine,
                                   t->reads + t->writes, t->writes, t->lo, t->hi};
            a->work++;
        }
    }
    *out = f;
    return n;
}

/* Put a 64-bit mask at bit `off` (0 <= off < win) of window v0 of `win`
 * bits: what lands in v0 and in v0 + 1. */
static void place(uint64_t m, int off, int win, uint64_t in0[2], uint64_t in1[2])
{
    uint64_t words[4] = {0, 0, 0, 0};
    int w = off / 64, s = off % 64;
    words[w] |= m << s;
    if (s)
        words[w + 1] |= m >> (64 - s);
    int per = win / 64;
    for (int i = 0; i < 2; i++) {
        in0[i] = i < per ? words[i] : 0;
        in1[i] = i < per ? words[per + i] : 0;
    }
}

/* The streaming evaluation of footprints laid out at byte positions
 * pos(f, k) = map(f.start + k) + shift, in windows of `win` bytes: each
 * footprint lands in one or two consecutive windows, and footprints come
 * in order of position, so two open windows suffice. */
struct layout {
    const struct sh_fix *fix;  /* NULL: the object as it is */
    int shift, win;
};

static int64_t floordiv(int64_t x, int64_t d)
{
    return x >= 0 ? x / d : -((-x + d - 1) / d);
}

static int flush(struct sh_analysis *a, struct window *w, uint64_t *bound, uint64_t *pairs)
{
    if (w->v == INT64_MIN || !w->n)
        return 0;
    int v = win_eval(a, w, bound);
    if (pairs)
        for (int i = 0; i < w->n; i++)
            for (int j = i + 1; j < w->n; j++)
                *pairs += overlap(w->t[i].lo, w->t[i].hi, w->t[j].lo, w->t[j].hi) &&
                          ((w->t[i].w[0] | w->t[i].w[1] | w->t[j].w[0] | w->t[j].w[1]) != 0);
    w->n = 0;
    w->v = INT64_MIN;
    return v;
}

/* Where object byte ob goes under fix (its position from the object's new
 * start); -1: nowhere known (a byte outside the fields). */
static int64_t fixed_pos(const struct sh_fix *fix, int64_t ob)
{
    if (!fix || fix->kind == SH_FIX_ALIGN)
        return ob;
    if (ob < 0)
        return -1;
    uint64_t el = (uint64_t)ob / fix->stride, in = (uint64_t)ob % fix->stride;
    if (fix->kind == SH_FIX_STRIDE)
        return (int64_t)(el * fix->new_stride + in);
    for (int i = 0; i < fix->nfields; i++)
        if (in >= fix->old_off[i] && in < fix->old_end[i])
            return (int64_t)(el * fix->new_stride + fix->new_off[i] + (in - fix->old_off[i]));
    return (int64_t)(el * fix->new_stride + in); /* (padding: stays) */
}

/* The open windows of an evaluation, by index: all the footprints of one
 * line land in a span of windows, and each line's footprints come after
 * the previous line's (positions grow with the object byte, under any fix:
 * fields keep their order); so a window is complete once the next line's
 * first position lies beyond it. */
struct open_windows {
    struct window *w;
    int n, cap;
    uint64_t nfalse;           /* windows judged with false sharing */
};

static struct window *window_at(struct open_windows *ow, int64_t v)
{
    for (int i = 0; i < ow->n; i++)
        if (ow->w[i].v == v)
            return &ow->w[i];
    if (ow->n == ow->cap) {
        int nc = ow->cap ? 2 * ow->cap : 4;
        struct window *nw = realloc(ow->w, (size_t)nc * sizeof *nw);
        if (!nw) {
            rep_oom();
            exit(PM_ERROR);
        }
        memset(nw + ow->cap, 0, (size_t)(nc - ow->cap) * sizeof *nw);
        ow->w = nw;
        ow->cap = nc;
    }
    struct window *w = &ow->w[ow->n++];
    w->v = v;
    w->n = 0;
    return w;
}

/* Judge and close the windows below v (all of them: INT64_MAX). */
static int flush_below(struct sh_analysis *a, struct open_windows *ow, int64_t v, uint64_t *bound, uint64_t *pairs)
{
    int verdict = 0;
    for (int i = 0; i < ow->n;) {
        if (ow->w[i].v >= v) {
            i++;
            continue;
        }
        int v = flush(a, &ow->w[i], bound, pairs);
        ow->nfalse += (v & SH_V_FALSE) != 0;
        verdict |= v;
        struct window t = ow->w[i]; /* (keep its thread array for reuse) */
        ow->w[i] = ow->w[--ow->n];
        ow->w[ow->n] = t;
    }
    return verdict;
}

/* One run of a footprint's bytes (masks over 64 bytes from pos) laid into
 * the windows it covers (one or two). */
static void lay_one(struct sh_analysis *a, const struct foot *f, uint64_t rm, uint64_t wm, int64_t pos,
                    const struct layout *L, struct open_windows *ow)
{
    int64_t v0 = floordiv(pos, L->win);
    int off = (int)(pos - v0 * L->win);
    uint64_t r0[2], r1[2], w0[2], w1[2];
    place(rm, off, L->win, r0, r1);
    place(wm, off, L->win, w0, w1);
    for (int part = 0; part < 2; part++) {
        const uint64_t *rr = part ? r1 : r0, *ww = part ? w1 : w0;
        if (!(rr[0] | rr[1] | ww[0] | ww[1]))
            continue;
        win_add(a, window_at(ow, v0 + part), f->thread, rr, ww, f->acc, f->wr, f->lo, f->hi);
    }
}

/* Where footprint f's first byte goes (the start of its line under the
 * layout). */
static int64_t first_pos(const struct foot *f, const struct layout *L)
{
    uint64_t m = f->r | f->w;
    if (!L->fix || L->fix->kind == SH_FIX_ALIGN)
        return f->start + L->shift;
    int k = m ? __builtin_ctzll(m) : 0;
    return fixed_pos(L->fix, f->start + k) + L->shift;
}

/* The verdict of object o's footprints laid out by L (windows of L->win
 * bytes), the false reloads' bound, the pairs of threads on shared windows
 * and the windows in false sharing (*nfalse; each may be NULL). */
static int evaluate_windows(struct sh_analysis *a, const struct sh_object *o, const struct foot *f, size_t nf,
                            const struct layout *L, uint64_t *bound, uint64_t *pairs, uint64_t *nfalse)
{
    struct open_windows ow = {NULL, 0, 0, 0};
    int verdict = 0;
    *bound = 0;
    if (pairs)
        *pairs = 0;
    for (size_t i = 0; i < nf; i++) {
        a->work += 2;
        uint64_t m = f[i].r | f[i].w;
        if (!m)
            continue;
        if (!i || f[i].start != f[i - 1].start) /* a new line: the windows before it are complete */
            verdict |= flush_below(a, &ow, floordiv(first_pos(&f[i], L), L->win), bound, pairs);
        if (!L->fix || L->fix->kind == SH_FIX_ALIGN) { /* the bytes move together */
            lay_one(a, &f[i], f[i].r, f[i].w, f[i].start + L->shift, L, &ow);
            continue;
        }
        /* the bytes move in runs: each run of bytes that stays together */
        for (int k = 0; k < 64;) {
            if (!((m >> k) & 1)) {
                k++;
                continue;
            }
            int64_t p = fixed_pos(L->fix, f[i].start + k);
            int j = k + 1;
            while (j < 64 && ((m >> j) & 1) && fixed_pos(L->fix, f[i].start + j) == p + (j - k))
                j++;
            uint64_t run = (j - k == 64 ? ~0ull : ((1ull << (j - k)) - 1)) << k;
            a->work++;
            if (p >= 0)
                lay_one(a, &f[i], (f[i].r & run) >> k, (f[i].w & run) >> k, p + L->shift, L, &ow);
            k = j;
        }
    }
    verdict |= flush_below(a, &ow, INT64_MAX, bound, pairs);
    for (int i = 0; i < ow.cap; i++)
        free(ow.w[i].t);
    free(ow.w);
    if (nfalse)
        *nfalse = ow.nfalse;
    (void)o;
    return verdict;
}

static int evaluate(struct sh_analysis *a, const struct sh_object *o, const struct foot *f, size_t nf,
                    const struct layout *L, uint64_t *bound, uint64_t *pairs)
{
    return evaluate_windows(a, o, f, nf, L, bound, pairs, NULL);
}

int sh_predict_fixed(struct sh_analysis *a, const struct sh_object *o, const struct sh_fix *fix, uint64_t *bound,
                     uint64_t *pairs)
{
    struct foot *f;
    size_t nf = footprints(a, (int)(o - a->objs), &f);
    struct layout L = {fix, 0, PI_SHARE_LINE};
    int v = evaluate(a, o, f, nf, &L, bound, pairs);
    free(f);
    return v;
}

uint64_t sh_false_windows(struct sh_analysis *a, const struct sh_object *o, const struct sh_fix *fix, int shift, int win)
{
    struct foot *f;
    size_t nf = footprints(a, (int)(o - a->objs), &f);
    struct layout L = {fix, shift, win};
    uint64_t bound, n;
    evaluate_windows(a, o, f, nf, &L, &bound, NULL, &n);
    free(f);
    return n;
}

uint64_t sh_pairs_now(struct sh_analysis *a, const struct sh_object *o)
{
    struct foot *f;
    size_t nf = footprints(a, (int)(o - a->objs), &f);
    struct layout L = {NULL, o->actual_off, PI_SHARE_LINE};
    uint64_t bound, pairs;
    evaluate(a, o, f, nf, &L, &bound, &pairs);
    free(f);
    return pairs;
}

/* Object oi against its neighbours on its lines: SH_X_*. */
static int cross(struct sh_analysis *a, int oi)
{
    const struct sh_object *o = &a->objs[oi];
    int x = 0;
    for (size_t ri = o->row0; o->row0 != SIZE_MAX && ri < o->row0 + o->nrows; ri++) {
        const struct sh_line_row *r = &a->rows[ri];
        if (!r->shared)
            continue;
        uint64_t mine = mine_of(r, oi);
        for (int u = 0; u < r->nthr; u++) {
            const struct sh_thr_row *tu = &r->thr[u];
            uint64_t touch = tu->rmask | tu->wmask;
            for (int k = 0; k < r->nthr; k++) {
                const struct sh_thr_row *tx = &r->thr[k];
                a->work++;
                if (k == u || !tx->wmask || !overlap(tu->lo, tu->hi, tx->lo, tx->hi))
                    continue;
                if ((touch & mine & ~tx->wmask) && (tx->wmask & ~mine))
                    x |= SH_X_VICTIM;
                if ((tx->wmask & mine) && (touch & ~mine & ~tx->wmask))
                    x |= SH_X_CULPRIT;
            }
        }
    }
    return x;
}

/* Where the plain build (--plain) puts global o: by name and size among
 * its variables (link-time: a line's offset is the run-time one); UINT64_MAX
 * when not given or not found. */
static uint64_t plain_addr(struct sh_analysis *a, const struct sh_object *o)
{
    if (!a->have_plain || o->kind != SH_OBJ_GLOBAL)
        return UINT64_MAX;
    for (size_t i = 0; i < a->plain_dbg.nvars; i++) {
        const struct pi_dvar *v = &a->plain_dbg.vars[i];
        a->work++;
        if (v->name && !strcmp(v->name, o->var->name) && v->size == o->var->size)
            return v->addr;
    }
    return UINT64_MAX;
}

/* The plain build's lines (--plain): its globals at their plain addresses,
 * each line's threads judged as in this run; an object on a line with
 * false sharing there is in false sharing in the plain build. */
struct plain_part {
    uint64_t line;             /* plain line address */
    uint32_t thread, lo, hi;
    uint64_t r, w, acc, wr;
    int obj;
};

static int cmp_part(const void *x, const void *y)
{
    const struct plain_part *a = x, *b = y;
    return a->line < b->line ? -1 : a->line > b->line;
}

static void judge_plain(struct sh_analysis *a)
{
    size_t n = 0, cap = 0;
    struct plain_part *p = NULL;
    for (size_t oi = 0; oi < a->nobjs; oi++) {
        struct sh_object *o = &a->objs[oi];
        uint64_t pa = plain_addr(a, o);
        if (!o->touched || pa == UINT64_MAX)
            continue;
        struct foot *f;
        size_t nf = footprints(a, (int)oi, &f);
        for (size_t i = 0; i < nf; i++) {
            int64_t pos = (int64_t)pa + f[i].start; /* the footprint's byte 0, in the plain build */
            int64_t v0 = floordiv(pos, PI_SHARE_LINE);
            int off = (int)(pos - v0 * PI_SHARE_LINE);
            for (int part = 0; part < 2; part++) {
                uint64_t r = part ? (off ? f[i].r >> (64 - off) : 0) : f[i].r << off;
                uint64_t w = part ? (off ? f[i].w >> (64 - off) : 0) : f[i].w << off;
                if (!(r | w))
                    continue;
                if (n == cap) {
                    cap = cap ? 2 * cap : 64;
                    struct plain_part *np = realloc(p, cap * sizeof *p);
                    if (!np) {
                        rep_oom();
                        exit(PM_ERROR);
                    }
                    p = np;
                }
                p[n++] = (struct plain_part){(uint64_t)(v0 + part), f[i].thread, f[i].lo, f[i].hi, r, w, f[i].acc,
                                             f[i].wr, (int)oi};
                a->work++;
            }
        }
        free(f);
    }
    qsort(p, n, sizeof *p, cmp_part);
    a->work += n * 20;
    struct window w = {INT64_MIN, 0, 0, NULL};
    for (size_t i = 0; i < n;) {
        size_t j = i;
        w.n = 0;
        for (; j < n && p[j].line == p[i].line; j++) {
            uint64_t r[2] = {p[j].r, 0}, wm[2] = {p[j].w, 0};
            win_add(a, &w, p[j].thread, r, wm, p[j].acc, p[j].wr, p[j].lo, p[j].hi);
        }
        uint64_t bound = 0;
        int v = win_eval(a, &w, &bound);
        for (size_t k = i; k < j; k++) {
            struct sh_object *o = &a->objs[p[k].obj];
            if ((v & SH_V_FALSE) && !(o->v_plain & SH_V_FALSE))
                o->b_plain += bound;
            o->v_plain |= v & SH_V_FALSE;
        }
        i = j;
    }
    free(w.t);
    free(p);
}

/* The one verdict of an object, in words (after judge_object and judge_plain). */
static void name_verdict(struct sh_object *o)
{
    int hidden = 0, pair = 0;
    for (int k = 0; k < (int)SH_PLACEMENTS; k++)
        hidden += (o->pv[k] & SH_V_FALSE) != 0;
    for (int k = 0; k < (int)SH_PAIR_PLACEMENTS; k++)
        pair += (o->pv_pair[k] & SH_V_FALSE) != 0;
    int plain_false = o->plain_off >= 0 && (o->v_plain & SH_V_FALSE);
    if ((o->v_here & SH_V_FALSE) && o->v_cross)
        o->verdict = "FALSE sharing: threads write different parts of it, and the data beside it";
    else if (o->v_here & SH_V_FALSE)
        o->verdict = "FALSE sharing: threads write different parts of it";
    else if (o->v_cross == SH_X_VICTIM)
        o->verdict = "FALSE sharing: other data on its lines is written while threads use it";
    else if (o->v_cross)
        o->verdict = "FALSE sharing: it is written while threads use other data on its lines";
    else if (plain_false)
        o->verdict = "HIDDEN false sharing: none at this run's placement, but at the plain build's";
    else if (hidden)
        o->verdict = "HIDDEN false sharing: none at this run's placement, at other placements";
    else if (pair)
        o->verdict = "false sharing only through adjacent-line prefetch";
    else if (o->v_here & SH_V_TRUE)
        o->verdict = "TRUE sharing only: threads use the same bytes";
    else
        o->verdict = "no false sharing at any placement";
}

static void judge_object(struct sh_analysis *a, int oi)
{
    struct sh_object *o = &a->objs[oi];
    struct foot *f;
    size_t nf = footprints(a, oi, &f);
    uint32_t seen[64];
    int ns = 0;
    o->nthreads = 0;
    for (size_t i = 0; i < nf && o->nthreads < 1000000; i++) {
        int k;
        for (k = 0; k < ns && seen[k] != f[i].thread; k++)
            ;
        if (k == ns) {
            if (ns < 64)
                seen[ns++] = f[i].thread;
            o->nthreads++;
        }
        if (ns == 64) { /* enough to say "many" */
            o->nthreads = 64;
            break;
        }
    }
    o->touched = nf > 0;
    o->analysed = o->nthreads > 1;
    o->actual_off = (int)(o->addr % PI_SHARE_LINE);
    uint64_t pa = plain_addr(a, o);
    o->plain_off = o->kind == SH_OBJ_HEAP ? o->actual_off : pa != UINT64_MAX ? (int)(pa % PI_SHARE_LINE) : -1;
    if (o->analysed) {
        struct layout L = {NULL, o->actual_off, PI_SHARE_LINE};
        o->v_here = evaluate(a, o, f, nf, &L, &o->b_here, NULL);
        if (o->plain_off >= 0) {
            L.shift = o->plain_off;
            o->v_plain = evaluate(a, o, f, nf, &L, &o->b_plain, NULL);
            L.shift = o->actual_off;
        }
        for (int k = 0; k < (int)SH_PLACEMENTS; k++) {
            L.shift = 8 * k;
            o->pv[k] = evaluate(a, o, f, nf, &L, &o->pred[k], NULL);
        }
        L.win = 2 * PI_SHARE_LINE;
        for (int k = 0; k < (int)SH_PAIR_PLACEMENTS; k++) {
            L.shift = 8 * k;
            o->pv_pair[k] = evaluate(a, o, f, nf, &L, &o->pred_pair[k], NULL);
        }
    }
    free(f);
    o->v_cross = o->touched ? cross(a, oi) : 0;
    o->verdict_false = (o->v_here & SH_V_FALSE) || o->v_cross;
    if (o->kind == SH_OBJ_HEAP && o->v_cross) /* (the plain build's heap is this run's: the same neighbours) */
        o->v_plain |= SH_V_FALSE;
    /* the one figure: the false reloads observed on its lines, or a bound */
    uint64_t bound = o->b_here;
    for (size_t ri = o->row0; o->row0 != SIZE_MAX && ri < o->row0 + o->nrows; ri++)
        if (o->v_cross && (a->rows[ri].verdict & SH_V_FALSE))
            bound += a->rows[ri].bound;
    o->est_observed = o->rf > 0;
    o->est_false = o->rf ? o->rf : o->verdict_false ? bound : 0;
}

/* ---- the analysis ------------------------------------------------------------------ */

static int build_threads(struct sh_analysis *a)
{
    a->nthr = a->s.nthreads;
    a->thr = calloc(a->nthr ? a->nthr : 1, sizeof *a->thr);
    if (!a->thr)
        return rep_oom();
    for (size_t i = 0; i < a->nthr; i++) { /* (folded: sorted by number) */
        const struct pi_rec_share_thread *t = &a->s.threads[i];
        a->thr[i] = (struct sh_thread){t->thread, t->tid, t->cpu, t->birth, t->death,
                                       (t->flags & PI_SHARE_THREAD_FORKS) != 0,
                                       (t->flags & PI_SHARE_THREAD_EPOCHS) != 0};
        a->epochs |= a->thr[i].known;
        a->period = t->period > a->period ? t->period : a->period;
        a->work++;
    }
    return 0;
}

static int build_rows(struct sh_analysis *a)
{
    struct obj_maps m = {NULL, NULL, NULL, -1, 0, 0};
    m.var = malloc((a->dbg.nvars + 1) * sizeof *m.var);
    m.alloc = malloc((a->s.nallocs + 1) * sizeof *m.alloc);
    m.region = malloc((a->s.nregions + 1) * sizeof *m.region);
    a->rows = calloc(a->s.nlines ? a->s.nlines : 1, sizeof *a->rows);
    a->site_order = malloc((a->s.nsites ? a->s.nsites : 1) * sizeof *a->site_order);
    if (!m.var || !m.alloc || !m.region || !a->rows || !a->site_order) {
        free(m.var), free(m.alloc), free(m.region);
        return rep_oom();
    }
    memset(m.var, -1, (a->dbg.nvars + 1) * sizeof *m.var);
    memset(m.alloc, -1, (a->s.nallocs + 1) * sizeof *m.alloc);
    memset(m.region, -1, (a->s.nregions + 1) * sizeof *m.region);
    for (size_t i = 0; i < a->s.nsites; i++)
        a->site_order[i] = i;
    qsort_r(a->site_order, a->s.nsites, sizeof *a->site_order, cmp_site_line, &a->s);
    a->work += a->s.nsites * 20;
    struct window w = {INT64_MIN, 0, 0, NULL};
    size_t si = 0;
    for (size_t i = 0; i < a->s.nlines; i++) { /* lines in address order (folded) */
        const struct pi_share_line_v *l = &a->s.lines[i];
        struct sh_line_row *r = &a->rows[a->nrows];
        r->addr = l->rec.addr;
        for (uint64_t b = r->addr, lend = r->addr + PI_SHARE_LINE; b < lend;) {
            uint64_t end;
            int oi = object_at(a, b, lend, &m, &end);
            if (end <= b)
                end = b + 1;
            for (uint64_t x = b; x < end; x++)
                r->obj[x - r->addr] = oi;
            if (oi >= 0) {
                struct sh_object *o = &a->objs[oi];
                if (o->row0 == SIZE_MAX)
                    o->row0 = a->nrows;
                o->nrows = a->nrows - o->row0 + 1;
            }
            b = end;
        }
        a->work += PI_SHARE_LINE / 8;
        r->nthr = (int)l->rec.nthreads;
        r->thr = calloc(l->rec.nthreads, sizeof *r->thr);
        if (!r->thr) {
            free(m.var), free(m.alloc), free(m.region);
            return rep_oom();
        }
        for (uint32_t k = 0; k < l->rec.nthreads; k++)
            thr_row(a, &l->thr[k], &r->thr[k]);
        r->shared = l->rec.nthreads > 1;
        r->rt = l->rec.reloads_true;
        r->rf = l->rec.reloads_false;
        memcpy(r->area_true, l->rec.area_true, sizeof r->area_true);
        memcpy(r->area_false, l->rec.area_false, sizeof r->area_false);
        while (si < a->s.nsites && a->s.sites[a->site_order[si]].rec.line < r->addr)
            si++, a->work++;
        r->site0 = si;
        while (si < a->s.nsites && a->s.sites[a->site_order[si]].rec.line == r->addr)
            si++, a->work++;
        r->nsite = si - r->site0;
        if (r->shared) {
            judge_row(a, r, &w);
            for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
                int oi = r->obj[b];
                if (oi >= 0 && (b == 0 || r->obj[b - 1] != oi)) {
                    a->objs[oi].rt += r->rt;
                    a->objs[oi].rf += r->rf;
                }
            }
        }
        /* struct names from the sites' `what`, per object */
        for (size_t k = r->site0; k < r->site0 + r->nsite; k++) {
            const struct pi_share_site_v *s = &a->s.sites[a->site_order[k]];
            char st[64], fld[64];
            uint64_t fo, ss;
            a->work++;
            if (!sh_parse_what(s->what, st, sizeof st, fld, sizeof fld, &fo, &ss))
                continue;
            int oi = r->obj[__builtin_ctzll(s->rec.mask ? s->rec.mask : 1)];
            if (oi >= 0 && !a->objs[oi].stype[0]) {
                snprintf(a->objs[oi].stype, sizeof a->objs[oi].stype, "%s", st);
                a->objs[oi].ssize = ss;
            }
        }
        a->nrows++;
    }
    free(w.t);
    free(m.var), free(m.alloc), free(m.region);
    return 0;
}

/* sh_analyze of trace, or with merged != NULL of traces already combined
 * in memory (*merged, *mshare: moved into a, freed on every path); trace
 * then names them. */
static int analyze(struct sh_analysis *a, const char *prog, const char *trace, int force,
                   struct pi_trace *merged, struct pi_share *mshare)
{
    struct pi_err err;
    double cycles = a->reload_cycles; /* the caller's --reload-cycles, or 0 */
    const char *plain = a->plain;     /* ... and --plain */
    memset(a, 0, sizeof *a);
    a->prog = prog;
    a->trace = trace;
    a->reload_cycles = cycles > 0 ? cycles : 100;
    struct pi_meta m;
    if (merged) { /* a owns them now: sh_free frees them */
        a->t = *merged;
        a->s = *mshare;
    }
    if (pi_meta_read(prog, &m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    pi_build_id_hex(m.build_id, m.build_id_len, a->bid);
    if (pi_debug_open(prog, &a->dbg, &err) == 0) {
        a->have_dbg = 1;
        pm_names_program(&m, &a->dbg);
        if (pi_debug_read_vars(&a->dbg, &err))
            pm_note("%s", err.msg);
        if (a->dbg.warning[0])
            pm_note("%s", a->dbg.warning);
    } else
        pm_note("%s: %s (no names)", prog, err.msg);
    if (pi_share_arrays_read(prog, &a->arrays, &a->narrays, &err))
        pm_note("%s", err.msg);
    if (plain) {
        a->plain = plain;
        if (pi_debug_open(plain, &a->plain_dbg, &err) || pi_debug_read_vars(&a->plain_dbg, &err)) {
            pm_error("--plain: %s", err.msg);
            pi_meta_free(&m);
            return -1;
        }
        a->have_plain = 1;
    }
    if (!merged && pi_trace_read(trace, &a->t, &err)) {
        pm_error("%s", err.msg);
        pi_meta_free(&m);
        return -1;
    }
    pm_trace_notes(&a->t);
    a->mod = pm_match_module(&a->t, m.build_id, m.build_id_len);
    if (!a->mod && force)
        a->mod = pm_guess_module(&a->t, prog);
    if (!a->mod && !force && a->t.nmodules) {
        pm_error("%s is not a trace of %s (no module with its build-id; --force reads it anyway)", trace, prog);
        pi_meta_free(&m);
        return -1;
    }
    pi_meta_free(&m);
    a->bias = a->mod ? a->mod->load_bias : 0;
    if (a->mod && (a->t.hdr.flags & PI_TF_MERGED)) /* module-relative, tagged (pi_share_add) */
        a->bias = (uint64_t)(a->mod->index + 1) << PI_WATCH_MODULE_SHIFT;
    if ((!merged && pi_share_read(trace, &a->s, &err)) || pi_share_fold(&a->s, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    size_t nrec = a->s.nlines + a->s.nsites + a->s.nallocs + a->s.nregions + a->s.nthreads;
    a->work += nrec * 20; /* reading and folding: sorts */
    if (!(a->t.hdr.flags & PI_TF_SHARING))
        pm_note("%s has no sharing records: was %s built with -fplugin-arg-perfinst-sharing=all or a "
                "`sharing` directive?", trace, prog);
    if (build_threads(a) || build_segments(a) || build_rows(a) || number_heap_twins(a))
        return -1;
    for (size_t i = 0; i < a->nobjs; i++)
        judge_object(a, (int)i);
    if (a->have_plain)
        judge_plain(a);
    for (size_t i = 0; i < a->nobjs; i++)
        name_verdict(&a->objs[i]);
    a->rank = malloc((a->nrows ? a->nrows : 1) * sizeof *a->rank);
    if (!a->rank)
        return rep_oom();
    for (size_t i = 0; i < a->nrows; i++)
        a->rank[i] = i;
    qsort_r(a->rank, a->nrows, sizeof *a->rank, cmp_rank, a->rows);
    a->work += a->nrows * 20;
    return 0;
}

int sh_analyze(struct sh_analysis *a, const char *prog, const char *trace, int force)
{
    return analyze(a, prog, trace, force, NULL, NULL);
}

int sh_analyze_traces(struct sh_analysis *a, const char *prog, char **traces, int ntraces, int force)
{
    if (ntraces == 1)
        return sh_analyze(a, prog, traces[0], force);
    /* several: each must be a trace of PROG (as one trace must be), then
     * they are merged into a temporary trace, as `pmopt merge` does */
    struct pi_meta m;
    struct pi_err err;
    if (pi_meta_read(prog, &m, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    for (int i = 0; i < ntraces && !force; i++) {
        struct pi_trace t;
        if (pi_trace_read(traces[i], &t, &err)) {
            pm_error("%s", err.msg);
            pi_meta_free(&m);
            return -1;
        }
        int mine = !t.nmodules || pm_match_module(&t, m.build_id, m.build_id_len);
        pi_trace_free(&t);
        if (!mine) {
            pm_error("%s is not a trace of %s (no module with its build-id; --force reads it anyway)", traces[i],
                     prog);
            pi_meta_free(&m);
            return -1;
        }
    }
    pi_meta_free(&m);
    struct pi_trace res;
    struct pi_share share;
    if (pm_merge_traces(traces, NULL, ntraces, force, &res, &share) != PM_OK) {
        pm_merge_free(&res, &share);
        return -1;
    }
    size_t len = 0;
    for (int i = 0; i < ntraces; i++)
        len += strlen(traces[i]) + 3;
    char *label = malloc(len + 1);
    if (label) {
        label[0] = 0;
        for (int i = 0; i < ntraces; i++)
            strcat(strcat(label, i ? " + " : ""), traces[i]);
        res.path = strdup(label); /* the notes about the combined trace name the inputs */
    }
    if (!res.path) {
        free(label);
        pm_merge_free(&res, &share);
        return rep_oom();
    }
    int rc = analyze(a, prog, label, force, &res, &share);
    a->trace = a->trace_label = label;
    return rc;
}

void sh_print_stats(const struct sh_analysis *a)
{
    size_t nrec = a->s.nlines + a->s.nsites + a->s.nallocs + a->s.nregions + a->s.nthreads;
    fprintf(stderr, "pmopt: sharing analysis: %zu lines, %zu sites, %zu allocations, %zu mappings, %zu threads, "
                    "%zu objects; work %llu (%.1f per record)\n",
            a->s.nlines, a->s.nsites, a->s.nallocs, a->s.nregions, a->s.nthreads, a->nobjs,
            (unsigned long long)a->work, nrec ? (double)a->work / (double)nrec : 0.0);
}

void sh_free(struct sh_analysis *a)
{
    free(a->trace_label);
    free(a->arrays);
    for (size_t i = 0; i < a->nrows; i++)
        free(a->rows[i].thr);
    free(a->rows);
    free(a->rank);
    free(a->objs);
    free(a->site_order);
    free(a->thr);
    free(a->segs);
    pi_share_free(&a->s);
    pi_trace_free(&a->t);
    if (a->have_dbg)
        pi_debug_close(&a->dbg);
    if (a->have_plain)
        pi_debug_close(&a->plain_dbg);
    memset(a, 0, sizeof *a);
}
