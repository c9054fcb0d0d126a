/* pmopt export --callgrind OUT [PROG] TRACE... — the callgrind format
 * (valgrind.org/docs/manual/cl-format.html), read by KCachegrind,
 * QCachegrind and callgrind_annotate.
 *
 * Events, those the input has:
 *   Blocks    block executions (exact): each counted block site's count
 *             at its line in its function
 *   Samples   timer samples (PERFINST_SAMPLE) in timer periods, at the
 *             line of the sampled address
 *   ToIdle, FromIdle  idle-transition samples (PERFINST_IDLE)
 * Positions are source lines; functions are named as pmopt shows them
 * (demangled), in their source file (absolute where it can be found, for
 * KCachegrind's source view); a line in another file than its function's
 * (an inline function of a header) is under fi=.
 *
 * Calls: a call site with its callee (pf_call_arcs: the calling block's
 * count) is calls=COUNT at the call's line; the callers of stack samples
 * (a frame's return address, looked up one byte back) are calls too, at
 * their line, merged with the counted call at that line.  A call's
 * inclusive cost:
 *   Samples  the samples whose stack holds the call (once per sample:
 *            recursion is not counted twice): exact for the samples;
 *   Blocks   the callee's inclusive block executions shared among its
 *            call sites by their counts (what gprof does): exact when a
 *            function is called from one place, or its calls all cost
 *            the same; the share of calls no count saw (main's, from
 *            libc) goes to the calls the samples saw, by their samples.
 *            A call back into a function that is still running (recursion)
 *            adds nothing.
 *   calls=   the call's count; for a call only samples saw, the number of
 *            samples through it (no count exists).
 * So a function's inclusive cost (callgrind_annotate --inclusive=yes, the
 * sum of the calls into it) is its own cost plus its callees'.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "export.h"

enum { E_BLOCKS, E_SAMPLES, E_TO, E_FROM, NE };
static const char *const event_names[NE] = { "Blocks", "Samples", "ToIdle", "FromIdle" };

struct cg_fn {
    const char *name, *file;       /* file: as opened (exp_open_path) */
    uint64_t entries;              /* from the counts; 0: unknown */
    uint64_t self_blocks, incl_blocks;
    int state;                     /* inclusive blocks: 0 not yet, 1 running, 2 done */
};

struct cg_cost {                   /* a cost at a line, or a call's */
    uint32_t fn, callee;           /* callee: fn + 1 for a call, 0 for a line */
    const char *file;              /* the line's file */
    uint32_t line;
    uint64_t calls, sampled_calls; /* counted calls; samples through it */
    uint64_t c[NE];
};

struct cg {
    struct exp_in *in;
    struct cg_fn *fns;
    size_t nfns, capfns;
    struct cg_cost *costs;
    size_t ncosts, capcosts;
    struct exp_tab fntab, fileids, costtab, ids;
    uint32_t nids[2];              /* names compressed: files, functions */
    int have[NE];
    int oom;
};

static uint32_t cg_fn(struct cg *g, const char *name, const char *file)
{
    name = pm_intern(name);
    file = exp_open_path(file);
    uint32_t *id = exp_tab_slot(&g->fntab, (uintptr_t)name, (uintptr_t)file);
    if (!id || (!*id && pi_grow((void **)&g->fns, &g->capfns, g->nfns, sizeof *g->fns))) {
        g->oom = 1;
        return 0;
    }
    if (!*id) {
        g->fns[g->nfns] = (struct cg_fn){ .name = name, .file = file };
        *id = (uint32_t)++g->nfns;
    }
    return *id - 1;
}

/* The cost of fn at file:line (callee + 1 for a call to callee; 0 for the line's own). */
static struct cg_cost *cg_cost(struct cg *g, uint32_t fn, uint32_t callee, const char *file,
                               uint32_t line)
{
    file = exp_open_path(file);
    uint32_t *fid = exp_tab_slot(&g->fileids, (uintptr_t)file, 0);
    if (fid && !*fid)
        *fid = (uint32_t)g->fileids.n;
    uint32_t *id = fid ? exp_tab_slot(&g->costtab, (uint64_t)fn << 32 | callee,
                                      (uint64_t)*fid << 32 | line) : NULL;
    if (!id || (!*id && pi_grow((void **)&g->costs, &g->capcosts, g->ncosts, sizeof *g->costs))) {
        g->oom = 1;
        return NULL;
    }
    if (!*id) {
        g->costs[g->ncosts] = (struct cg_cost){ .fn = fn, .callee = callee, .file = file, .line = line };
        *id = (uint32_t)++g->ncosts;
    }
    return &g->costs[*id - 1];
}

/* ---- the counts ------------------------------------------------------------------ */

static void cg_counts(struct cg *g)
{
    const struct model *md = &g->in->md;
    g->have[E_BLOCKS] = 1;
    for (size_t i = 0; i < md->nfuncs; i++) {
        const struct func_row *row = &md->funcs[i];
        if (row->uninstrumented)
            continue;
        uint32_t f = cg_fn(g, row->name, row->file);
        if (!g->oom && row->has_entry)
            g->fns[f].entries += row->entries;
    }
    for (size_t i = 0; i < md->nsites; i++) {
        const struct site_row *row = &md->sites[i];
        if (!row->count)
            continue;
        const struct pi_site *st = &row->u->sites[row->site];
        uint32_t f = cg_fn(g, row->func, pm_func_file(row->u, st->func));
        struct cg_cost *c = g->oom ? NULL : cg_cost(g, f, 0, row->file, row->line);
        if (!c)
            return;
        c->c[E_BLOCKS] += row->count;
        g->fns[f].self_blocks += row->count;
    }
    for (size_t i = 0; i < g->in->narcs; i++) {
        const struct call_arc *a = &g->in->arcs[i];
        if (!a->count || !*a->callee)
            continue;
        const struct pi_site *st = &a->u->sites[a->site];
        uint32_t f = cg_fn(g, pm_func_name(a->u, a->caller), pm_func_file(a->u, a->caller));
        const struct func_row *cr = exp_func_by_key(g->in, pm_fn_key(a->callee));
        uint32_t callee = cr && !cr->uninstrumented ? cg_fn(g, cr->name, cr->file)
                                                    : cg_fn(g, pm_fn_name(a->callee), "");
        struct cg_cost *c = g->oom ? NULL : cg_cost(g, f, callee + 1, pm_unit_file(a->u, st->file),
                                                    st->line);
        if (!c)
            return;
        c->calls += a->count;
    }
}

/* ---- the stack samples --------------------------------------------------------------- */

static void cg_samples(struct cg *g)
{
    struct stk_tree *t = &g->in->t;
    uint32_t seen[PI_SAMPLE_MAX_FRAMES];
    for (size_t i = 0; i < t->ss.n && !g->oom; i++) {
        const struct pi_sample *s = &t->ss.s[i];
        int e = E_SAMPLES + stk_kind(s); /* E_SAMPLES, E_TO, E_FROM */
        uint64_t w = e == E_SAMPLES ? s->weight : 1;
        g->have[e] = 1;
        uint32_t callee = 0, nseen = 0;
        for (uint32_t j = 0; j < s->nframes && j < PI_SAMPLE_MAX_FRAMES && !g->oom; j++) {
            struct stk_frame fr;
            stk_frame(t, &s->frames[j], j == 0, &fr);
            uint32_t f = cg_fn(g, fr.name, fr.file);
            struct cg_cost *c = g->oom ? NULL : cg_cost(g, f, j ? callee + 1 : 0, fr.src, fr.src_line);
            if (!c)
                return;
            callee = f;
            uint32_t id = (uint32_t)(c - g->costs), k = 0;
            while (k < nseen && seen[k] != id)
                k++;
            if (k < nseen)
                continue; /* this call is in the stack already (recursion) */
            seen[nseen++] = id;
            c->c[e] += w;
            if (j)
                c->sampled_calls++;
        }
    }
}

/* ---- inclusive block executions --------------------------------------------------------- */

static uint64_t share(uint64_t v, uint64_t part, uint64_t whole)
{
    return whole ? (uint64_t)((unsigned __int128)v * part / whole) : 0;
}

/* calls into each function (sorted by callee): idx[first[f] .. first[f+1]) */
static uint64_t incl_blocks(struct cg *g, uint32_t f, const uint32_t *out, const size_t *ofirst)
{
    struct cg_fn *fn = &g->fns[f];
    if (fn->state == 1)
        return 0; /* recursion: still running */
    if (fn->state == 2)
        return fn->incl_blocks;
    fn->state = 1;
    uint64_t incl = fn->self_blocks;
    for (size_t k = ofirst[f]; k < ofirst[f + 1]; k++) {
        struct cg_cost *c = &g->costs[out[k]];
        if (!c->calls)
            continue;
        uint32_t callee = c->callee - 1;
        uint64_t ci = incl_blocks(g, callee, out, ofirst);
        /* the callee's entries; unknown (not instrumented): its callers' counts */
        uint64_t entries = g->fns[callee].entries ? g->fns[callee].entries : c->calls;
        c->c[E_BLOCKS] = share(ci, c->calls, entries > c->calls ? entries : c->calls);
        incl += c->c[E_BLOCKS];
    }
    fn->incl_blocks = incl;
    fn->state = 2;
    return incl;
}

static int by_caller(const void *a, const void *b, void *ctx)
{
    const struct cg_cost *c = ctx;
    const struct cg_cost *x = &c[*(const uint32_t *)a], *y = &c[*(const uint32_t *)b];
    PI_CMP_RET(x->fn, y->fn);
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int cg_inclusive(struct cg *g)
{
    uint32_t *out = malloc((g->ncosts + 1) * sizeof *out);
    size_t *ofirst = calloc(g->nfns + 1, sizeof *ofirst);
    uint64_t *counted = calloc(g->nfns + 1, sizeof *counted), *sampled = calloc(g->nfns + 1, sizeof *sampled);
    if (!out || !ofirst || !counted || !sampled) {
        free(out), free(ofirst), free(counted), free(sampled);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < g->ncosts; i++)
        if (g->costs[i].callee) {
            out[n++] = (uint32_t)i;
            ofirst[g->costs[i].fn + 1]++;
        }
    for (size_t f = 0; f < g->nfns; f++)
        ofirst[f + 1] += ofirst[f];
    qsort_r(out, n, sizeof *out, by_caller, g->costs);
    for (uint32_t f = 0; f < g->nfns; f++)
        incl_blocks(g, f, out, ofirst);
    /* the share of calls no count saw: to the calls only samples saw, by their samples */
    for (size_t k = 0; k < n; k++) {
        const struct cg_cost *c = &g->costs[out[k]];
        counted[c->callee - 1] += c->c[E_BLOCKS];
        if (!c->calls)
            sampled[c->callee - 1] += c->c[E_SAMPLES] + c->c[E_TO] + c->c[E_FROM];
    }
    for (size_t k = 0; k < n; k++) {
        struct cg_cost *c = &g->costs[out[k]];
        uint32_t f = c->callee - 1;
        if (c->calls || !sampled[f] || g->fns[f].incl_blocks <= counted[f])
            continue;
        c->c[E_BLOCKS] = share(g->fns[f].incl_blocks - counted[f],
                               c->c[E_SAMPLES] + c->c[E_TO] + c->c[E_FROM], sampled[f]);
    }
    free(out), free(ofirst), free(counted), free(sampled);
    return 0;
}

/* ---- the file ------------------------------------------------------------------------------- */

static int by_position(const void *a, const void *b, void *ctx)
{
    const struct cg_cost *c = ctx;
    const struct cg_cost *x = &c[*(const uint32_t *)a], *y = &c[*(const uint32_t *)b];
    PI_CMP_RET(x->fn, y->fn);
    if (x->file != y->file) /* the function's own file first */
        return x->file == NULL ? -1 : strcmp(x->file, y->file);
    PI_CMP_RET(x->line, y->line);
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* "(id) name" the first time, "(id)" after (name compression) */
static void cg_name(struct cg *g, FILE *f, const char *key, int space, const char *name)
{
    uint32_t *id = exp_tab_slot(&g->ids, (uintptr_t)name, (uint64_t)space);
    if (!id) {
        g->oom = 1;
        fprintf(f, "%s\n", name);
        return;
    }
    if (*id) {
        fprintf(f, "%s=(%u)\n", key, *id);
        return;
    }
    *id = ++g->nids[space];
    fprintf(f, "%s=(%u) %s\n", key, *id, *name ? name : "???");
}

static void cg_costs(FILE *f, const struct cg *g, const uint64_t *c)
{
    for (int e = 0; e < NE; e++)
        if (g->have[e])
            fprintf(f, " %llu", (unsigned long long)c[e]);
    fputc('\n', f);
}

static void cg_write(struct cg *g, FILE *f)
{
    fprintf(f, "# callgrind format\nversion: 1\ncreator: pmopt export (perfinst %s)\n",
            PERFINST_VERSION);
    fprintf(f, "cmd: %s\npositions: line\nevents:", g->in->prog ? g->in->prog : g->in->traces[0]);
    for (int e = 0; e < NE; e++)
        if (g->have[e])
            fprintf(f, " %s", event_names[e]);
    uint64_t tot[NE] = {0};
    for (size_t i = 0; i < g->ncosts; i++)
        for (int e = 0; e < NE && !g->costs[i].callee; e++)
            tot[e] += g->costs[i].c[e];
    fputs("\nsummary:", f);
    cg_costs(f, g, tot);
    uint32_t *ix = malloc((g->ncosts + 1) * sizeof *ix);
    if (!ix) {
        g->oom = 1;
        return;
    }
    for (size_t i = 0; i < g->ncosts; i++)
        ix[i] = (uint32_t)i;
    qsort_r(ix, g->ncosts, sizeof *ix, by_position, g->costs);
    uint32_t fn = UINT32_MAX;
    const char *file = NULL;
    for (size_t i = 0; i < g->ncosts; i++) {
        const struct cg_cost *c = &g->costs[ix[i]];
        const struct cg_fn *cf = &g->fns[c->fn];
        if (c->fn != fn) {
            fputc('\n', f);
            cg_name(g, f, "fl", 0, cf->file);
            cg_name(g, f, "fn", 1, cf->name);
            fn = c->fn;
            file = cf->file;
        }
        if (c->file != file) {
            cg_name(g, f, "fi", 0, c->file);
            file = c->file;
        }
        if (c->callee) {
            const struct cg_fn *ce = &g->fns[c->callee - 1];
            cg_name(g, f, "cfi", 0, ce->file);
            cg_name(g, f, "cfn", 1, ce->name);
            fprintf(f, "calls=%llu 0\n",
                    (unsigned long long)(c->calls ? c->calls : c->sampled_calls));
        }
        fprintf(f, "%u", c->line);
        cg_costs(f, g, c->c);
    }
    fprintf(f, "\ntotals:");
    cg_costs(f, g, tot);
    free(ix);
}

int export_callgrind(struct exp_in *in, const char *out)
{
    struct cg g;
    memset(&g, 0, sizeof g);
    g.in = in;
    if (in->counts)
        cg_counts(&g);
    cg_samples(&g);
    int rc = 0;
    if (g.oom || cg_inclusive(&g))
        rc = rep_oom();
    FILE *f = rc ? NULL : pm_create(out);
    if (f) {
        cg_write(&g, f);
        if (fclose(f)) {
            pm_error("%s: %m", out);
            rc = -1;
        } else if (g.oom) {
            rc = rep_oom();
        }
    } else if (!rc) {
        rc = -1;
    }
    free(g.fns);
    free(g.costs);
    exp_tab_free(&g.fntab);
    exp_tab_free(&g.costtab);
    exp_tab_free(&g.fileids);
    exp_tab_free(&g.ids);
    return rc;
}
