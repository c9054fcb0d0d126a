/* plan-order.c — the function-order, data-order and chase-tail half of
 * `pmopt plan` (docs/layout.md "Function order", "Chase-tail reserved
 * regions"): from PROG's recorded link it reads the objects (objscan.c),
 * weights their call relocations with the block counts of the blocks that
 * hold them, orders the hot functions with the chosen algorithm (order.c),
 * orders the data objects the hot code references, and runs the cache
 * model (cachemodel.c) on the hot lines before and after; when the hot
 * code still cannot fit, it plans a reserved region.  Recommendations go
 * to the feedback file (kinds order-functions, order-data, reserve) or, with
 * --advise, to stdout, numbered. */
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcolour.h"
#include "layout.h"
#include "order.h"
#include "order-sets.h"
#include "plan-order.h"
#include "plan.h"
#include "plan-sets.h"

#define LIST_MAX 60000 /* bytes of a name list in one recommendation */

struct po {
    const struct plan_order_opts *o;
    struct model *md;
    struct oscan s;
    struct ord_node *nodes;  /* per osec (only text is hot) */
    struct ord_arc *arcs;
    size_t narcs;
    uint64_t *count;         /* per orange: its block's executions */
    uint64_t *ccount;        /* per clean range (s.cranges): its site's executions */
    uint64_t *data_w;        /* per osec: references from executed blocks */
    struct cgeom g;
    uint64_t hot_min;        /* the model's hot lines have at least these fetches */
    size_t nicall_arcs;      /* (caller, target) pairs of indirect calls, before merging */
    struct ord_arc *drefs;   /* (text osec, data osec, weight) of executed references */
    size_t ndrefs;
    uint32_t *home;          /* per data osec: the text osec that references it most */
    uint32_t *fold;          /* per osec: itself, or F's for F.count.N (counting_copies) */
    uint32_t *copy;          /* per osec: its counting copy F.count.N, or UINT32_MAX */
    /* with --rebuild: per osec, the hot part the rebuild is predicted to
       give it (predict_rebuild); the models then lay out these */
    struct ord_fn *pred;
    struct ord_block *pblk;
};

/* counting=function (gcc-plugin/pass-countfn.cc): F's counting copy is the
 * section of F.count.N of the same object, and its profile is F's: the
 * plan orders F (what an uninstrumented build has), with F.count.N's
 * samples and arcs, and models F's lines from the copy's ranges, scaled to
 * F's size (docs/layout.md).  The copy's data sections named after it
 * (its jump tables, .rodata.F.count.N) fold onto F's likewise: the plan
 * never names F.count.N, which a rebuild does not have. */
static int counting_copies(struct po *p)
{
    size_t n = p->s.nsecs;
    p->fold = malloc((n ? n : 1) * sizeof *p->fold);
    p->copy = malloc((n ? n : 1) * sizeof *p->copy);
    if (!p->fold || !p->copy)
        return rep_oom();
    for (size_t i = 0; i < n; i++)
        p->fold[i] = (uint32_t)i, p->copy[i] = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        struct osec *c = &p->s.secs[i];
        const char *d = !c->cold ? strstr(c->sym, ".count.") : NULL;
        for (; d && strstr(d + 1, ".count."); d = strstr(d + 1, ".count."))
            ;
        if (!d || d == c->sym || !d[7] || strspn(d + 7, "0123456789") != strlen(d + 7))
            continue;
        size_t l = (size_t)(d - c->sym);
        int text_f = 0; /* F's text is in the object */
        size_t k;
        for (k = 0; k < n; k++) {
            const struct osec *f = &p->s.secs[k];
            if (k == i || f->cold || f->obj != c->obj || strlen(f->sym) != l || strncmp(f->sym, c->sym, l))
                continue;
            text_f |= f->kind == OS_TEXT;
            if (f->kind == c->kind) {
                /* (data: F.count.N's jump table, .rodata.F.count.N with
                   -ffunction-sections, is F's .rodata.F in the rebuild;
                   it has no copy of its own to model) */
                p->fold[i] = (uint32_t)k;
                if (c->kind == OS_TEXT)
                    p->copy[k] = (uint32_t)i;
                break;
            }
        }
        /* F made of its counting copy's assembly (clean-copies=final) has
           its tables in the copy's section, .rodata.F.count.N, beside the
           copy's: the section is named F's, as the rebuild names it */
        if (k == n && text_f && c->kind != OS_TEXT)
            c->name[strlen(c->name) - strlen(c->sym) + l] = 0;
    }
    return 0;
}

/* The model's hot lines: the most fetched lines that make up MODEL_COVER
 * percent of all fetches (docs/layout.md "The cache model"). */
#define MODEL_COVER 99
/* The model's check: the cyclic stream decides between the planned order
 * and the layout it replaces only where their hit ratios differ by at
 * least this much (one fetch in a hundred); closer, Che's estimate decides
 * (docs/layout.md "The model's check": speedtest1's hot code, twice L1i,
 * 0.004 for the rebuild against 0.000 for the plan, Che's estimate 25 %
 * fewer misses for the plan, whose order the rebuild then missed) */
#define MODEL_CHECK_MARGIN 0.01

/* The site's count (summed over every copy of its code); *own says
 * whether the range is in the section of the site's own function (not a
 * copy inlined into another). */
static uint64_t range_count(struct po *p, const struct orange *rg, int *own)
{
    const struct pi_unit_view *u = pi_meta_unit(&p->md->m, rg->unit_id);
    *own = 0;
    if (!u || rg->site >= u->hdr.nsites)
        return 0;
    const struct pi_site *site = &u->sites[rg->site];
    /* (by the names without clone suffixes: the function's sites are its
       clone's, F.constprop.0's, whose section is named after the clone) */
    if (site->func < u->hdr.nfuncs)
        *own = pm_fn_key(pi_unit_str(u, u->funcs[site->func].name)) ==
               pm_fn_key(p->s.secs[p->fold[rg->sec]].sym);
    return rep_site_count(p->md, u, rg->site);
}

/* The range of section sec that holds offset off, or -1 (code GCC
 * duplicated or added without a counter has none). */
static long range_at(const struct po *p, uint32_t sec, uint64_t off)
{
    size_t lo = 0, hi = p->s.nranges;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const struct orange *x = &p->s.ranges[mid];
        if (x->sec < sec || (x->sec == sec && x->off <= off))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* ranges may overlap (copies of a site): look back for one that holds off */
    for (size_t i = lo; i > 0 && p->s.ranges[i - 1].sec == sec; i--) {
        const struct orange *x = &p->s.ranges[i - 1];
        if (off >= x->off && off < x->off + x->len)
            return (long)i - 1;
        if (off - x->off > 65536)
            break;
    }
    return -1;
}

static int by_arc(const void *a, const void *b)
{
    const struct ord_arc *x = a, *y = b;
    PI_CMP_RET(x->from, y->from);
    return x->to < y->to ? -1 : x->to > y->to;
}

/* The arcs of indirect calls (docs/layout.md "Indirect calls"): each
 * ICALL pair of the traces (a PI_SITE_CALL site without callee, a target at
 * a link-time address of PROG) gives the arc (the site's function, the
 * function at the target) weighted by its calls.  A target that is not a
 * function of PROG's objects (a shared library, the runtime) gives none. */
static int add_icall_arcs(struct po *p)
{
    const struct pi_trace *t = rind_combined(p->md);
    p->nicall_arcs = 0;
    if (!t || !t->nicalls || !p->md->have_dbg || p->o->no_icalls)
        return 0;
    struct ord_arc *a = realloc(p->arcs, (p->s.nrefs + t->nicalls) * sizeof *a);
    if (!a)
        return rep_oom();
    p->arcs = a;
    for (size_t i = 0; i < t->nicalls; i++) {
        const struct pi_rec_icall *c = &t->icalls[i];
        const struct pi_unit_view *u = pi_meta_unit(&p->md->m, c->unit_id);
        if (!u || c->site >= u->hdr.nsites || !c->count)
            continue;
        const struct pi_site *site = &u->sites[c->site];
        if (site->kind != PI_SITE_CALL || site->func >= u->hdr.nfuncs)
            continue;
        const struct pi_dfunc *df = pi_debug_func(&p->md->dbg, c->target);
        if (!df || !df->name || df->lo != c->target)
            continue;
        long from = oscan_find(&p->s, OS_TEXT, pi_unit_str(u, u->funcs[site->func].name));
        long to = oscan_find(&p->s, OS_TEXT, pm_fn_key(pm_dfunc_linkage(df)));
        if (from < 0 || to < 0 || from == to || p->s.secs[from].cold || p->s.secs[to].cold)
            continue;
        p->arcs[p->narcs++] = (struct ord_arc){ (uint32_t)from, (uint32_t)to, c->count };
        p->nicall_arcs++;
    }
    return 0;
}

/* The executions of each range r[0..n) (sorted by section) into count; with
 * samples, added to its (folded) section's samples.  A site inlined into
 * several functions has one counter for all its copies: a copy in another
 * function's section is estimated as the count of that function's own
 * block before it (its entry block when none precedes), at most the site's
 * total (docs/layout.md). */
static void count_ranges(struct po *p, const struct orange *r, size_t n, uint64_t *count,
                         int samples)
{
    for (size_t i = 0; i < n;) {
        uint32_t sec = r[i].sec;
        size_t end = i;
        uint64_t first_own = UINT64_MAX;
        while (end < n && r[end].sec == sec)
            end++;
        int own;
        for (size_t k = i; k < end; k++) {
            count[k] = range_count(p, &r[k], &own);
            if (own && first_own == UINT64_MAX)
                first_own = count[k];
        }
        uint64_t last_own = first_own;
        for (size_t k = i; k < end; k++) {
            range_count(p, &r[k], &own);
            if (own)
                last_own = count[k];
            else if (last_own != UINT64_MAX && count[k] > last_own)
                count[k] = last_own;
            struct osec *o = &p->s.secs[p->fold[sec]];
            if (samples)
                o->samples = pm_sat_add(o->samples, count[k]);
        }
        i = end;
    }
}

static int build_graph(struct po *p)
{
    size_t n = p->s.nsecs;
    p->nodes = calloc(n ? n : 1, sizeof *p->nodes);
    p->count = calloc(p->s.nranges ? p->s.nranges : 1, sizeof *p->count);
    p->ccount = calloc(p->s.ncranges ? p->s.ncranges : 1, sizeof *p->ccount);
    p->data_w = calloc(n ? n : 1, sizeof *p->data_w);
    p->arcs = calloc(p->s.nrefs ? p->s.nrefs : 1, sizeof *p->arcs);
    p->drefs = calloc(p->s.nrefs ? p->s.nrefs : 1, sizeof *p->drefs);
    p->home = malloc((n ? n : 1) * sizeof *p->home);
    if (!p->nodes || !p->count || !p->ccount || !p->data_w || !p->arcs || !p->drefs || !p->home)
        return rep_oom();
    if (counting_copies(p))
        return -1;
    for (size_t i = 0; i < n; i++)
        p->home[i] = UINT32_MAX;
    for (size_t i = 0; i < n; i++)
        p->nodes[i].size = p->s.secs[i].size;
    count_ranges(p, p->s.ranges, p->s.nranges, p->count, 1);
    count_ranges(p, p->s.cranges, p->s.ncranges, p->ccount, 0);
    for (size_t i = 0; i < n; i++)
        if (p->s.secs[i].kind == OS_TEXT && !p->s.secs[i].cold)
            p->nodes[i].samples = p->s.secs[i].samples;
    for (size_t k = 0; k < p->s.nrefs; k++) {
        const struct oref *f = &p->s.refs[k];
        if (f->to == UINT32_MAX)
            continue;
        uint32_t from = p->fold[f->from], to = p->fold[f->to];
        const struct osec *a = &p->s.secs[from], *b = &p->s.secs[to];
        if (a->kind != OS_TEXT)
            continue;
        long ri = range_at(p, f->from, f->offset);
        uint64_t w = ri < 0 ? 0 : p->count[ri];
        if (!w)
            continue;
        if (b->kind == OS_TEXT && f->call && !a->cold && !b->cold && from != to)
            p->arcs[p->narcs++] = (struct ord_arc){ from, to, w };
        else if (b->kind != OS_TEXT && strncmp(b->sym, "__perfinst_", 11) != 0) {
            /* (not the plugin's own data, which a rebuild does not have:
               a counting copy's own test reads its __perfinst_fnon byte,
               gcc-plugin/pass-tailjump.cc) */
            p->data_w[to] = pm_sat_add(p->data_w[to], w);
            if (!a->cold)
                p->drefs[p->ndrefs++] = (struct ord_arc){ from, to, w };
        }
    }
    /* each data object's home: the function whose executed blocks
       reference it most (ties: the lower section index) */
    qsort(p->drefs, p->ndrefs, sizeof *p->drefs, by_arc);
    uint64_t *home_w = calloc(n ? n : 1, sizeof *home_w);
    if (!home_w)
        return rep_oom();
    for (size_t i = 0; i < p->ndrefs;) {
        size_t j = i;
        uint64_t w = 0;
        for (; j < p->ndrefs && p->drefs[j].from == p->drefs[i].from && p->drefs[j].to == p->drefs[i].to; j++)
            w = pm_sat_add(w, p->drefs[j].weight);
        uint32_t to = p->drefs[i].to;
        if (w > home_w[to])
            home_w[to] = w, p->home[to] = p->drefs[i].from;
        i = j;
    }
    free(home_w);
    if (add_icall_arcs(p))
        return -1;
    /* one arc per (caller, callee) */
    qsort(p->arcs, p->narcs, sizeof *p->arcs, by_arc);
    size_t k = 0;
    for (size_t i = 0; i < p->narcs; i++) {
        if (k && p->arcs[k - 1].from == p->arcs[i].from && p->arcs[k - 1].to == p->arcs[i].to)
            p->arcs[k - 1].weight = pm_sat_add(p->arcs[k - 1].weight, p->arcs[i].weight);
        else
            p->arcs[k++] = p->arcs[i];
    }
    p->narcs = k;
    return 0;
}

/* ---- the cache model's lines ---------------------------------------------- */

struct lines {
    struct cm_line *v;
    size_t n, cap;
};

static int add_line(struct po *p, struct lines *L, uint64_t a, uint64_t fetches, uint32_t region)
{
    if (L->n && L->v[L->n - 1].addr == a && L->v[L->n - 1].region == region) {
        L->v[L->n - 1].fetches = pm_sat_add(L->v[L->n - 1].fetches, fetches);
        return 0;
    }
    if (pi_grow((void **)&L->v, &L->cap, L->n, sizeof *L->v))
        return rep_oom();
    L->v[L->n++] = (struct cm_line){ a, fetches, region };
    return 0;
}

/* The lines of the bytes [lo, hi), each fetched `fetches` times (add_line). */
static int add_span(struct po *p, struct lines *L, uint64_t lo, uint64_t hi, uint64_t fetches, uint32_t region)
{
    for (uint64_t a = lo / p->g.line * p->g.line; a < hi; a += p->g.line)
        if (add_line(p, L, a, fetches, region))
            return -1;
    return 0;
}

/* Section sec's clean ranges, s.cranges[*lo..*hi), or 0 when it has none:
 * a counted function's own code, compiled with the user's options, by the
 * sites of its counting copy (layout.h); none without --clean-ranges.  The
 * models lay out such a function from them rather than from the copy's
 * ranges scaled to its size, so that the copy's options (counting-opt=) do
 * not move the plan. */
static int clean_of(const struct po *p, uint32_t sec, size_t *lo, size_t *hi)
{
    size_t a = oscan_first_of(p->s.cranges, p->s.ncranges, sec), b = a;
    while (b < p->s.ncranges && p->s.cranges[b].sec == sec)
        b++;
    *lo = a, *hi = b;
    return b > a;
}

/* The share of a function's entry count below which the split sends a
 * block that ran to the cold part (the plugin's split=3, warm=1: docs/layout.md
 * "The split"). */
#define REBUILD_WARM_PCT 1

/* With --rebuild the order is applied by the rebuild, whose functions are
 * not the training build's: the split moves every block that never ran,
 * and every block that ran less than REBUILD_WARM_PCT % of the function's
 * entry count, to the function's cold part, and has no counters.  So the
 * models lay out each function as its predicted hot part: the executed
 * ranges at or above that share (the entry: the section's first range), in
 * their order and packed, their bytes the clean copy's (clean_of), else
 * scaled from the counted code onto the clean section's size (a counting
 * copy's onto F's).  On SQLite the rebuild's hot parts are 29 % of the
 * training build's sections. */
static int predict_rebuild(struct po *p)
{
    size_t nn = p->s.nsecs, nb = 0;
    p->pred = calloc(nn ? nn : 1, sizeof *p->pred);
    p->pblk = malloc((p->s.nranges + p->s.ncranges + 1) * sizeof *p->pblk);
    if (!p->pred || !p->pblk)
        return rep_oom();
    for (uint32_t sec = 0; sec < nn; sec++) {
        const struct osec *o = &p->s.secs[sec];
        p->pred[sec] = (struct ord_fn){ o->size ? o->size : 1, o->align ? o->align : 1, NULL, 0 };
        if (o->kind != OS_TEXT || o->cold || p->fold[sec] != sec) /* a copy: its F's */
            continue;
        uint32_t src = p->copy[sec] != UINT32_MAX ? p->copy[sec] : sec;
        uint64_t num = 1, den = 1;
        if (src != sec && p->s.secs[src].size)
            num = o->size, den = p->s.secs[src].size;
        size_t lo0 = oscan_first_range(&p->s, src);
        if (lo0 >= p->s.nranges || p->s.ranges[lo0].sec != src || !p->count[lo0])
            continue;
        uint64_t thr = (p->count[lo0] * REBUILD_WARM_PCT + 99) / 100, at = 0;
        p->pred[sec].b = p->pblk + nb;
        size_t clo, chi;
        int clean = clean_of(p, sec, &clo, &chi);
        for (size_t i = clo; i < chi; i++) {
            if (!p->ccount[i] || p->ccount[i] < thr)
                continue;
            uint64_t len = p->s.cranges[i].len ? p->s.cranges[i].len : 1;
            p->pblk[nb++] = (struct ord_block){ at, at + len, p->ccount[i] };
            at += len;
        }
        for (size_t i = lo0; !clean && i < p->s.nranges && p->s.ranges[i].sec == src; i++) {
            if (!p->count[i] || p->count[i] < thr)
                continue;
            uint64_t len = oscan_range_end(&p->s, i) - p->s.ranges[i].off;
            len = len * num / den;
            if (!len)
                len = 1;
            p->pblk[nb++] = (struct ord_block){ at, at + len, p->count[i] };
            at += len;
        }
        p->pred[sec].nb = (size_t)(p->pblk + nb - p->pred[sec].b);
        if (at)
            p->pred[sec].size = at;
    }
    return 0;
}

/* Adds the hot blocks of section sec placed at base: those of its clean
 * ranges (clean_of), else of its ranges, or of its counting copy's scaled
 * to its size; with --rebuild-split, those of its predicted hot part. */
static int add_section_lines(struct po *p, struct lines *L, uint32_t sec, uint64_t base)
{
    if (p->pred) {
        const struct ord_fn *f = &p->pred[sec];
        for (size_t i = 0; i < f->nb; i++)
            if (add_span(p, L, base + f->b[i].lo, base + f->b[i].hi, f->b[i].count, sec))
                return -1;
        return 0;
    }
    const struct osec *o = &p->s.secs[sec];
    uint32_t region = sec;
    uint64_t num = 1, den = 1;
    size_t clo, chi;
    if (clean_of(p, sec, &clo, &chi)) {
        for (size_t i = clo; i < chi; i++) {
            const struct orange *x = &p->s.cranges[i];
            uint64_t hi = x->off + x->len > o->size ? o->size : x->off + x->len;
            if (p->ccount[i] && hi > x->off && add_span(p, L, base + x->off, base + hi, p->ccount[i], region))
                return -1;
        }
        return 0;
    }
    if (p->copy[sec] != UINT32_MAX && p->s.secs[p->copy[sec]].size) {
        num = o->size, den = p->s.secs[p->copy[sec]].size;
        sec = p->copy[sec];
    }
    size_t lo0 = oscan_first_range(&p->s, sec); /* sec's ranges are contiguous */
    for (size_t i = lo0; i < p->s.nranges && p->s.ranges[i].sec == sec; i++) {
        if (!p->count[i])
            continue;
        /* a block's code runs to the next range of the section, not into
         * a clean copy (oscan_range_end; docs/layout.md) */
        uint64_t lo = p->s.ranges[i].off, hi = oscan_range_end(&p->s, i);
        if (den > 1)
            lo = lo * num / den, hi = hi * num / den;
        if (hi > o->size)
            hi = o->size;
        if (hi <= lo)
            hi = lo + 1;
        if (add_span(p, L, base + lo, base + hi, p->count[i], region))
            return -1;
    }
    return 0;
}

/* The smallest fetch count of the lines that cover MODEL_COVER % of L's
 * fetches, hottest first. */
static uint64_t cover_threshold(const struct cm_line *v, size_t n)
{
    return cm_cover(v, n, MODEL_COVER);
}

/* Lines shared by two blocks (or two functions) count once, with both
 * fetches summed. */
static void fold_lines(struct lines *L);
static void keep_hot(struct lines *L, uint64_t min)
{
    size_t k = 0;
    for (size_t i = 0; i < L->n; i++)
        if (L->v[i].fetches >= min)
            L->v[k++] = L->v[i];
    L->n = k;
}

static void fold_lines(struct lines *L)
{
    L->n = cm_fold_lines(L->v, L->n);
}

/* Che's approximation of the LRU misses of the hot lines L (cachemodel.c);
 * -1 when out of memory. */
static double che_misses(const struct cgeom *g, const struct lines *L)
{
    return cm_che_misses(g, L->v, L->n);
}

static int prog_lines(struct po *p, struct lines *L)
{
    struct ord_fn *pred = p->pred; /* PROG as linked: its own sections */
    p->pred = NULL;
    int fd;
    Elf *e = pm_elf_open(p->md->prog, &fd);
    struct pm_sym *ps = NULL;
    size_t nps = 0;
    int status = 0;
    if (e && pm_elf_symbols(e, STT_FUNC, &ps, &nps)) {
        status = rep_oom();
        goto out;
    }
    for (uint32_t i = 0; i < p->s.nsecs && !status; i++) {
        const struct osec *o = &p->s.secs[i];
        if (o->kind != OS_TEXT || !o->samples)
            continue;
        struct pm_sym key = { .name = o->sym };
        const struct pm_sym *hit = nps ? bsearch(&key, ps, nps, sizeof *ps, pm_sym_cmp) : NULL;
        if (hit)
            status = add_section_lines(p, L, i, hit->addr);
    }
    fold_lines(L);
out:
    free(ps);
    pm_elf_close(e, fd);
    p->pred = pred;
    return status;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* Lines of the hot sections laid out contiguously in order from 0. */
static int order_lines(struct po *p, const uint32_t *order, size_t n, struct lines *L)
{
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const struct osec *o = &p->s.secs[order[i]];
        at = align_up(at, o->align);
        if (add_section_lines(p, L, order[i], at))
            return -1;
        at += p->pred ? p->pred[order[i]].size : o->size;
    }
    fold_lines(L);
    return 0;
}

/* ---- the recommendations ---------------------------------------------------- */

struct out {
    struct pifb_writer *w; /* NULL: print (--advise) */
    uint32_t *number;
};

/* A function the training build inlined everywhere (no section of its
 * own, its blocks in other functions' sections) placed after its host, the
 * ordered function whose section ran most of its blocks (--place-inlined):
 * a rebuild that keeps it out of line (it inlines differently) then gives
 * it a rank next to that caller instead of leaving it unordered. */
struct hosted {
    const char *name;
    uint32_t host;     /* osec index */
    uint64_t w;        /* its block executions in the host's section */
};

static int by_name_host(const void *a, const void *b)
{
    const struct hosted *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->host < y->host ? -1 : x->host > y->host;
}

static int by_host_w(const void *a, const void *b)
{
    const struct hosted *x = a, *y = b;
    PI_CMP_RET(x->host, y->host);
    PI_CMP_RET(y->w, x->w);
    return strcmp(x->name, y->name);
}

/* The inlined functions of the executed ranges and each one's host, sorted
 * by host (then by weight, descending) into *out. */
static int inlined_hosts(struct po *p, struct hosted **out, size_t *nout)
{
    size_t n = 0;
    struct hosted *h = malloc((p->s.nranges ? p->s.nranges : 1) * sizeof *h);
    *out = NULL, *nout = 0;
    if (!h)
        return rep_oom();
    for (size_t k = 0; k < p->s.nranges; k++) {
        const struct orange *rg = &p->s.ranges[k];
        const struct pi_unit_view *u = pi_meta_unit(&p->md->m, rg->unit_id);
        uint32_t host = p->fold[rg->sec];
        if (!p->count[k] || !u || rg->site >= u->hdr.nsites || u->sites[rg->site].func >= u->hdr.nfuncs ||
            p->s.secs[host].kind != OS_TEXT || p->s.secs[host].cold)
            continue;
        const char *fn = pi_unit_str(u, u->funcs[u->sites[rg->site].func].name);
        if (strcmp(fn, p->s.secs[host].sym))
            h[n++] = (struct hosted){ fn, host, p->count[k] };
    }
    qsort(h, n, sizeof *h, by_name_host);
    size_t m = 0;
    for (size_t i = 0; i < n;) { /* per name: the host with the most, if it has no section */
        size_t j = i;
        struct hosted best = h[i];
        best.w = 0;
        while (j < n && !strcmp(h[j].name, h[i].name)) {
            size_t k = j;
            uint64_t w = 0;
            for (; k < n && !strcmp(h[k].name, h[j].name) && h[k].host == h[j].host; k++)
                w = pm_sat_add(w, h[k].w);
            if (w > best.w)
                best = h[j], best.w = w;
            j = k;
        }
        if (oscan_find(&p->s, OS_TEXT, h[i].name) < 0)
            h[m++] = best;
        i = j;
    }
    qsort(h, m, sizeof *h, by_host_w);
    *out = h, *nout = m;
    return 0;
}

/* A growing comma list of distinct names, cut at LIST_MAX bytes. */
struct nlist {
    char *s;
    size_t len, cap;
    const char **names;
    size_t n, capn;
    int full;
};

/* nm added unless it is in L already; -1 when out of memory */
static int nl_add(struct nlist *L, const char *nm)
{
    size_t l = strlen(nm);
    for (size_t j = 0; j < L->n; j++)
        if (!strcmp(L->names[j], nm))
            return 0;
    if (L->len + l + 2 > LIST_MAX) {
        L->full = 1;
        return 0;
    }
    if (L->n == L->capn) {
        size_t c = L->capn ? L->capn * 2 : 64;
        const char **t = realloc(L->names, c * sizeof *t);
        if (!t)
            return -1;
        L->names = t, L->capn = c;
    }
    if (L->len + l + 2 > L->cap) {
        size_t c = L->cap ? L->cap : 256;
        while (L->len + l + 2 > c)
            c *= 2;
        char *t = realloc(L->s, c);
        if (!t)
            return -1;
        L->s = t, L->cap = c;
    }
    L->names[L->n++] = nm;
    if (L->len)
        L->s[L->len++] = ',';
    memcpy(L->s + L->len, nm, l + 1);
    L->len += l;
    return 0;
}

/* A comma list of the names of secs[ids[0..n)] (duplicates by name once),
 * each followed by the functions it hosts (h[0..nh), sorted by host), cut
 * at LIST_MAX bytes; *kept says how many went in. */
static char *name_list(const struct po *p, const uint32_t *ids, size_t n, const struct hosted *h, size_t nh,
                       size_t *kept)
{
    struct nlist L = { 0 };
    for (size_t i = 0; i < n && !L.full; i++) {
        if (nl_add(&L, p->s.secs[ids[i]].sym))
            goto oom;
        size_t lo = 0, hi = nh; /* the first function ids[i] hosts */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (h[mid].host < ids[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k < nh && h[k].host == ids[i] && !L.full; k++)
            if (nl_add(&L, h[k].name))
                goto oom;
    }
    free(L.names);
    *kept = L.n;
    if (!L.s && !(L.s = calloc(1, 1)))
        return NULL;
    return L.s;
oom:
    free(L.names), free(L.s);
    return NULL;
}

/* The weights of the names of list (name_list's, which it may cut to fit
 * the line): each the sum of data_w over the sections secs[ids[0..n)] of
 * that name, in list's order. */
static char *weight_list(const struct po *p, const uint32_t *ids, size_t n, char *list)
{
    size_t cap = 64, len = 0;
    char *w = malloc(cap);
    if (!w)
        return NULL;
    w[0] = 0;
    for (char *nm = list, *e; *nm; nm = *e ? e + 1 : e) {
        e = nm + strcspn(nm, ",");
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            const char *s = p->s.secs[ids[i]].sym;
            if (strlen(s) == (size_t)(e - nm) && !strncmp(s, nm, (size_t)(e - nm)))
                sum = pm_sat_add(sum, p->data_w[ids[i]]);
        }
        if (len + 24 > cap) {
            char *t = realloc(w, cap *= 2);
            if (!t) {
                free(w);
                return NULL;
            }
            w = t;
        }
        len += (size_t)sprintf(w + len, "%s%llu", len ? "," : "", (unsigned long long)sum);
        /* one line holds both lists (PIFB_MAX_LINE): the names past the
           room are cut, with their weights */
        if ((size_t)(e - list) + len + 2 > LIST_MAX) {
            *nm = 0;
            if (nm > list)
                nm[-1] = 0;
            len -= strlen(strrchr(w, ',') ? strrchr(w, ',') : w);
            w[len] = 0;
            break;
        }
    }
    return w;
}

static const struct po *dens_ctx;
static int by_density_desc(const void *a, const void *b)
{
    const struct osec *x = &dens_ctx->s.secs[*(const uint32_t *)a],
                      *y = &dens_ctx->s.secs[*(const uint32_t *)b];
    __extension__ typedef unsigned __int128 u128;
    u128 l = (u128)x->samples * (y->size ? y->size : 1), r = (u128)y->samples * (x->size ? x->size : 1);
    PI_CMP_RET(r, l);
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Data order by affinity (docs/layout.md "Data order"): objects grouped by
 * their home function, the groups in the planned function order (objects
 * whose home is not planned after them), heaviest first in a group. */
static const uint32_t *pos_ctx; /* per osec: position in the function order, or UINT32_MAX */

static int by_affinity_cmp(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint32_t hi = dens_ctx->home[i], hj = dens_ctx->home[j];
    uint32_t pi = hi == UINT32_MAX ? UINT32_MAX : pos_ctx[hi];
    uint32_t pj = hj == UINT32_MAX ? UINT32_MAX : pos_ctx[hj];
    PI_CMP_RET(pi, pj);
    uint64_t x = dens_ctx->data_w[i], y = dens_ctx->data_w[j];
    PI_CMP_RET(y, x);
    return i < j ? -1 : 1;
}

static int by_u64_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x > y ? -1 : x < y;
}

/* The hot tier first: the ordered nodes with the most samples that together
 * hold tier_hot thousandths of a percent of them (the rule of the rebuild's
 * function-tier, plan-branches.c; ties with the last one included) keep
 * their relative order at the front, the other executed ones follow in
 * theirs — so warm code does not sit between hot functions (bench/RESULTS.md,
 * 2026-11-22: fewer simulated I1 misses than one order for all).  Returns
 * the number of hot-tier nodes. */
static size_t tier_first(const struct po *p, uint32_t *order, size_t n, long tier_hot,
                         uint32_t *tmp)
{
    uint64_t *s = malloc(n * sizeof *s), total = 0;
    if (!s)
        return n;
    for (size_t i = 0; i < n; i++) {
        s[i] = p->nodes[order[i]].samples;
        total = pm_sat_add(total, s[i]);
    }
    qsort(s, n, sizeof *s, by_u64_desc);
    __extension__ typedef unsigned __int128 u128;
    u128 want = (u128)total * (u128)tier_hot;
    uint64_t cum = 0, thr = UINT64_MAX;
    for (size_t i = 0; i < n && (u128)cum * 100000 < want; i++) {
        thr = s[i];
        cum = pm_sat_add(cum, s[i]);
    }
    free(s);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (p->nodes[order[i]].samples >= thr && thr)
            tmp[k++] = order[i];
    size_t nt = k;
    for (size_t i = 0; i < n; i++)
        if (!(p->nodes[order[i]].samples >= thr && thr))
            tmp[k++] = order[i];
    memcpy(order, tmp, n * sizeof *order);
    return nt;
}

/* The rebuilt program's layout as GNU ld's default script makes it (the
 * rebuild's .text.hot parts, then its .text parts, each group in the order
 * of the link's inputs): the ordered functions of the hot tier (tier_hot,
 * the rule of the function-tier recommendations), then the others, each in
 * section (link) order, from 0.  tmp and scratch have room for n. */
static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int rebuild_lines(struct po *p, const uint32_t *order, size_t n, long tier_hot,
                         uint32_t *tmp, uint32_t *scratch, struct lines *L)
{
    memcpy(tmp, order, n * sizeof *tmp);
    qsort(tmp, n, sizeof *tmp, by_u32);
    tier_first(p, tmp, n, tier_hot, scratch);
    return order_lines(p, tmp, n, L);
}

/* The chase-tail plan: stable = the densest hot functions that fit the
 * stable sets' capacity, keeping their place in the order; overflow = the
 * rest, into the reserved window of every page.  Returns the model's
 * result in *res, the lists in stable/ovf. */
static int plan_reserve(struct po *p, const struct reserve *rv, const uint32_t *order, size_t n,
                        uint32_t *stable, size_t *ns, uint32_t *ovf, size_t *no,
                        struct cm_result *res, double *che)
{
    uint64_t cap = (uint64_t)rv->window * p->g.ways; /* stable bytes that stay */
    uint32_t *byd = malloc((n ? n : 1) * sizeof *byd);
    char *isst = calloc(p->s.nsecs ? p->s.nsecs : 1, 1);
    uint64_t *a = malloc((n ? n : 1) * 6 * sizeof *a);
    if (!byd || !isst || !a) {
        free(byd), free(isst), free(a);
        return rep_oom();
    }
    memcpy(byd, order, n * sizeof *byd);
    dens_ctx = p;
    qsort(byd, n, sizeof *byd, by_density_desc);
    uint64_t used = 0;
    for (size_t i = 0; i < n; i++) {
        const struct osec *o = &p->s.secs[byd[i]];
        if (used + o->size <= cap) {
            used += o->size;
            isst[byd[i]] = 1;
        }
    }
    uint64_t *ss = a, *sa = a + n, *os = a + 2 * n, *oa = a + 3 * n, *so = a + 4 * n,
             *oo = a + 5 * n, end;
    size_t drop = n; /* the least dense stable function goes first */
    for (;;) {
        *ns = *no = 0;
        for (size_t i = 0; i < n; i++) {
            if (isst[order[i]])
                stable[(*ns)++] = order[i];
            else
                ovf[(*no)++] = order[i];
        }
        for (size_t i = 0; i < *ns; i++)
            ss[i] = p->s.secs[stable[i]].size, sa[i] = p->s.secs[stable[i]].align;
        for (size_t i = 0; i < *no; i++)
            os[i] = p->s.secs[ovf[i]].size, oa[i] = p->s.secs[ovf[i]].align;
        rsv_pack(rv, ss, sa, *ns, os, oa, *no, so, oo, &end);
        /* the packing leaves gaps: the stable code must still span at most
         * `ways` pages, or its sets overflow */
        uint64_t send = 0;
        for (size_t i = 0; i < *ns; i++)
            if (so[i] + ss[i] > send)
                send = so[i] + ss[i];
        if (send <= (uint64_t)p->g.ways * rv->page || !*ns)
            break;
        while (drop > 0 && !isst[byd[drop - 1]])
            drop--;
        if (!drop)
            break;
        isst[byd[--drop]] = 0;
    }
    struct lines L = { 0 };
    int status = 0;
    for (size_t i = 0; i < *ns && !status; i++)
        status = add_section_lines(p, &L, stable[i], so[i]);
    for (size_t i = 0; i < *no && !status; i++)
        status = add_section_lines(p, &L, ovf[i], oo[i]);
    if (!status) {
        fold_lines(&L);
        keep_hot(&L, p->hot_min);
        if (cm_simulate(&p->g, L.v, L.n, res, NULL, NULL, 0) || (*che = che_misses(&p->g, &L)) < 0)
            status = rep_oom();
    }
    free(L.v), free(byd), free(isst), free(a);
    return status;
}

int plan_order(struct model *md, const struct plan_order_opts *o, struct pifb_writer *w,
               uint32_t *number)
{
    struct po p;
    memset(&p, 0, sizeof p);
    p.o = o, p.md = md;
    struct out out = { w, number };
    int status = -1;
    uint32_t *order = NULL, *tmp = NULL, *stable = NULL, *ovf = NULL, *data = NULL, *cold = NULL;
    size_t ncold = 0;
    struct lines before = { 0 }, after = { 0 }, reb = { 0 };
    char *list = NULL, *list2 = NULL;
    struct dc_plan_out dcp = { 0 };
    struct hosted *hosted = NULL;
    size_t nhosted = 0;
    if (!md->m.has_link) {
        pm_error("%s has no recorded link (.perfinst.link): function order reads the objects "
                 "it was linked from; link it with perfinst-ld%s", md->prog, pm_no_link_why(&md->m));
        return -1;
    }
    struct cgeom l1i; /* the cache's own geometry; p.g is PROG's share of it */
    if (cm_geometry(o->cache, &l1i))
        return -1;
    /* --outside-ways: the models give PROG's code the ways the code they
       do not see (libc, the loader) leaves it */
    if (o->outside_ways >= (int)l1i.ways) {
        pm_error("--outside-ways=%d leaves no way of the %u-way cache to %s's code",
                 o->outside_ways, l1i.ways, md->prog);
        return -1;
    }
    p.g = l1i;
    p.g.ways -= (uint32_t)o->outside_ways;
    p.g.size = p.g.sets * p.g.ways * p.g.line;
    if (oscan_read_link(&p.s, &md->m))
        goto done;
    if (!o->clean_ranges)
        p.s.ncranges = 0; /* (oscan_free frees them) */
    if (build_graph(&p))
        goto done;
    size_t nn = p.s.nsecs;
    order = malloc((nn ? nn : 1) * sizeof *order);
    tmp = malloc((nn ? nn : 1) * sizeof *tmp);
    stable = malloc((nn ? nn : 1) * sizeof *stable);
    ovf = malloc((nn ? nn : 1) * sizeof *ovf);
    data = malloc((nn ? nn : 1) * sizeof *data);
    if (!order || !tmp || !stable || !ovf || !data) {
        rep_oom();
        goto done;
    }
    size_t nhot = 0;
    for (size_t i = 0; i < nn; i++)
        nhot += p.nodes[i].samples != 0;
    if (!nhot && p.s.nlto) {
        /* the code of -flto objects is made in lto1 during the link and
           kept nowhere: no sections, no call graph to order.  The rest of
           the plan (branch profiles, tiers) is the same for an -flto
           rebuild (docs/layout.md "Link-time optimisation") */
        pm_note("%s was linked from -flto objects (%s and %zu more): their code was made during "
                "the link and is in none of them, so the function order has no call graph to read; "
                "the plan is written without it (for the order, train a build compiled with "
                "-fno-lto: its plan applies to an -flto rebuild)", md->prog, p.s.lto_obj, p.s.nlto - 1);
        status = 0;
        goto done;
    }
    if (!nhot && p.s.ngone) {
        pm_error("%zu of the objects %s was linked from %s gone (%s): the function order reads "
                 "their call graph; link %s again from kept objects (perfinst-ld keeps gcc's "
                 "temporary ones)", p.s.ngone, md->prog, p.s.ngone == 1 ? "is" : "are",
                 p.s.gone_obj, md->prog);
        goto done;
    }
    if (!nhot) {
        pm_error("no function of the objects of %s executed a counted block: nothing to order "
                 "(were they compiled with -fplugin-arg-perfinst-all=count and "
                 "-ffunction-sections?)", md->prog);
        goto done;
    }
    printf("pmopt plan --order=%s: %s, %zu objects, %zu hot functions, %zu call arcs (%zu "
           "indirect-call targets)\n", ord_name(o->alg), md->prog, p.s.nobjs, nhot, p.narcs,
           p.nicall_arcs);
    if (o->rebuild_tier > 0 && o->rebuild_split) {
        if (predict_rebuild(&p))
            goto done;
        uint64_t was = 0, now = 0;
        for (size_t i = 0; i < nn; i++)
            if (p.nodes[i].samples && p.s.secs[i].kind == OS_TEXT)
                was += p.s.secs[i].size, now += p.pred[i].size;
        printf("  the rebuild's split (--rebuild-split): the hot functions' hot parts predicted "
               "%llu bytes (%llu in the training build's sections)\n", (unsigned long long)now,
               (unsigned long long)was);
    }
    /* every algorithm, for comparison; the chosen one is used */
    size_t n = 0;
    static const int algs[] = { ORD_NONE, ORD_C3, ORD_EXTTSP, ORD_CDSORT };
    for (size_t ai = 0; ai < sizeof algs / sizeof *algs; ai++) {
        int alg = algs[ai];
        size_t k = ord_compute(alg, p.nodes, nn, p.arcs, p.narcs, tmp);
        if (k == (size_t)-1) {
            rep_oom();
            goto done;
        }
        printf("  order %-7s Ext-TSP score %.0f, mean call distance %.0f bytes\n", ord_name(alg),
               ord_exttsp_score(p.nodes, nn, p.arcs, p.narcs, tmp, k),
               ord_call_distance(p.nodes, nn, p.arcs, p.narcs, tmp, k));
        if (alg == o->alg || ((o->alg == ORD_SETS || o->alg == ORD_AUTO) && alg == ORD_EXTTSP)) {
            memcpy(order, tmp, k * sizeof *order);
            n = k;
        }
    }
    if (n > 1 && o->tier_hot > 0) {
        size_t nt = tier_first(&p, order, n, o->tier_hot, tmp);
        printf("  the hot tier (%.3g%% of the samples): %zu functions first, the other %zu "
               "executed after them\n", (double)o->tier_hot / 1000.0, nt, n - nt);
    }
    /* --order=auto: Ext-TSP's order spread over the sets where its hot
       lines overfill some sets; Ext-TSP's order where they overfill none:
       there is nothing to spread, and the search would only trade call
       locality for a spread of lukewarm lines (docs/layout.md "The
       algorithms") */
    int alg = o->alg;
    if (alg == ORD_AUTO) {
        struct lines b0 = { 0 }, a0 = { 0 };
        struct cm_result r0;
        int st = prog_lines(&p, &b0) || order_lines(&p, order, n, &a0);
        if (!st) {
            keep_hot(&a0, cover_threshold(b0.v, b0.n));
            st = cm_simulate(&p.g, a0.v, a0.n, &r0, NULL, NULL, 0) ? rep_oom() : 0;
        }
        free(b0.v), free(a0.v);
        if (st)
            goto done;
        alg = !r0.overfull_sets ? ORD_EXTTSP : o->overfull == ORD_CDSORT ? ORD_CDSORT : ORD_SETS;
        printf("  --order=auto: Ext-TSP's order has %u hot lines, %u of %u sets over %u ways: %s\n",
               r0.lines, r0.overfull_sets, p.g.sets, p.g.ways,
               alg == ORD_SETS     ? "spread over the sets (sets)"
               : alg == ORD_CDSORT ? "the cache-directed sort's order instead (cdsort)"
                                   : "kept (exttsp)");
        if (alg == ORD_CDSORT && (n = ord_compute(ORD_CDSORT, p.nodes, nn, p.arcs, p.narcs, order)) == (size_t)-1) {
            rep_oom();
            goto done;
        }
    }
    if (alg == ORD_SETS && n > 1) { /* Ext-TSP's order spread over the sets */
        struct plan_sets_in si = { &p.s, p.count, p.ccount, p.copy, p.pred, p.nodes, nn, p.arcs, p.narcs,
                                   &p.g, o->target, ORD_EXTTSP, o->sets_passes, o->sets_affinity };
        if (!(cold = malloc((nn ? nn : 1) * sizeof *cold)) || plan_sets(&si, order, n, cold, &ncold)) {
            if (!cold)
                rep_oom();
            goto done;
        }
    }
    /* the cache model, before and after */
    struct cm_result cb, ca;
    if (prog_lines(&p, &before) || order_lines(&p, order, n, &after))
        goto done;
    p.hot_min = cover_threshold(before.v, before.n);
    keep_hot(&before, p.hot_min);
    keep_hot(&after, p.hot_min);
    if (cm_simulate(&p.g, before.v, before.n, &cb, NULL, NULL, 0) ||
        cm_simulate(&p.g, after.v, after.n, &ca, NULL, NULL, 0)) {
        rep_oom();
        goto done;
    }
    printf("cache model: L1i %u KiB, %u ways, %u-byte lines, %u sets; the hot lines (%d%% of "
           "fetches, lines fetched at least %llu times) as a cyclic stream (docs/layout.md)\n",
           l1i.size / 1024, l1i.ways, l1i.line, l1i.sets, MODEL_COVER,
           (unsigned long long)p.hot_min);
    if (o->outside_ways)
        printf("  --outside-ways=%d: %u ways of each set modelled for %s's code, the rest left "
               "to code outside it\n", o->outside_ways, p.g.ways, md->prog);
    cm_print_result("before (PROG)", "hit ratio", "fetches", &p.g, &cb);
    cm_print_result("after the order", "hit ratio", "fetches", &p.g, &ca);
    int chase = cb.overfull_sets > 0 || (uint64_t)cb.lines > (uint64_t)p.g.sets * p.g.ways;
    printf("  chase-tail condition %s (%s)\n", chase ? "present" : "absent",
           (uint64_t)cb.lines > (uint64_t)p.g.sets * p.g.ways ? "the hot lines do not fit"
           : cb.overfull_sets ? "hot lines crowd some sets" : "the hot lines fit");
    size_t ns = 0, no = 0;
    struct reserve rv = { p.g.sets * p.g.line, 0, 0 };
    struct cm_result cr = ca;
    double che_b = che_misses(&p.g, &before), che_a = che_misses(&p.g, &after), che_r = che_a;
    if (che_b < 0 || che_a < 0) {
        rep_oom();
        goto done;
    }
    int use_reserve = 0;
    uint32_t rsets = o->reserve_sets >= 0 ? (uint32_t)o->reserve_sets : p.g.sets / 8;
    /* the one-file loop lays out no reserved region: the plugin places no
       reserve, and pmopt relink keeps the rebuild's .text (with its order)
       or applies no order at all, so the check must not count one */
    if (o->rebuild_tier > 0 && rsets > 0 && ca.overfull_sets)
        printf("  no reserved region: the rebuild lays out none\n");
    else if (rsets > 0 && rsets < p.g.sets && ca.overfull_sets) {
        rv.size = rsets * p.g.line;
        rv.window = rv.page - rv.size;
        if (plan_reserve(&p, &rv, order, n, stable, &ns, ovf, &no, &cr, &che_r))
            goto done;
        cm_print_result("with a reserved region", "hit ratio", "fetches", &p.g, &cr);
        use_reserve = cr.hits > ca.hits && no > 0;
        if (!use_reserve)
            printf("  the reserved region would not help: not planned\n");
    }
    /* the model's check: the planned layout against the one it replaces
       (PROG's own; with --rebuild the rebuilt program's, as GNU ld's
       default script lays out its tiers); an order the cyclic stream
       predicts to hit less -- or, where it cannot tell the two apart (all
       hot lines fit, or every set overflows, or their hit ratios differ by
       less than MODEL_CHECK_MARGIN), Che's estimate to miss more -- is not
       written, and pmopt relink keeps that layout
       (docs/layout.md "The model's check") */
    struct cm_result ck = cb;
    double che_k = che_b;
    const char *kept_what = "PROG's own layout";
    if (o->rebuild_tier > 0 && n) {
        if (rebuild_lines(&p, order, n, o->rebuild_tier, tmp, data, &reb))
            goto done;
        keep_hot(&reb, p.hot_min);
        if (cm_simulate(&p.g, reb.v, reb.n, &ck, NULL, NULL, 0) || (che_k = che_misses(&p.g, &reb)) < 0) {
            rep_oom();
            goto done;
        }
        cm_print_result("the rebuild (predicted)", "hit ratio", "fetches", &p.g, &ck);
        kept_what = "the rebuilt program's own layout (predicted: the hot tier, then the other "
                    "executed functions, in link order)";
    }
    const struct cm_result *planned = use_reserve ? &cr : &ca;
    double che_p = use_reserve ? che_r : che_a;
    printf("  independent references (Che's approximation of LRU): %s %.0f misses, the plan %.0f\n",
           o->rebuild_tier > 0 && n ? "the rebuild (predicted)" : "before (PROG)", che_k, che_p);
    int worse = n && cm_compare_margin(planned, che_p, &ck, che_k, MODEL_CHECK_MARGIN) < 0;
    if (worse) {
        printf("  the planned order is predicted to miss more than %s (cyclic stream: hit ratio %.3f "
               "against %.3f; independent references: %.0f misses against %.0f): %s\n", kept_what,
               cm_hit_ratio(planned), cm_hit_ratio(&ck), che_p, che_k,
               o->no_model_check ? "written anyway (--no-model-check)"
                                 : "not written, pmopt relink keeps that layout");
        if (!o->no_model_check)
            n = 0, use_reserve = 0, ncold = 0;
    }
    /* recommendations */
    char c[512];
    size_t kept;
    if (n) {
        if (o->place_inlined) {
            if (inlined_hosts(&p, &hosted, &nhosted))
                goto done;
            printf("  %zu functions the training build inlined everywhere, each after the ordered "
                   "function that ran most of its blocks (--place-inlined)\n", nhosted);
        }
        if (!(list = name_list(&p, order, n, hosted, nhosted, &kept))) {
            rep_oom();
            goto done;
        }
        snprintf(c, sizeof c, "place %zu hot functions contiguously in %s order "
                 "(model hit ratio %.3f -> %.3f)", kept, ord_name(alg), cm_hit_ratio(&cb), cm_hit_ratio(&ca));
        const char *kv[] = { "alg", ord_name(alg), "functions", list, NULL, NULL, NULL };
        size_t ckept = 0;
        if (ncold) { /* the cold parts that ran, after them (plan-sets.c) */
            if (!(list2 = name_list(&p, cold, ncold, NULL, 0, &ckept))) {
                rep_oom();
                goto done;
            }
            /* one line holds both lists (PIFB_MAX_LINE): the cold one is cut */
            size_t room = strlen(list) < LIST_MAX ? LIST_MAX - strlen(list) : 0;
            if (strlen(list2) > room) {
                char *cut = list2;
                for (char *q = list2; *q && (size_t)(q - list2) <= room; q++)
                    if (*q == ',')
                        cut = q;
                *cut = 0;
                ckept = 0;
                for (char *q = list2; *list2 && q; q = strchr(q + 1, ','))
                    ckept++;
            }
            if (*list2) {
                kv[4] = "cold", kv[5] = list2;
                size_t l = strlen(c);
                snprintf(c + l, sizeof c - l, ", then the cold parts of %zu that ran", ckept);
            }
        }
        plan_rec(out.w, out.number, PIFB_ORDER_FUNCTIONS, c, kv);
    }
    /* data objects referenced by executed blocks, by affinity: grouped by
       the function that references each most, in the function order */
    size_t nd = 0;
    for (uint32_t i = 0; i < nn; i++)
        if (p.s.secs[i].kind != OS_TEXT && p.data_w[i])
            data[nd++] = i;
    for (uint32_t i = 0; i < nn; i++)
        tmp[i] = UINT32_MAX;
    for (size_t i = 0; i < n; i++)
        tmp[order[i]] = (uint32_t)i;
    dens_ctx = &p;
    pos_ctx = tmp;
    qsort(data, nd, sizeof *data, by_affinity_cmp);
    /* the data half of the chase-tail plan (plan-dcolour.c) */
    struct dc_plan_in dci = { md->prog, &p.s, p.data_w, data, nd, o->dcache, o->reserve_sets,
                              o->no_model_check };
    if (dc_plan(&dci, &dcp))
        goto done;
    if (nd && dcp.write) {
        free(list);
        char *wl = NULL, geom[64];
        if (!(list = name_list(&p, data, nd, NULL, 0, &kept)) || !(wl = weight_list(&p, data, nd, list))) {
            free(wl);
            rep_oom();
            goto done;
        }
        kept = *list != 0; /* weight_list may have cut the list */
        for (const char *q = strchr(list, ','); q; q = strchr(q + 1, ','))
            kept++;
        snprintf(c, sizeof c, "place %zu data objects referenced by hot code together, "
                 "grouped by the function that references each most, in the function order",
                 kept);
        /* the weights and the geometry the model used: pmopt relink checks
           the order with them against the program it relinks */
        snprintf(geom, sizeof geom, "%u,%u,%u", dcp.g.size, dcp.g.ways, dcp.g.line);
        const char *kv[] = { "objects", list, "weights", wl, "dcache", geom, NULL };
        plan_rec(out.w, out.number, PIFB_ORDER_DATA, c, kv);
        free(wl);
    }
    if (use_reserve) {
        free(list);
        if (!(list = name_list(&p, ovf, no, NULL, 0, &kept))) {
            rep_oom();
            goto done;
        }
        char win[64], sz[64], pg[64];
        snprintf(win, sizeof win, "0x%x", rv.window);
        snprintf(sz, sizeof sz, "0x%x", rv.size);
        snprintf(pg, sizeof pg, "0x%x", rv.page);
        snprintf(c, sizeof c, "chase-tail: %zu stable functions keep sets 0-%u, %zu overflow "
                 "functions go to the reserved sets %u-%u (model hit ratio %.3f -> %.3f)", ns,
                 rv.window / p.g.line - 1, kept, rv.window / p.g.line, p.g.sets - 1, cm_hit_ratio(&ca),
                 cm_hit_ratio(&cr));
        const char *kv[] = { "page", pg, "window", win, "size", sz, "overflow", list, NULL };
        plan_rec(out.w, out.number, PIFB_RESERVE, c, kv);
    }
    if (dcp.use) { /* data colouring (docs/layout.md "Data colouring") */
        free(list);
        size_t len = 1;
        for (size_t i = 0; i < dcp.no; i++)
            len += strlen(dcp.ovf[i]) + 1;
        if (!(list = malloc(len))) {
            rep_oom();
            goto done;
        }
        list[0] = 0;
        size_t at = 0; /* cut at LIST_MAX as the other lists: the rest stays stable */
        for (size_t i = 0; i < dcp.no && at + strlen(dcp.ovf[i]) + 2 <= LIST_MAX; i++)
            at += (size_t)sprintf(list + at, "%s%s", i ? "," : "", dcp.ovf[i]);
        char win[64], sz[64], pg[64];
        snprintf(win, sizeof win, "0x%x", dcp.rv.window);
        snprintf(sz, sizeof sz, "0x%x", dcp.rv.size);
        snprintf(pg, sizeof pg, "0x%x", dcp.rv.page);
        snprintf(c, sizeof c, "chase-tail data: %zu stable data objects keep L1d sets 0-%u, "
                 "%zu overflow objects go to the reserved sets %u-%u (model D1 hit ratio "
                 "%.3f -> %.3f)", dcp.ns, dcp.rv.window / dcp.g.line - 1, dcp.no,
                 dcp.rv.window / dcp.g.line, dcp.g.sets - 1, dcp.before, dcp.coloured);
        const char *kv[] = { "page", pg, "window", win, "size", sz, "overflow", list, NULL };
        plan_rec(out.w, out.number, PIFB_RESERVE_DATA, c, kv);
    }
    status = 0;
done:
    dc_plan_free(&dcp);
    free(hosted);
    free(order), free(tmp), free(stable), free(ovf), free(data), free(list),
        free(list2), free(cold);
    free(before.v), free(after.v), free(reb.v);
    free(p.nodes), free(p.arcs), free(p.count), free(p.ccount), free(p.data_w), free(p.drefs), free(p.home);
    free(p.fold), free(p.copy), free(p.pred), free(p.pblk);
    oscan_free(&p.s);
    return status;
}

int plan_order_main(struct model *md, const struct plan_order_opts *o, int advise,
                    const char *out, int nargs, char **args)
{
    if (advise && out)
        return pm_usage_error("plan", "--advise prints the plan: not with -o");
    if (!advise && !out)
        return pm_usage_error("plan", "expected -o FEEDBACK (or --advise)");
    if (nargs < 2)
        return pm_usage_error("plan", "expected PROG and at least one TRACE");
    md->prog = args[0];
    md->ntraces = nargs - 1;
    int status = PM_ERROR;
    uint32_t number = 0;
    struct pifb_writer w;
    struct pi_err err;
    if (model_load(md, args + 1) != 0)
        goto done;
    if (advise) {
        printf("Recommendations (apply with pmopt plan -o FILE, then pmopt relink --only LIST):\n");
        status = plan_order(md, o, NULL, &number) ? PM_ERROR : PM_OK;
        goto done;
    }
    if (pifb_create(&w, out, md->prog, md->m.build_id_len ? md->bid : NULL, 0, &err)) {
        pm_error("%s", err.msg);
        goto done;
    }
    if (plan_order(md, o, &w, &number)) {
        pifb_abort(&w);
        goto done;
    }
    if (pifb_commit(&w, &err)) {
        pm_error("%s", err.msg);
        goto done;
    }
    printf("wrote %s\n", out);
    status = PM_OK;
done:
    fflush(stdout);
    model_free(md);
    return status;
}
