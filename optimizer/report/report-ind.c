/* report-ind.c — the views of `pmopt report` that come from the indicators'
 * records (SITESTAT, EVENT, TRACEREG; docs/formats.md) and from the static
 * instruction counts of the CODE ranges:
 *
 *   indicators  per site with a SITESTAT: executions the probe saw, hits
 *               (trap: handler calls; threshold: events; cycles: executions
 *               over the threshold; trace: intervals), the threshold, and
 *               cycles mean/min/max for cycles and trace probes;
 *   callers     (--callers) the stacks of the threshold events as a tree of
 *               arcs `caller → callee  count`, rooted at the marked function;
 *   regions     per named region: visits (counts of its region_begin
 *               sites), block executions and instructions executed inside
 *               (Σ count × the block's instruction count) of its other sites;
 *   trace       per trace_start site: intervals and cycles, the block
 *               executions and instructions between start and stop, and a
 *               per-function breakdown (entries, blocks);
 *   types       functions marked types(...): per site and function the
 *               dynamic count of each requested instruction type (static
 *               count of the site's code × the site's count);
 *   watch       the WATCH records' words: reads and writes per word, named
 *               through PROG's DWARF (`table[2]`, `recs[1].hot`) when the
 *               word lies in PROG's module and image, else `heap/stack`
 *               with its run-time address (run-dependent);
 *   watch-sites per data site (PI_SITE_DATA): the watched object as the
 *               plugin named it (`table`, `struct point.x`), read or
 *               write, and the accesses its PI_STAT_WATCH SITESTAT saw.
 *
 * Instruction counts: a site with one code range has that range's counts;
 * a site with several (copies made by unrolling, duplication, inlining) has
 * their mean, and every figure built from it is marked approximate; so is
 * one built from an executed site without any range.
 *
 * The records are combined by the model (model.c: r->ir), matched to
 * PROG by unit id, event frames at link-time addresses, watched words
 * keyed by link-time, run-time or module-relative address.
 */
#include <stdlib.h>
#include <string.h>

#include "piutil.h"
#include "report.h"

struct ind_row {
    const struct pi_unit_view *u;
    struct pi_rec_sitestat st;
};

struct region_row {
    const struct pi_unit_view *u;
    uint32_t func;
    const char *name;
    const char *file;               /* the first line of its body, else its begin site's */
    uint32_t line;
    const char *bfile;              /* its region_begin site's */
    uint32_t bline;
    uint32_t nsites;
    uint64_t visits, blocks;
    long double insns;
    int approx;
};

struct treg_func {
    const struct pi_unit_view *u;
    uint32_t func;
    int has_entry;
    uint64_t entries, blocks;
};

struct treg_row {
    const struct pi_unit_view *u;   /* the trace_start site's */
    uint32_t site;
    const char *dfile;              /* DWARF's line at the start site's code, or NULL */
    uint32_t dline;
    int has_stat;
    struct pi_rec_sitestat st;      /* PI_STAT_TRACE of the start site */
    uint64_t blocks;
    long double insns;
    int approx;
    uint64_t foreign;               /* block executions in units PROG does not have */
    size_t nfuncs;
    struct treg_func *funcs;
};

struct types_site {
    uint32_t site;
    uint64_t count;
    uint32_t nranges;
    long double insns;              /* static, per execution (mean over the ranges) */
    long double stat[PI_NTYPES];
};

struct types_fn {
    const struct pi_unit_view *u;
    uint32_t func;
    uint32_t mask;                  /* 1 << PI_T_* requested */
    int approx;
    size_t nsites;
    struct types_site *sites;
};

struct cnode {                      /* the callers' tree */
    const char *name;
    uint64_t count;
    size_t nkids, kcap;
    size_t *kids;
};

struct wsite {
    const struct pi_unit_view *u;
    uint32_t site;
    uint64_t accesses, words;
};

struct ind_views {
    struct ind_row *inds;
    size_t ninds;
    struct region_row *regions;
    size_t nregions;
    struct treg_row *tregs;
    size_t ntregs;
    struct types_fn *types;
    size_t ntypes;
    struct cnode *nodes;
    size_t nnodes, ncap;
    size_t *roots;
    size_t nroots, rcap;
    uint64_t nevents;
    uint64_t nevents_other;         /* of them, not threshold events (combinations, dormant) */
    size_t wnamed;                  /* r->ir.wwords[0 .. wnamed) own their names */
    struct wsite *wsites;
    size_t nwsites;
};

static const char *const stat_hits[] = {
    [PI_STAT_TRAP] = "handler calls",
    [PI_STAT_THRESHOLD] = "events",
    [PI_STAT_CYCLES] = "executions over the threshold",
    [PI_STAT_TRACE] = "intervals",
    [PI_STAT_COMBINE] = "fires of evaluations",
};

/* The order of a folded trace's SITESTATs (pitrace): (unit, site, kind). */
static int cmp_stat_key(const void *a, const void *b)
{
    const struct pi_rec_sitestat *x = a, *y = b;
    if (x->unit_id != y->unit_id)
        return x->unit_id < y->unit_id ? -1 : 1;
    if (x->site != y->site)
        return x->site < y->site ? -1 : 1;
    return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/* ---------------------------------------------------------------------- */
/* Instruction counts                                                        */
/* ---------------------------------------------------------------------- */

static const struct site_code *code_of(const struct report *r, const struct pi_unit_view *u,
                                       uint32_t site)
{
    return &r->ir.code[u - r->m.units][site];
}

/* Instructions that `count` executions of a site ran. */
static long double dyn_insns(const struct site_code *c, uint64_t count, int *approx)
{
    if (!count)
        return 0;
    if (c->nranges != 1)
        *approx = 1;
    return c->nranges ? (long double)count * c->insns / c->nranges : 0;
}

static int integral(long double v)
{
    return v >= 0 && v < 18446744073709551616.0L && v == (long double)(uint64_t)v;
}

static void put_qty(FILE *f, long double v)
{
    if (integral(v))
        fprintf(f, "%.0Lf", v);
    else
        fprintf(f, "%.2Lf", v);
}

static int qty_str(char *buf, size_t n, long double v, int approx)
{
    if (integral(v))
        return snprintf(buf, n, "%s%.0Lf", approx ? "~" : "", v);
    return snprintf(buf, n, "%s%.2Lf", approx ? "~" : "", v);
}

/* ---------------------------------------------------------------------- */
/* Views                                                                     */
/* ---------------------------------------------------------------------- */

static uint64_t count_of(const struct report *r, const struct pi_unit_view *u, uint32_t site)
{
    const struct usum *s = &r->us[u - r->m.units];
    uint32_t c = u->sites[site].counter;
    return c != PI_NONE && s->sums && c < s->n ? s->sums[c] : 0;
}

static int cmp_ind(const void *a, const void *b)
{
    const struct ind_row *x = a, *y = b;
    const struct pi_site *sx = &x->u->sites[x->st.site], *sy = &y->u->sites[y->st.site];
    int c = strcmp(pm_unit_file(x->u, sx->file), pm_unit_file(y->u, sy->file));
    if (c)
        return c;
    if (sx->line != sy->line)
        return sx->line < sy->line ? -1 : 1;
    if (x->st.unit_id != y->st.unit_id)
        return x->st.unit_id < y->st.unit_id ? -1 : 1;
    if (x->st.site != y->st.site)
        return x->st.site < y->st.site ? -1 : 1;
    return x->st.kind < y->st.kind ? -1 : x->st.kind > y->st.kind;
}

static int build_indicators(struct report *r)
{
    struct ind_views *iv = r->iv;
    iv->inds = calloc(r->ir.ind.nsitestats ? r->ir.ind.nsitestats : 1, sizeof *iv->inds);
    if (!iv->inds)
        return rep_oom();
    for (size_t i = 0; i < r->ir.ind.nsitestats; i++) {
        const struct pi_rec_sitestat *s = &r->ir.ind.sitestats[i];
        const struct pi_unit_view *u = rep_prog_unit(r, s->unit_id, s->site);
        if (u && s->kind != PI_STAT_WATCH && /* the watch views show those */
            !(s->kind >= PI_STAT_HOT && s->kind <= PI_STAT_SPILL)) /* and report-dormant.c those */
            iv->inds[iv->ninds++] = (struct ind_row){ .u = u, .st = *s };
    }
    if (iv->ninds)
        qsort(iv->inds, iv->ninds, sizeof *iv->inds, cmp_ind);
    return 0;
}

/* The callers' tree: a child of `parent` (SIZE_MAX: a root) named name. */
static size_t cnode_get(struct ind_views *iv, size_t parent, const char *name)
{
    size_t *list = parent == SIZE_MAX ? iv->roots : iv->nodes[parent].kids;
    size_t n = parent == SIZE_MAX ? iv->nroots : iv->nodes[parent].nkids;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(iv->nodes[list[i]].name, name))
            return list[i];
    if (iv->nnodes == iv->ncap) {
        size_t nc = iv->ncap ? iv->ncap * 2 : 64;
        struct cnode *a = realloc(iv->nodes, nc * sizeof *a);
        if (!a)
            return SIZE_MAX;
        iv->nodes = a;
        iv->ncap = nc;
    }
    size_t id = iv->nnodes++;
    iv->nodes[id] = (struct cnode){ .name = name };
    size_t **lp = parent == SIZE_MAX ? &iv->roots : &iv->nodes[parent].kids;
    size_t *np = parent == SIZE_MAX ? &iv->nroots : &iv->nodes[parent].nkids;
    size_t *cp = parent == SIZE_MAX ? &iv->rcap : &iv->nodes[parent].kcap;
    if (*np == *cp) {
        size_t nc = *cp ? *cp * 2 : 4;
        size_t *a = realloc(*lp, nc * sizeof *a);
        if (!a)
            return SIZE_MAX;
        *lp = a;
        *cp = nc;
    }
    (*lp)[(*np)++] = id;
    return id;
}

/* A link-time address of PROG as a function name; "?" outside PROG. */
static const char *frame_name(const struct report *r, uint64_t addr)
{
    const struct pi_dfunc *f = addr && r->have_dbg ? pi_debug_func(&r->dbg, addr) : NULL;
    return f ? pm_dfunc_name(f) : "?";
}

static const struct ind_views *sort_iv; /* qsort has no context argument */

static int cmp_cnode(const void *a, const void *b)
{
    const struct cnode *x = &sort_iv->nodes[*(const size_t *)a];
    const struct cnode *y = &sort_iv->nodes[*(const size_t *)b];
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int build_callers(struct report *r)
{
    struct ind_views *iv = r->iv;
    for (size_t i = 0; i < r->ir.ind.nevents; i++) {
        const struct pi_trace_event *e = &r->ir.ind.events[i];
        const struct pi_unit_view *u = rep_prog_unit(r, e->ev.unit_id, e->ev.site);
        if (!u || !e->ev.nframes)
            continue;
        iv->nevents++;
        iv->nevents_other += e->ev.kind != PI_STAT_THRESHOLD;
        /* frames[0]: in the marked code; the others are return addresses,
         * so the call is at the address before (a call may end a function) */
        const char *name = frame_name(r, e->frames[0]);
        if (!strcmp(name, "?"))
            name = pm_func_name(u, u->sites[e->ev.site].func);
        size_t node = cnode_get(iv, SIZE_MAX, name);
        if (node == SIZE_MAX)
            return rep_oom();
        iv->nodes[node].count++;
        const char *prev = name;
        for (uint32_t k = 1; k < e->ev.nframes; k++) {
            const char *n = frame_name(r, e->frames[k] ? e->frames[k] - 1 : 0);
            if (!strcmp(n, "?") && !strcmp(prev, "?"))
                continue; /* frames outside PROG: one "?" for a run of them */
            node = cnode_get(iv, node, n);
            if (node == SIZE_MAX)
                return rep_oom();
            iv->nodes[node].count++;
            prev = n;
        }
    }
    sort_iv = iv;
    if (iv->nroots)
        qsort(iv->roots, iv->nroots, sizeof *iv->roots, cmp_cnode);
    for (size_t i = 0; i < iv->nnodes; i++)
        if (iv->nodes[i].nkids)
            qsort(iv->nodes[i].kids, iv->nodes[i].nkids, sizeof(size_t), cmp_cnode);
    return 0;
}

static int build_regions(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->m;
    size_t cap = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nsites;
    iv->regions = calloc(cap ? cap : 1, sizeof *iv->regions);
    if (!iv->regions)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            const struct pi_site *s = &u->sites[k];
            const char *name = pi_unit_str(u, s->region);
            if (!*name || s->kind != PI_SITE_BLOCK) /* a data site's region names its object, a call site's its callee */
                continue;
            struct region_row *g = NULL;
            for (size_t j = 0; j < iv->nregions && !g; j++)
                if (iv->regions[j].u == u && iv->regions[j].func == s->func &&
                    !strcmp(iv->regions[j].name, name))
                    g = &iv->regions[j];
            if (!g) {
                g = &iv->regions[iv->nregions++];
                *g = (struct region_row){ .u = u, .func = s->func, .name = name };
            }
            g->nsites++;
            uint64_t c = count_of(r, u, k);
            if (s->directives & PI_D_REGION_BEGIN) {
                g->visits = pm_sat_add(g->visits, c);
                if (!g->bfile) {
                    g->bfile = pm_unit_file(u, s->file);
                    g->bline = s->line;
                }
                continue;
            }
            g->blocks = pm_sat_add(g->blocks, c);
            g->insns += dyn_insns(code_of(r, u, k), c, &g->approx);
            if (s->line && (!g->line || s->line < g->line)) {
                g->file = pm_unit_file(u, s->file);
                g->line = s->line;
            }
        }
    }
    for (size_t j = 0; j < iv->nregions; j++)
        if (!iv->regions[j].line) {
            iv->regions[j].file = iv->regions[j].bfile;
            iv->regions[j].line = iv->regions[j].bline;
        }
    return 0;
}

static int cmp_treg_func(const void *a, const void *b)
{
    const struct treg_func *x = a, *y = b;
    if (x->blocks != y->blocks)
        return x->blocks > y->blocks ? -1 : 1;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

static int build_trace(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->m;
    const struct pi_trace *t = &r->ir.ind;
    size_t nfuncs = 0;
    for (size_t i = 0; i < m->nunits; i++)
        nfuncs += m->units[i].hdr.nfuncs;
    iv->tregs = calloc(t->ntraceregs ? t->ntraceregs : 1, sizeof *iv->tregs);
    if (!iv->tregs)
        return rep_oom();
    /* traceregs are sorted by (start_unit, start_site, unit_id) */
    for (size_t i = 0; i < t->ntraceregs;) {
        const struct pi_trace_tracereg *g = &t->traceregs[i];
        size_t j = i;
        while (j < t->ntraceregs && t->traceregs[j].start_unit == g->start_unit &&
               t->traceregs[j].start_site == g->start_site)
            j++;
        const struct pi_unit_view *su = rep_prog_unit(r, g->start_unit, g->start_site);
        if (!su) {
            i = j;
            continue;
        }
        struct treg_row *row = &iv->tregs[iv->ntregs++];
        *row = (struct treg_row){ .u = su, .site = g->start_site };
        row->funcs = calloc(nfuncs ? nfuncs : 1, sizeof *row->funcs);
        if (!row->funcs)
            return rep_oom();
        uint64_t addr = r->us[su - m->units].site_addr ? r->us[su - m->units].site_addr[g->start_site]
                                                        : 0;
        const char *df;
        uint32_t dl;
        const struct pi_site *ss = &su->sites[g->start_site];
        if (addr && r->have_dbg && pi_debug_line(&r->dbg, addr, &df, &dl) &&
            (dl != ss->line || strcmp(pm_basename(df), pm_basename(pi_unit_str(su, ss->file))))) {
            row->dfile = pm_file(NULL, df);
            row->dline = dl;
        }
        for (size_t k = 0; k < t->nsitestats; k++) {
            const struct pi_rec_sitestat *s = &t->sitestats[k];
            if (s->unit_id == g->start_unit && s->site == g->start_site && s->kind == PI_STAT_TRACE) {
                row->has_stat = 1;
                row->st = *s;
            }
        }
        for (; i < j; i++) {
            const struct pi_trace_tracereg *x = &t->traceregs[i];
            const struct pi_unit_view *u = pi_meta_unit(m, x->unit_id);
            if (!u) {
                for (uint32_t c = 0; c < x->ncounters; c++)
                    row->foreign = pm_sat_add(row->foreign, x->counts[c]);
                continue;
            }
            uint32_t n = x->ncounters < u->hdr.ncounters ? x->ncounters : u->hdr.ncounters;
#define DELTA(site) (u->sites[site].counter != PI_NONE && u->sites[site].counter < n \
                     ? x->counts[u->sites[site].counter] : 0)
            for (uint32_t k = 0; k < u->hdr.nsites; k++) {
                uint64_t c = DELTA(k);
                row->blocks = pm_sat_add(row->blocks, c);
                row->insns += dyn_insns(code_of(r, u, k), c, &row->approx);
            }
            for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
                const struct pi_func *fn = &u->funcs[f];
                struct treg_func tf = { .u = u, .func = f };
                for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++)
                    tf.blocks = pm_sat_add(tf.blocks, DELTA(k));
                if (!tf.blocks)
                    continue;
                /* sites[first_site] is the entry block of a function marked as a whole */
                if (fn->nsites && fn->directives && u->sites[fn->first_site].counter != PI_NONE) {
                    tf.has_entry = 1;
                    tf.entries = DELTA(fn->first_site);
                }
                row->funcs[row->nfuncs++] = tf;
            }
#undef DELTA
        }
        if (row->nfuncs)
            qsort(row->funcs, row->nfuncs, sizeof *row->funcs, cmp_treg_func);
    }
    return 0;
}

/* The types a function asked for: types(...) puts the mask into its sites'
 * arg; a cycles probe's site uses arg for its code, so it is not read. */
static uint32_t types_mask(const struct pi_unit_view *u, const struct pi_func *fn)
{
    uint32_t mask = 0;
    for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++) {
        const struct pi_site *s = &u->sites[k];
        if (s->directives & PI_D_TYPES)
            mask |= PI_SITE_TYPES(s->arg);
    }
    return mask & ((1u << PI_NTYPES) - 1);
}

static int build_types(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->m;
    size_t cap = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nfuncs;
    iv->types = calloc(cap ? cap : 1, sizeof *iv->types);
    if (!iv->types)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++) {
            const struct pi_func *fn = &u->funcs[f];
            uint32_t mask = types_mask(u, fn);
            if (!mask)
                continue;
            struct types_fn *tf = &iv->types[iv->ntypes++];
            *tf = (struct types_fn){ .u = u, .func = f, .mask = mask };
            tf->sites = calloc(fn->nsites ? fn->nsites : 1, sizeof *tf->sites);
            if (!tf->sites)
                return rep_oom();
            for (uint32_t k = fn->first_site; k < fn->first_site + fn->nsites; k++) {
                if (u->sites[k].counter == PI_NONE)
                    continue;
                const struct site_code *c = code_of(r, u, k);
                struct types_site *ts = &tf->sites[tf->nsites++];
                ts->site = k;
                ts->count = count_of(r, u, k);
                ts->nranges = c->nranges;
                if (ts->count && c->nranges != 1)
                    tf->approx = 1;
                if (c->nranges) {
                    ts->insns = (long double)c->insns / c->nranges;
                    for (unsigned t = 0; t < PI_NTYPES; t++)
                        ts->stat[t] = (long double)c->ntype[t] / c->nranges;
                }
            }
        }
    }
    return 0;
}

/* ---- watched data ---------------------------------------------------------- */

static int cmp_wword_key(const void *a, const void *b)
{
    const struct wword *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_wword(const void *a, const void *b)
{
    const struct wword *x = a, *y = b;
    uint64_t tx = pm_sat_add(x->reads, x->writes), ty = pm_sat_add(y->reads, y->writes);
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return cmp_wword_key(a, b);
}

static int cmp_wsite(const void *a, const void *b)
{
    const struct wsite *x = a, *y = b;
    if (x->accesses != y->accesses)
        return x->accesses > y->accesses ? -1 : 1;
    const struct pi_site *sx = &x->u->sites[x->site], *sy = &y->u->sites[y->site];
    int c = strcmp(pm_unit_file(x->u, sx->file), pm_unit_file(y->u, sy->file));
    if (c)
        return c;
    if (sx->line != sy->line)
        return sx->line < sy->line ? -1 : 1;
    if (x->u->hdr.unit_id != y->u->hdr.unit_id)
        return x->u->hdr.unit_id < y->u->hdr.unit_id ? -1 : 1;
    return x->site < y->site ? -1 : x->site > y->site;
}

static int build_watch(struct report *r)
{
    struct ind_views *iv = r->iv;
    const struct pi_meta *m = &r->m;
    /* words: one per key, summed, then named */
    size_t n = 0;
    if (r->ir.nwwords)
        qsort(r->ir.wwords, r->ir.nwwords, sizeof *r->ir.wwords, cmp_wword_key);
    for (size_t i = 0; i < r->ir.nwwords; i++) {
        struct wword *d = n ? &r->ir.wwords[n - 1] : NULL;
        if (d && !cmp_wword_key(d, &r->ir.wwords[i])) {
            d->reads = pm_sat_add(d->reads, r->ir.wwords[i].reads);
            d->writes = pm_sat_add(d->writes, r->ir.wwords[i].writes);
            continue;
        }
        r->ir.wwords[n++] = r->ir.wwords[i];
    }
    r->ir.nwwords = n;
    int have_vars = 0;
    for (size_t i = 0; i < r->ir.nwwords && r->have_dbg && !have_vars; i++)
        if (r->ir.wwords[i].cls == W_PROG) {
            struct pi_err err;
            int had_warning = r->dbg.warning[0] != 0;
            if (pi_debug_read_vars(&r->dbg, &err))
                pm_note("%s: watched words are not named: %s", r->prog, err.msg);
            else
                have_vars = 1;
            if (!had_warning && r->dbg.warning[0])
                pm_note("%s", r->dbg.warning);
        }
    for (size_t i = 0; i < r->ir.nwwords; i++) {
        struct wword *w = &r->ir.wwords[i];
        char name[512] = "heap/stack";
        if (w->cls == W_PROG) {
            const struct pi_dvar *v = have_vars ? pi_debug_var(&r->dbg, w->addr, w->addr + r->ir.wgran)
                                                : NULL;
            if (v) {
                pi_debug_var_name(&r->dbg, v, w->addr > v->addr ? w->addr : v->addr, name,
                                  sizeof name);
                w->is_var = 1;
            } else {
                snprintf(name, sizeof name, "?");
            }
        }
        if (!(w->name = strdup(name)))
            return rep_oom();
        iv->wnamed = i + 1;
    }
    if (r->ir.nwwords)
        qsort(r->ir.wwords, r->ir.nwwords, sizeof *r->ir.wwords, cmp_wword);

    /* sites: every data site of PROG, with its PI_STAT_WATCH record if any */
    size_t cap = 0;
    for (size_t i = 0; i < m->nunits; i++)
        cap += m->units[i].hdr.nsites;
    iv->wsites = calloc(cap ? cap : 1, sizeof *iv->wsites);
    if (!iv->wsites)
        return rep_oom();
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t k = 0; k < u->hdr.nsites; k++) {
            if (u->sites[k].kind != PI_SITE_DATA)
                continue;
            struct wsite *ws = &iv->wsites[iv->nwsites++];
            *ws = (struct wsite){ .u = u, .site = k };
            struct pi_rec_sitestat key = { .unit_id = u->hdr.unit_id, .site = k,
                                           .kind = PI_STAT_WATCH };
            const struct pi_rec_sitestat *st =
                r->ir.ind.nsitestats ? bsearch(&key, r->ir.ind.sitestats, r->ir.ind.nsitestats,
                                             sizeof key, cmp_stat_key)
                                   : NULL;
            if (st) {
                ws->accesses = st->execs;
                ws->words = st->count;
            }
        }
    }
    if (iv->nwsites)
        qsort(iv->wsites, iv->nwsites, sizeof *iv->wsites, cmp_wsite);
    return 0;
}

int rind_build(struct report *r)
{
    if (!r->iv && !(r->iv = calloc(1, sizeof *r->iv)))
        return rep_oom();
    if (build_indicators(r) || build_callers(r) || build_regions(r) || build_trace(r) ||
        build_types(r) || build_watch(r))
        return -1;
    struct ind_views *iv = r->iv;
    if (r->top > 0) {
        size_t top = (size_t)r->top;
        iv->ninds = iv->ninds < top ? iv->ninds : top;
        r->ir.nwwords = r->ir.nwwords < top ? r->ir.nwwords : top; /* wnamed still frees all */
        iv->nwsites = iv->nwsites < top ? iv->nwsites : top;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* What a threshold means                                                    */
/* ---------------------------------------------------------------------- */

/* The runtime's default cycles code table (PERFINST_THRESH_TABLE changes it
 * at run time; the trace does not say to what). */
static const uint64_t default_code_bits[3] = { 10, 50, 100 };

struct thr {
    int has;                /* a threshold applies */
    uint64_t value;
    int from_code;          /* value = the code through the default table */
    uint32_t code;
};

static struct thr threshold_of(const struct pi_site *s, uint32_t kind)
{
    struct thr t = { 0 };
    if (kind == PI_STAT_THRESHOLD) {
        t.has = 1;
        t.value = s->threshold;
    } else if (kind == PI_STAT_CYCLES) {
        t.has = 1;
        if (s->threshold) {
            t.value = s->threshold;
        } else {
            t.from_code = 1;
            t.code = PI_SITE_CYCLES_CODE(s->arg);
            for (int k = 0; k < 3; k++)
                if (t.code & (1u << k))
                    t.value += default_code_bits[k];
        }
    }
    return t;
}

static void threshold_text(const struct pi_site *s, uint32_t kind, char *buf, size_t n)
{
    struct thr t = threshold_of(s, kind);
    if (!t.has)
        snprintf(buf, n, "-");
    else if (kind == PI_STAT_THRESHOLD)
        snprintf(buf, n, "count=%llu", (unsigned long long)t.value);
    else if (!t.from_code)
        snprintf(buf, n, ">%llu cycles", (unsigned long long)t.value);
    else
        snprintf(buf, n, "code 0b%u%u%u = %llu cycles (default table 10/50/100)",
                 (t.code >> 2) & 1, (t.code >> 1) & 1, t.code & 1, (unsigned long long)t.value);
}

static int has_cycles(uint32_t kind)
{
    return kind == PI_STAT_CYCLES || kind == PI_STAT_TRACE;
}

/* ---------------------------------------------------------------------- */
/* Text                                                                      */
/* ---------------------------------------------------------------------- */

static const char *func_name(const struct pi_unit_view *u, uint32_t func)
{
    return pm_func_name(u, func);
}

static void text_indicators(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!iv->ninds && !r->by_given)
        return;
    printf("\nIndicators (hits: trap = handler calls, threshold = events, cycles = executions "
           "over the threshold, trace = intervals, combine = combinations fired of evaluations)\n");
    if (!iv->ninds) {
        printf("  (none: no SITESTAT record for PROG's sites)\n");
        return;
    }
    char he[64], th[128], cy[96], loc[4096];
    int wh = 13, wt = 9, wc = 19, wf = 8;
    for (size_t i = 0; i < iv->ninds; i++) {
        const struct ind_row *x = &iv->inds[i];
        const struct pi_site *s = &x->u->sites[x->st.site];
        wh = rep_widest(wh, snprintf(he, sizeof he, "%llu of %llu", (unsigned long long)x->st.count,
                                     (unsigned long long)x->st.execs), 45);
        threshold_text(s, x->st.kind, th, sizeof th);
        wt = rep_widest(wt, (int)strlen(th), 60);
        wf = rep_widest(wf, (int)strlen(func_name(x->u, s->func)), 40);
        if (has_cycles(x->st.kind) && x->st.execs)
            wc = rep_widest(wc, snprintf(cy, sizeof cy, "%llu/%llu/%llu",
                                         (unsigned long long)(x->st.sum / x->st.execs),
                                         (unsigned long long)x->st.min,
                                         (unsigned long long)x->st.max), 64);
    }
    printf("  %-9s  %*s  %-*s  %-*s  %-*s  %s\n", "kind", wh, "hits of execs", wt, "threshold",
           wc, "cycles mean/min/max", wf, "function", "file:line");
    for (size_t i = 0; i < iv->ninds; i++) {
        const struct ind_row *x = &iv->inds[i];
        const struct pi_site *s = &x->u->sites[x->st.site];
        snprintf(he, sizeof he, "%llu of %llu", (unsigned long long)x->st.count,
                 (unsigned long long)x->st.execs);
        threshold_text(s, x->st.kind, th, sizeof th);
        if (has_cycles(x->st.kind) && x->st.execs)
            snprintf(cy, sizeof cy, "%llu/%llu/%llu", (unsigned long long)(x->st.sum / x->st.execs),
                     (unsigned long long)x->st.min, (unsigned long long)x->st.max);
        else
            snprintf(cy, sizeof cy, "-");
        snprintf(loc, sizeof loc, "%s:%u", pm_unit_file(x->u, s->file), s->line);
        printf("  %-9s  %*s  %-*s  %-*s  %-*s  %s\n", pi_trace_stat_kind_name(x->st.kind), wh, he,
               wt, th, wc, cy, wf, func_name(x->u, s->func), loc);
    }
    for (size_t i = 0; i < iv->ninds; i++)
        if (iv->inds[i].st.kind == PI_STAT_CYCLES &&
            threshold_of(&iv->inds[i].u->sites[iv->inds[i].st.site], PI_STAT_CYCLES).from_code) {
            printf("  (a cycles code means what PERFINST_THRESH_TABLE said in the run; the trace "
                   "does not record it, the default table is shown)\n");
            break;
        }
}

static void text_cnode(const struct ind_views *iv, size_t id, const char *callee, int depth)
{
    const struct cnode *n = &iv->nodes[id];
    printf("  %*s%s → %s  %llu\n", 2 * depth, "", n->name, callee, (unsigned long long)n->count);
    for (size_t i = 0; i < n->nkids; i++)
        text_cnode(iv, n->kids[i], n->name, depth + 1);
}

static void text_callers(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    printf("\nCallers of marked code, from the stacks of %llu threshold event%s (caller → callee  "
           "events)\n", (unsigned long long)iv->nevents, iv->nevents == 1 ? "" : "s");
    if (iv->nevents_other)
        printf("  (of which %llu from counter combinations or dormant classes)\n",
               (unsigned long long)iv->nevents_other);
    if (!iv->nroots)
        printf("  (none: no EVENT record for PROG's sites)\n");
    for (size_t i = 0; i < iv->nroots; i++) {
        const struct cnode *n = &iv->nodes[iv->roots[i]];
        printf("  %s  %llu event%s\n", n->name, (unsigned long long)n->count,
               n->count == 1 ? "" : "s");
        for (size_t k = 0; k < n->nkids; k++)
            text_cnode(iv, n->kids[k], n->name, 1);
    }
}

static void text_regions(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!iv->nregions && !r->by_given)
        return;
    printf("\nRegions (visits = entries into the region; blocks and instructions executed "
           "inside; ~ approximate)\n");
    if (!iv->nregions) {
        printf("  (none: PROG has no named region)\n");
        return;
    }
    char q[64];
    int wv = 6, wb = 6, wi = 12, wn = 6, wf = 8;
    for (size_t i = 0; i < iv->nregions; i++) {
        const struct region_row *g = &iv->regions[i];
        wv = rep_widest(wv, rep_digits(g->visits), 20);
        wb = rep_widest(wb, rep_digits(g->blocks), 20);
        wi = rep_widest(wi, qty_str(q, sizeof q, g->insns, g->approx), 40);
        wn = rep_widest(wn, (int)strlen(g->name), 40);
        wf = rep_widest(wf, (int)strlen(func_name(g->u, g->func)), 40);
    }
    printf("  %*s  %*s  %*s  %-*s  %-*s  %s\n", wv, "visits", wb, "blocks", wi, "instructions", wn,
           "region", wf, "function", "file:line");
    for (size_t i = 0; i < iv->nregions; i++) {
        const struct region_row *g = &iv->regions[i];
        qty_str(q, sizeof q, g->insns, g->approx);
        printf("  %*llu  %*llu  %*s  %-*s  %-*s  %s:%u\n", wv, (unsigned long long)g->visits, wb,
               (unsigned long long)g->blocks, wi, q, wn, g->name, wf, func_name(g->u, g->func),
               g->file ? g->file : "", g->line);
    }
    for (size_t i = 0; i < iv->nregions; i++)
        if (iv->regions[i].approx) {
            printf("  (~: a block with several copies of its code counts their mean, one without "
                   "code counts 0)\n");
            break;
        }
}

static void text_trace(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!iv->ntregs && !r->by_given)
        return;
    printf("\nTrace regions (trace_start .. trace_stop: counts summed over the intervals)\n");
    if (!iv->ntregs)
        printf("  (none: no TRACEREG record for PROG's sites)\n");
    char q[64];
    for (size_t i = 0; i < iv->ntregs; i++) {
        const struct treg_row *t = &iv->tregs[i];
        const struct pi_site *s = &t->u->sites[t->site];
        printf("  start %s %s:%u", func_name(t->u, s->func), pm_unit_file(t->u, s->file), s->line);
        if (t->dfile)
            printf(" (DWARF: %s:%u)", t->dfile, t->dline);
        printf(", unit:site %016llx:%u\n", (unsigned long long)t->u->hdr.unit_id, t->site);
        if (t->has_stat && t->st.count)
            printf("    intervals %llu, cycles %llu (mean %llu, min %llu, max %llu)\n",
                   (unsigned long long)t->st.count, (unsigned long long)t->st.sum,
                   (unsigned long long)(t->st.sum / t->st.count), (unsigned long long)t->st.min,
                   (unsigned long long)t->st.max);
        else
            printf("    intervals %llu\n", (unsigned long long)(t->has_stat ? t->st.count : 0));
        qty_str(q, sizeof q, t->insns, t->approx);
        printf("    block executions %llu, instructions %s%s\n", (unsigned long long)t->blocks, q,
               t->approx ? " (approximate)" : "");
        if (t->foreign)
            printf("    and %llu block executions in units that are not in %s\n",
                   (unsigned long long)t->foreign, r->prog);
        if (!t->nfuncs)
            continue;
        int we = 7, wb = 6, wf = 8;
        for (size_t k = 0; k < t->nfuncs; k++) {
            we = rep_widest(we, rep_digits(t->funcs[k].entries), 20);
            wb = rep_widest(wb, rep_digits(t->funcs[k].blocks), 20);
            wf = rep_widest(wf, (int)strlen(func_name(t->funcs[k].u, t->funcs[k].func)), 40);
        }
        printf("    %*s  %*s  %-*s  %s\n", we, "entries", wb, "blocks", wf, "function", "file:line");
        for (size_t k = 0; k < t->nfuncs; k++) {
            const struct treg_func *f = &t->funcs[k];
            const struct pi_func *fn = &f->u->funcs[f->func];
            char e[24] = "-";
            if (f->has_entry)
                snprintf(e, sizeof e, "%llu", (unsigned long long)f->entries);
            printf("    %*s  %*llu  %-*s  %s:%u\n", we, e, wb, (unsigned long long)f->blocks, wf,
                   pm_unit_fname(f->u, fn->name), pm_unit_file(f->u, fn->file), fn->line);
        }
    }
}

static void text_types(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!iv->ntypes && !r->by_given)
        return;
    printf("\nTypes (dynamic count = the static count of the type in the site's code × the "
           "site's count; ~ approximate)\n");
    if (!iv->ntypes)
        printf("  (none: no function of PROG is marked types(...))\n");
    char q[64];
    for (size_t i = 0; i < iv->ntypes; i++) {
        const struct types_fn *tf = &iv->types[i];
        const struct pi_func *fn = &tf->u->funcs[tf->func];
        printf("  %s (%s:%u): types", pm_unit_fname(tf->u, fn->name), pm_unit_file(tf->u, fn->file),
               fn->line);
        const char *sep = " ";
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t)) {
                printf("%s%s", sep, pi_itype_name(t));
                sep = ", ";
            }
        printf("%s\n", tf->approx ? " (approximate: a site has several code copies or none)" : "");
        printf("    %12s  %12s", "count", "insns");
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t))
                printf("  %12s", pi_itype_name(t));
        printf("  %5s  %s\n", "site", "file:line");
        long double tot_i = 0, tot[PI_NTYPES] = { 0 };
        uint64_t tot_c = 0;
        for (size_t k = 0; k < tf->nsites; k++) {
            const struct types_site *ts = &tf->sites[k];
            const struct pi_site *s = &tf->u->sites[ts->site];
            int ap = ts->count && ts->nranges != 1;
            printf("    %12llu", (unsigned long long)ts->count);
            qty_str(q, sizeof q, ts->insns * ts->count, ap);
            printf("  %12s", q);
            tot_i += ts->insns * ts->count;
            tot_c = pm_sat_add(tot_c, ts->count);
            for (unsigned t = 0; t < PI_NTYPES; t++)
                if (tf->mask & (1u << t)) {
                    qty_str(q, sizeof q, ts->stat[t] * ts->count, ap);
                    printf("  %12s", q);
                    tot[t] += ts->stat[t] * ts->count;
                }
            printf("  %5u  %s:%u\n", ts->site, pm_unit_file(tf->u, s->file), s->line);
        }
        printf("    %12s", "total");
        qty_str(q, sizeof q, tot_i, tf->approx);
        printf("  %12s", q);
        for (unsigned t = 0; t < PI_NTYPES; t++)
            if (tf->mask & (1u << t)) {
                qty_str(q, sizeof q, tot[t], tf->approx);
                printf("  %12s", q);
            }
        printf("\n");
    }
}

/* A watched word's address as shown: link-time in PROG, run-time outside,
 * "base+0x…" relative to PROG's load address (a merged trace's heap word). */
static void waddr_str(const struct wword *w, char *buf, size_t n)
{
    snprintf(buf, n, "%s0x%llx", w->cls == W_RELATIVE ? "base+" : "", (unsigned long long)w->addr);
}

static const char *waddr_kind(const struct wword *w)
{
    return w->cls == W_PROG ? "link-time" : w->cls == W_RUNTIME ? "run-time" : "module-relative";
}

static const char *access_str(uint32_t arg, int word)
{
    arg &= PI_ACCESS_READ | PI_ACCESS_WRITE;
    if (arg == (PI_ACCESS_READ | PI_ACCESS_WRITE))
        return word ? "read-write" : "RW";
    if (arg == PI_ACCESS_WRITE)
        return word ? "write" : "W";
    if (arg == PI_ACCESS_READ)
        return word ? "read" : "R";
    return word ? "?" : "?";
}

static void text_watch(const struct report *r)
{
    if (!r->ir.nwwords && !r->by_given)
        return;
    if (!r->ir.nwwords) {
        printf("\nWatched data per word\n  (none: no WATCH record for PROG)\n");
        return;
    }
    printf("\nWatched data per %u-byte word, most accessed first (reads and writes as the source "
           "performs them)\n", r->ir.wgran);
    char a[64];
    int wn = 6, wa = 7, wr = 5, ww = 6, outside = 0, relative = 0;
    for (size_t i = 0; i < r->ir.nwwords; i++) {
        const struct wword *w = &r->ir.wwords[i];
        wn = rep_widest(wn, (int)strlen(w->name), 60);
        waddr_str(w, a, sizeof a);
        wa = rep_widest(wa, (int)strlen(a), 24);
        wr = rep_widest(wr, rep_digits(w->reads), 20);
        ww = rep_widest(ww, rep_digits(w->writes), 20);
        outside |= w->cls != W_PROG;
        relative |= w->cls == W_RELATIVE;
    }
    printf("  %-*s  %-*s  %*s  %*s\n", wn, "object", wa, "address", wr, "reads", ww, "writes");
    for (size_t i = 0; i < r->ir.nwwords; i++) {
        const struct wword *w = &r->ir.wwords[i];
        waddr_str(w, a, sizeof a);
        printf("  %-*s  %-*s  %*llu  %*llu\n", wn, w->name, wa, a, wr, (unsigned long long)w->reads,
               ww, (unsigned long long)w->writes);
    }
    if (outside)
        printf("  (heap/stack: a word outside %s's variables, of a heap or stack object; its address "
               "is where it was in one run (run-time) and changes from run to run%s)\n", r->prog,
               relative ? "; base+: from a merged trace, relative to the program's load address"
                        : "");
    printf("  (addresses in %s are link-time addresses; a word is named by its first byte that "
           "belongs to a variable)\n", r->prog);
}

static void text_watch_sites(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (!iv->nwsites && !r->by_given)
        return;
    printf("\nWatched data per access site (accesses = executions of the access; words = the "
           "words they touched)\n");
    if (!iv->nwsites) {
        printf("  (none: PROG has no access to watched data)\n");
        return;
    }
    char loc[4096];
    int wo = 6, wc = 8, ww = 5, wf = 8;
    for (size_t i = 0; i < iv->nwsites; i++) {
        const struct wsite *ws = &iv->wsites[i];
        const struct pi_site *s = &ws->u->sites[ws->site];
        wo = rep_widest(wo, (int)strlen(pi_unit_str(ws->u, s->region)), 60);
        wc = rep_widest(wc, rep_digits(ws->accesses), 20);
        ww = rep_widest(ww, rep_digits(ws->words), 20);
        wf = rep_widest(wf, (int)strlen(func_name(ws->u, s->func)), 40);
    }
    printf("  %-*s  %-6s  %*s  %*s  %-*s  %s\n", wo, "object", "access", wc, "accesses", ww, "words",
           wf, "function", "file:line");
    for (size_t i = 0; i < iv->nwsites; i++) {
        const struct wsite *ws = &iv->wsites[i];
        const struct pi_site *s = &ws->u->sites[ws->site];
        snprintf(loc, sizeof loc, "%s:%u", pm_unit_file(ws->u, s->file), s->line);
        printf("  %-*s  %-6s  %*llu  %*llu  %-*s  %s\n", wo, pi_unit_str(ws->u, s->region),
               access_str(s->arg, 0), wc, (unsigned long long)ws->accesses, ww,
               (unsigned long long)ws->words, wf, func_name(ws->u, s->func), loc);
    }
}

void rind_text(const struct report *r)
{
    if (r->by & BY_INDICATORS) {
        text_indicators(r);
        rdorm_text(r);
    }
    if (r->by & BY_CALLERS)
        text_callers(r);
    if (r->by & BY_REGIONS)
        text_regions(r);
    if (r->by & BY_TRACE)
        text_trace(r);
    if (r->by & BY_TYPES)
        text_types(r);
    if (r->by & BY_WATCH)
        text_watch(r);
    if (r->by & BY_WATCH_SITES)
        text_watch_sites(r);
}

/* ---------------------------------------------------------------------- */
/* JSON                                                                      */
/* ---------------------------------------------------------------------- */

static void json_where(const struct pi_unit_view *u, uint32_t site)
{
    const struct pi_site *s = &u->sites[site];
    printf("\"unit\": \"0x%016llx\", \"site\": %u, \"function\": ", (unsigned long long)u->hdr.unit_id,
           site);
    pm_json_str(stdout, func_name(u, s->func));
    printf(", \"file\": ");
    pm_json_str(stdout, pm_unit_file(u, s->file));
    printf(", \"line\": %u", s->line);
}

static void json_cnode(const struct ind_views *iv, size_t id)
{
    const struct cnode *n = &iv->nodes[id];
    printf("{\"function\": ");
    pm_json_str(stdout, n->name);
    printf(", \"count\": %llu, \"callers\": [", (unsigned long long)n->count);
    for (size_t i = 0; i < n->nkids; i++) {
        printf("%s", i ? ", " : "");
        json_cnode(iv, n->kids[i]);
    }
    printf("]}");
}

void rind_json(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (r->by & BY_INDICATORS) {
        printf(",\n  \"indicators\": [");
        for (size_t i = 0; i < iv->ninds; i++) {
            const struct ind_row *x = &iv->inds[i];
            const struct pi_site *s = &x->u->sites[x->st.site];
            printf("%s\n    {", i ? "," : "");
            json_where(x->u, x->st.site);
            printf(", \"kind\": ");
            pm_json_str(stdout, pi_trace_stat_kind_name(x->st.kind));
            printf(", \"execs\": %llu, \"hits\": %llu, \"hits_are\": ",
                   (unsigned long long)x->st.execs, (unsigned long long)x->st.count);
            pm_json_str(stdout, x->st.kind < sizeof stat_hits / sizeof *stat_hits && stat_hits[x->st.kind]
                                    ? stat_hits[x->st.kind] : "?");
            struct thr t = threshold_of(s, x->st.kind);
            if (t.has && t.from_code)
                printf(", \"threshold\": %llu, \"threshold_from\": \"code 0x%x, default table\"",
                       (unsigned long long)t.value, t.code);
            else if (t.has)
                printf(", \"threshold\": %llu, \"threshold_from\": \"directive\"",
                       (unsigned long long)t.value);
            else
                printf(", \"threshold\": null, \"threshold_from\": null");
            if (has_cycles(x->st.kind))
                printf(", \"cycles\": {\"sum\": %llu, \"mean\": %llu, \"min\": %llu, \"max\": %llu}",
                       (unsigned long long)x->st.sum,
                       (unsigned long long)(x->st.execs ? x->st.sum / x->st.execs : 0),
                       (unsigned long long)x->st.min, (unsigned long long)x->st.max);
            else
                printf(", \"cycles\": null");
            printf("}");
        }
        printf("%s]", iv->ninds ? "\n  " : "");
        rdorm_json(r);
    }
    if (r->by & BY_CALLERS) {
        printf(",\n  \"callers\": [");
        for (size_t i = 0; i < iv->nroots; i++) {
            const struct cnode *n = &iv->nodes[iv->roots[i]];
            printf("%s\n    {\"function\": ", i ? "," : "");
            pm_json_str(stdout, n->name);
            printf(", \"events\": %llu, \"callers\": [", (unsigned long long)n->count);
            for (size_t k = 0; k < n->nkids; k++) {
                printf("%s", k ? ", " : "");
                json_cnode(iv, n->kids[k]);
            }
            printf("]}");
        }
        printf("%s]", iv->nroots ? "\n  " : "");
    }
    if (r->by & BY_REGIONS) {
        printf(",\n  \"regions\": [");
        for (size_t i = 0; i < iv->nregions; i++) {
            const struct region_row *g = &iv->regions[i];
            printf("%s\n    {\"region\": ", i ? "," : "");
            pm_json_str(stdout, g->name);
            printf(", \"unit\": \"0x%016llx\", \"function\": ", (unsigned long long)g->u->hdr.unit_id);
            pm_json_str(stdout, func_name(g->u, g->func));
            printf(", \"file\": ");
            pm_json_str(stdout, g->file ? g->file : "");
            printf(", \"line\": %u, \"sites\": %u, \"visits\": %llu, \"blocks\": %llu, "
                   "\"instructions\": ", g->line, g->nsites, (unsigned long long)g->visits,
                   (unsigned long long)g->blocks);
            put_qty(stdout, g->insns);
            printf(", \"approximate\": %s}", g->approx ? "true" : "false");
        }
        printf("%s]", iv->nregions ? "\n  " : "");
    }
    if (r->by & BY_TRACE) {
        printf(",\n  \"trace_regions\": [");
        for (size_t i = 0; i < iv->ntregs; i++) {
            const struct treg_row *t = &iv->tregs[i];
            printf("%s\n    {", i ? "," : "");
            json_where(t->u, t->site);
            printf(", \"dwarf_file\": ");
            if (t->dfile)
                pm_json_str(stdout, t->dfile);
            else
                printf("null");
            printf(", \"dwarf_line\": %u, \"intervals\": %llu, \"cycles\": ", t->dfile ? t->dline : 0,
                   (unsigned long long)(t->has_stat ? t->st.count : 0));
            if (t->has_stat)
                printf("{\"sum\": %llu, \"mean\": %llu, \"min\": %llu, \"max\": %llu}",
                       (unsigned long long)t->st.sum,
                       (unsigned long long)(t->st.count ? t->st.sum / t->st.count : 0),
                       (unsigned long long)t->st.min, (unsigned long long)t->st.max);
            else
                printf("null");
            printf(", \"blocks\": %llu, \"instructions\": ", (unsigned long long)t->blocks);
            put_qty(stdout, t->insns);
            printf(", \"approximate\": %s, \"foreign_blocks\": %llu, \"functions\": [",
                   t->approx ? "true" : "false", (unsigned long long)t->foreign);
            for (size_t k = 0; k < t->nfuncs; k++) {
                const struct treg_func *f = &t->funcs[k];
                printf("%s\n      {\"unit\": \"0x%016llx\", \"function\": ", k ? "," : "",
                       (unsigned long long)f->u->hdr.unit_id);
                pm_json_str(stdout, func_name(f->u, f->func));
                printf(", \"entries\": ");
                if (f->has_entry)
                    printf("%llu", (unsigned long long)f->entries);
                else
                    printf("null");
                printf(", \"blocks\": %llu}", (unsigned long long)f->blocks);
            }
            printf("%s]}", t->nfuncs ? "\n    " : "");
        }
        printf("%s]", iv->ntregs ? "\n  " : "");
    }
    if (r->by & BY_TYPES) {
        printf(",\n  \"types\": [");
        for (size_t i = 0; i < iv->ntypes; i++) {
            const struct types_fn *tf = &iv->types[i];
            const struct pi_func *fn = &tf->u->funcs[tf->func];
            printf("%s\n    {\"unit\": \"0x%016llx\", \"function\": ", i ? "," : "",
                   (unsigned long long)tf->u->hdr.unit_id);
            pm_json_str(stdout, pm_unit_fname(tf->u, fn->name));
            printf(", \"file\": ");
            pm_json_str(stdout, pm_unit_file(tf->u, fn->file));
            printf(", \"line\": %u, \"types\": [", fn->line);
            const char *sep = "";
            for (unsigned t = 0; t < PI_NTYPES; t++)
                if (tf->mask & (1u << t)) {
                    printf("%s\"%s\"", sep, pi_itype_name(t));
                    sep = ", ";
                }
            printf("], \"approximate\": %s, \"dynamic\": {", tf->approx ? "true" : "false");
            sep = "";
            for (unsigned t = 0; t < PI_NTYPES; t++)
                if (tf->mask & (1u << t)) {
                    long double v = 0;
                    for (size_t k = 0; k < tf->nsites; k++)
                        v += tf->sites[k].stat[t] * tf->sites[k].count;
                    printf("%s\"%s\": ", sep, pi_itype_name(t));
                    put_qty(stdout, v);
                    sep = ", ";
                }
            printf("}, \"sites\": [");
            for (size_t k = 0; k < tf->nsites; k++) {
                const struct types_site *ts = &tf->sites[k];
                const struct pi_site *s = &tf->u->sites[ts->site];
                printf("%s\n      {\"site\": %u, \"file\": ", k ? "," : "", ts->site);
                pm_json_str(stdout, pm_unit_file(tf->u, s->file));
                printf(", \"line\": %u, \"count\": %llu, \"ranges\": %u, \"insns\": ", s->line,
                       (unsigned long long)ts->count, ts->nranges);
                put_qty(stdout, ts->insns);
                printf(", \"static\": {");
                sep = "";
                for (unsigned t = 0; t < PI_NTYPES; t++)
                    if (tf->mask & (1u << t)) {
                        printf("%s\"%s\": ", sep, pi_itype_name(t));
                        put_qty(stdout, ts->stat[t]);
                        sep = ", ";
                    }
                printf("}, \"dynamic\": {");
                sep = "";
                for (unsigned t = 0; t < PI_NTYPES; t++)
                    if (tf->mask & (1u << t)) {
                        printf("%s\"%s\": ", sep, pi_itype_name(t));
                        put_qty(stdout, ts->stat[t] * ts->count);
                        sep = ", ";
                    }
                printf("}}");
            }
            printf("%s]}", tf->nsites ? "\n    " : "");
        }
        printf("%s]", iv->ntypes ? "\n  " : "");
    }
    if (r->by & BY_WATCH) {
        printf(",\n  \"watch_word_size\": ");
        if (r->ir.wgran)
            printf("%u", r->ir.wgran);
        else
            printf("null");
        printf(",\n  \"watch_words\": [");
        for (size_t i = 0; i < r->ir.nwwords; i++) {
            const struct wword *w = &r->ir.wwords[i];
            printf("%s\n    {\"object\": ", i ? "," : "");
            pm_json_str(stdout, w->name);
            printf(", \"kind\": \"%s\", \"address\": \"0x%llx\", \"address_is\": \"%s\", "
                   "\"reads\": %llu, \"writes\": %llu}",
                   w->is_var ? "variable" : w->cls == W_PROG ? "unknown" : "heap/stack",
                   (unsigned long long)w->addr, waddr_kind(w), (unsigned long long)w->reads,
                   (unsigned long long)w->writes);
        }
        printf("%s]", r->ir.nwwords ? "\n  " : "");
    }
    if (r->by & BY_WATCH_SITES) {
        printf(",\n  \"watch_sites\": [");
        for (size_t i = 0; i < iv->nwsites; i++) {
            const struct wsite *ws = &iv->wsites[i];
            const struct pi_site *s = &ws->u->sites[ws->site];
            printf("%s\n    {", i ? "," : "");
            json_where(ws->u, ws->site);
            printf(", \"object\": ");
            pm_json_str(stdout, pi_unit_str(ws->u, s->region));
            printf(", \"access\": \"%s\", \"accesses\": %llu, \"words\": %llu}",
                   access_str(s->arg, 1), (unsigned long long)ws->accesses,
                   (unsigned long long)ws->words);
        }
        printf("%s]", iv->nwsites ? "\n  " : "");
    }
}

/* ---------------------------------------------------------------------- */
/* CSV                                                                       */
/* ---------------------------------------------------------------------- */

static void csv_cnode(const struct ind_views *iv, size_t id, const char *callee, const char *root,
                      int depth)
{
    const struct cnode *n = &iv->nodes[id];
    printf("%d,", depth);
    pm_csv_str(stdout, n->name);
    putchar(',');
    pm_csv_str(stdout, callee);
    printf(",%llu,", (unsigned long long)n->count);
    pm_csv_str(stdout, root);
    putchar('\n');
    for (size_t i = 0; i < n->nkids; i++)
        csv_cnode(iv, n->kids[i], n->name, root, depth + 1);
}

void rind_csv(const struct report *r)
{
    const struct ind_views *iv = r->iv;
    if (r->by == BY_INDICATORS) {
        printf("hits,execs,kind,unit,site,function,file,line,threshold,threshold_from,"
               "cycles_mean,cycles_min,cycles_max\n");
        for (size_t i = 0; i < iv->ninds; i++) {
            const struct ind_row *x = &iv->inds[i];
            const struct pi_site *s = &x->u->sites[x->st.site];
            printf("%llu,%llu,%s,0x%016llx,%u,", (unsigned long long)x->st.count,
                   (unsigned long long)x->st.execs, pi_trace_stat_kind_name(x->st.kind),
                   (unsigned long long)x->u->hdr.unit_id, x->st.site);
            pm_csv_str(stdout, func_name(x->u, s->func));
            putchar(',');
            pm_csv_str(stdout, pm_unit_file(x->u, s->file));
            printf(",%u,", s->line);
            struct thr t = threshold_of(s, x->st.kind);
            if (t.has)
                printf("%llu,%s", (unsigned long long)t.value,
                       t.from_code ? "default code table" : "directive");
            else
                putchar(',');
            if (has_cycles(x->st.kind))
                printf(",%llu,%llu,%llu\n",
                       (unsigned long long)(x->st.execs ? x->st.sum / x->st.execs : 0),
                       (unsigned long long)x->st.min, (unsigned long long)x->st.max);
            else
                printf(",,,\n");
        }
    } else if (r->by == BY_CALLERS) {
        printf("depth,caller,callee,count,root\n");
        for (size_t i = 0; i < iv->nroots; i++) {
            const struct cnode *n = &iv->nodes[iv->roots[i]];
            for (size_t k = 0; k < n->nkids; k++)
                csv_cnode(iv, n->kids[k], n->name, n->name, 1);
        }
    } else if (r->by == BY_REGIONS) {
        /* the named regions, then the ranges added at run time (kind
           "runtime": no unit, function or line; their link-time [lo, hi)) */
        printf("visits,blocks,instructions,approximate,region,unit,function,file,line,sites,kind,lo,hi\n");
        for (size_t i = 0; i < iv->nregions; i++) {
            const struct region_row *g = &iv->regions[i];
            printf("%llu,%llu,", (unsigned long long)g->visits, (unsigned long long)g->blocks);
            put_qty(stdout, g->insns);
            printf(",%d,", g->approx);
            pm_csv_str(stdout, g->name);
            printf(",0x%016llx,", (unsigned long long)g->u->hdr.unit_id);
            pm_csv_str(stdout, func_name(g->u, g->func));
            putchar(',');
            pm_csv_str(stdout, g->file ? g->file : "");
            printf(",%u,%u,directive,,\n", g->line, g->nsites);
        }
        rranges_csv(r);
    } else if (r->by == BY_TRACE) {
        /* one row per (trace region, function), the region's totals repeated */
        printf("start_unit,start_site,start_function,start_file,start_line,intervals,cycles,"
               "blocks,instructions,approximate,unit,function,entries,function_blocks\n");
        for (size_t i = 0; i < iv->ntregs; i++) {
            const struct treg_row *t = &iv->tregs[i];
            const struct pi_site *s = &t->u->sites[t->site];
            for (size_t k = 0; k < (t->nfuncs ? t->nfuncs : 1); k++) {
                printf("0x%016llx,%u,", (unsigned long long)t->u->hdr.unit_id, t->site);
                pm_csv_str(stdout, func_name(t->u, s->func));
                putchar(',');
                pm_csv_str(stdout, pm_unit_file(t->u, s->file));
                printf(",%u,%llu,%llu,%llu,", s->line,
                       (unsigned long long)(t->has_stat ? t->st.count : 0),
                       (unsigned long long)(t->has_stat ? t->st.sum : 0),
                       (unsigned long long)t->blocks);
                put_qty(stdout, t->insns);
                printf(",%d,", t->approx);
                if (!t->nfuncs) {
                    printf(",,,\n");
                    continue;
                }
                const struct treg_func *f = &t->funcs[k];
                printf("0x%016llx,", (unsigned long long)f->u->hdr.unit_id);
                pm_csv_str(stdout, func_name(f->u, f->func));
                putchar(',');
                if (f->has_entry)
                    printf("%llu", (unsigned long long)f->entries);
                printf(",%llu\n", (unsigned long long)f->blocks);
            }
        }
    } else if (r->by == BY_TYPES) {
        /* one row per site of a types(...) function; a column per type,
         * empty for types the function did not ask for */
        printf("unit,function,site,file,line,count,ranges,insns");
        for (unsigned t = 0; t < PI_NTYPES; t++)
            printf(",%s", pi_itype_name(t));
        putchar('\n');
        for (size_t i = 0; i < iv->ntypes; i++) {
            const struct types_fn *tf = &iv->types[i];
            for (size_t k = 0; k < tf->nsites; k++) {
                const struct types_site *ts = &tf->sites[k];
                const struct pi_site *s = &tf->u->sites[ts->site];
                printf("0x%016llx,", (unsigned long long)tf->u->hdr.unit_id);
                pm_csv_str(stdout, func_name(tf->u, tf->func));
                printf(",%u,", ts->site);
                pm_csv_str(stdout, pm_unit_file(tf->u, s->file));
                printf(",%u,%llu,%u,", s->line, (unsigned long long)ts->count, ts->nranges);
                put_qty(stdout, ts->insns * ts->count);
                for (unsigned t = 0; t < PI_NTYPES; t++) {
                    putchar(',');
                    if (tf->mask & (1u << t))
                        put_qty(stdout, ts->stat[t] * ts->count);
                }
                putchar('\n');
            }
        }
    } else if (r->by == BY_WATCH) {
        printf("object,kind,address,address_is,reads,writes\n");
        for (size_t i = 0; i < r->ir.nwwords; i++) {
            const struct wword *w = &r->ir.wwords[i];
            pm_csv_str(stdout, w->name);
            printf(",%s,0x%llx,%s,%llu,%llu\n",
                   w->is_var ? "variable" : w->cls == W_PROG ? "unknown" : "heap/stack",
                   (unsigned long long)w->addr, waddr_kind(w), (unsigned long long)w->reads,
                   (unsigned long long)w->writes);
        }
    } else if (r->by == BY_WATCH_SITES) {
        printf("accesses,words,object,access,unit,site,function,file,line\n");
        for (size_t i = 0; i < iv->nwsites; i++) {
            const struct wsite *ws = &iv->wsites[i];
            const struct pi_site *s = &ws->u->sites[ws->site];
            printf("%llu,%llu,", (unsigned long long)ws->accesses, (unsigned long long)ws->words);
            pm_csv_str(stdout, pi_unit_str(ws->u, s->region));
            printf(",%s,0x%016llx,%u,", access_str(s->arg, 1), (unsigned long long)ws->u->hdr.unit_id,
                   ws->site);
            pm_csv_str(stdout, func_name(ws->u, s->func));
            putchar(',');
            pm_csv_str(stdout, pm_unit_file(ws->u, s->file));
            printf(",%u\n", s->line);
        }
    }
}

void rind_free(struct report *r)
{
    struct ind_views *iv = r->iv;
    if (!iv)
        return;
    free(iv->inds);
    free(iv->regions);
    for (size_t i = 0; i < iv->ntregs; i++)
        free(iv->tregs[i].funcs);
    free(iv->tregs);
    for (size_t i = 0; i < iv->ntypes; i++)
        free(iv->types[i].sites);
    free(iv->types);
    for (size_t i = 0; i < iv->nnodes; i++)
        free(iv->nodes[i].kids);
    free(iv->nodes);
    free(iv->roots);
    for (size_t i = 0; i < iv->wnamed; i++) {
        free(r->ir.wwords[i].name);
        r->ir.wwords[i].name = NULL;
    }
    free(iv->wsites);
    free(iv);
    r->iv = NULL;
}

/* The callers' tree, depth first, for other writers (report-html.c). */
static void walk_cnode(const struct ind_views *iv, size_t id, int depth,
                       void (*visit)(void *, int, const char *, uint64_t), void *ctx)
{
    const struct cnode *n = &iv->nodes[id];
    visit(ctx, depth, n->name, n->count);
    for (size_t i = 0; i < n->nkids; i++)
        walk_cnode(iv, n->kids[i], depth + 1, visit, ctx);
}

uint64_t rind_callers_walk(const struct report *r, void (*visit)(void *, int, const char *, uint64_t),
                           void *ctx)
{
    const struct ind_views *iv = r->iv;
    for (size_t i = 0; iv && i < iv->nroots; i++)
        walk_cnode(iv, iv->roots[i], 0, visit, ctx);
    return iv ? iv->nevents : 0;
}
