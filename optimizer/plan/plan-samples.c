/* plan-samples.c — `pmopt plan --hot --samples`: rank PROG's functions by
 * sampled time instead of block executions (issue 3's "a timer sampler
 * feeding plan --hot"; docs/sampling-stacks.md).
 *
 * A run with PERFINST_SAMPLE (counting may be off: PERFINST_MODE=off costs
 * one branch per call) gives stacks; the calling-context tree (stacks.c)
 * gives each function's self time (timer periods whose innermost frame is
 * in it) and inclusive time (periods with it anywhere on the stack, once
 * per sample even when it recurses).  PROG's instrumented functions are
 * matched by name (and, for a name several units define, by declaration
 * file); each row's `blocks` becomes its self periods, and the rows are
 * sorted by self, then inclusive periods, then name, so cmd-plan.c chooses
 * the shortest prefix holding PCT percent of the sampled self time in
 * PROG's instrumented functions.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "stacks.h"

struct fsum {
    const char *name, *file;  /* interned by stacks.c */
    uint64_t self, incl;
};

static struct fsum *sums;
static size_t nsums, capsums;

static struct fsum *sum_of(const char *name, const char *file)
{
    for (size_t i = 0; i < nsums; i++)
        if (sums[i].name == name && sums[i].file == file)
            return &sums[i];
    if (nsums == capsums) {
        size_t cap = capsums ? 2 * capsums : 256;
        struct fsum *n = realloc(sums, cap * sizeof *n);
        if (!n)
            return NULL;
        sums = n;
        capsums = cap;
    }
    sums[nsums] = (struct fsum){name, file, 0, 0};
    return &sums[nsums++];
}

/* Walk the tree: self at each node, inclusive once per path. */
static int walk(const struct stk_tree *t, uint32_t n)
{
    const struct stk_node *nd = &t->nodes[n];
    if (n) {
        struct fsum *s = sum_of(nd->name, nd->file);
        if (!s)
            return -1;
        s->self += nd->self[STK_SAMPLED];
        int outer = 1; /* the outermost occurrence on this path counts the inclusive time */
        for (uint32_t a = nd->parent; a; a = t->nodes[a].parent)
            if (t->nodes[a].name == nd->name) {
                outer = 0;
                break;
            }
        if (outer)
            s->incl += nd->total[STK_SAMPLED];
    }
    for (uint32_t c = nd->first_child; c; c = t->nodes[c].next_sibling)
        if (walk(t, c))
            return -1;
    return 0;
}

struct ranked {
    struct func_row row;
    uint64_t incl;
};

static int cmp_rows(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    PI_CMP_RET(y->row.blocks, x->row.blocks);
    PI_CMP_RET(y->incl, x->incl);
    int c = strcmp(x->row.name, y->row.name);
    if (c || (c = strcmp(x->row.key, y->row.key)))
        return c;
    PI_CMP_RET(x->row.u->hdr.unit_id, y->row.u->hdr.unit_id);
    return x->row.func < y->row.func ? -1 : x->row.func > y->row.func;
}

int plan_rank_by_samples(struct model *md, char **traces, uint64_t *sampled_total)
{
    struct stk_tree t;
    int rc = -1;
    if (stk_load(&t, md->prog, traces, md->ntraces))
        goto out;
    if (!t.have[STK_SAMPLED]) {
        pm_error("the traces have no timer samples (run %s with PERFINST_SAMPLE=cpu:1ms)", md->prog);
        goto out;
    }
    if (walk(&t, 0)) {
        rep_oom();
        goto out;
    }
    size_t n = md->nfuncs;
    struct ranked *rk = calloc(n ? n : 1, sizeof *rk);
    if (!rk) {
        rep_oom();
        goto out;
    }
    *sampled_total = t.nodes[0].total[STK_SAMPLED];
    for (size_t i = 0; i < n; i++) {
        struct func_row *row = &md->funcs[i];
        const char *name = row->name, *file = row->file; /* the stacks' names are names.h's too */
        int named = 0;
        for (size_t k = 0; k < nsums; k++)
            named += !strcmp(sums[k].name, name);
        rk[i].row = *row;
        rk[i].row.blocks = 0;
        for (size_t k = 0; k < nsums; k++)
            if (!strcmp(sums[k].name, name) &&
                (named == 1 || !*sums[k].file ||
                 !strcmp(pm_basename(sums[k].file), pm_basename(file)))) {
                rk[i].row.blocks += sums[k].self;
                rk[i].incl += sums[k].incl;
            }
    }
    qsort(rk, n, sizeof *rk, cmp_rows);
    for (size_t i = 0; i < n; i++)
        md->funcs[i] = rk[i].row;
    free(rk);
    rc = 0;
out:
    stk_free(&t);
    free(sums);
    sums = NULL;
    nsums = capsums = 0;
    return rc;
}
