/* ctr-order.cc — a function's counters numbered hottest first
 * (counter-order=hot, the default; docs/design.md, "Counter order").
 *
 * The count pass numbers a function's counters in the order it makes
 * them: the blocks', then the arcs' off the spanning tree, in block
 * order.  So the few counters a run updates all the time (those of a
 * loop's blocks, of the path every call takes) lie among many that
 * rarely run, and each hot counter holds a 64-byte line of the L1 data
 * cache of its own (gawk's field loop: 439 hot counters on 194 lines).
 * Right after count-at=late instrumented a function, where GCC's
 * estimated profile is already there (profile_estimate ran), its counters
 * are renumbered by the estimated frequency of the block holding their
 * update, highest first (ties: in the old order):
 *
 *     bb 3 (freq 0.1):  __perfinst_ctr[7] += 1        __perfinst_ctr[9] += 1
 *     bb 4 (freq 10):   __perfinst_ctr[8] += 1   →    __perfinst_ctr[7] += 1
 *     bb 5 (freq 1):    __perfinst_ctr[9] += 1        __perfinst_ctr[8] += 1
 *
 * and the sites' and arcs' counter numbers with them, so that the
 * metadata still maps each counter to its block or arc exactly and no
 * reader changes.  Only plain counting functions are renumbered (every
 * site counted alone, 64-bit counters; the body refers to the counters
 * only as __perfinst_ctr[CONSTANT]): at this point a body holds only its
 * own counters and those of functions counted at `cfg` and inlined early,
 * which keep their numbers.  The code is the same but for the constants.
 */
#include "plugin.h"
#include "sreal.h"
#include "gimple-walk.h"

struct ctr_walk {
    tree ctr;            /* __perfinst_ctr */
    unsigned c0, n;      /* the function's counters */
    sreal *weight;       /* per counter (check), or NULL (rewrite) */
    const unsigned *map; /* rewrite: the new numbers */
    sreal freq;          /* the statement's block's */
    bool bad;            /* a reference other than __perfinst_ctr[CONSTANT] */
};

static tree visit(tree *tp, int *walk_subtrees, void *data)
{
    ctr_walk *w = (ctr_walk *)((walk_stmt_info *)data)->info;
    tree t = *tp;
    if (TREE_CODE(t) == ARRAY_REF && TREE_OPERAND(t, 0) == w->ctr) {
        *walk_subtrees = 0;
        tree i = TREE_OPERAND(t, 1);
        if (TREE_CODE(i) != INTEGER_CST || !tree_fits_uhwi_p(i)) {
            w->bad = true;
            return NULL_TREE;
        }
        unsigned HOST_WIDE_INT k = tree_to_uhwi(i);
        if (k < w->c0 || k - w->c0 >= w->n)
            return NULL_TREE; /* a counter of an early-counted function inlined here */
        if (w->weight) {
            if (w->weight[k - w->c0] < w->freq)
                w->weight[k - w->c0] = w->freq;
        } else {
            tree r = pi_counter_ref(w->map[k - w->c0]);
            TREE_THIS_VOLATILE(r) = TREE_THIS_VOLATILE(t);
            *tp = r;
        }
        return NULL_TREE;
    }
    if (t == w->ctr)
        w->bad = true;
    if (TYPE_P(t))
        *walk_subtrees = 0;
    return NULL_TREE;
}

/* Walk every statement of FUN with W; false if a reference is not one
 * ctr_walk can renumber. */
static bool walk_body(function *fun, ctr_walk *w)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        bool known = false;
        w->freq = bb->count.to_sreal_scale(ENTRY_BLOCK_PTR_FOR_FN(fun)->count, &known);
        if (!known)
            w->freq = 0;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (is_gimple_debug(g))
                continue;
            walk_stmt_info wi;
            memset(&wi, 0, sizeof wi);
            wi.info = w;
            walk_gimple_op(g, visit, &wi);
            if (w->bad)
                return false;
        }
    }
    return true;
}

static const sreal *sort_weight;
static int hotter(const void *a, const void *b)
{
    unsigned i = *(const unsigned *)a, j = *(const unsigned *)b;
    if (sort_weight[i] != sort_weight[j])
        return sort_weight[j] < sort_weight[i] ? -1 : 1;
    return i < j ? -1 : i > j;
}

void pi_order_counters(function *fun, unsigned c0, unsigned first_site, unsigned first_arc)
{
    tree ctr = pi_counter_decl();
    unsigned n = pi_unit_ncounters() - c0;
    if (pi_opt.counter_order_site || !ctr || n < 2 || !pi_unit_sites_plain(first_site))
        return;
    auto_vec<sreal> weight;
    weight.safe_grow_cleared(n);
    ctr_walk w;
    w.map = NULL;
    w.bad = false;
    w.ctr = ctr;
    w.c0 = c0;
    w.n = n;
    w.weight = weight.address();
    if (!walk_body(fun, &w))
        return;
    /* hottest first; equal weights keep their order */
    auto_vec<unsigned> order;
    for (unsigned i = 0; i < n; i++)
        order.safe_push(i);
    sort_weight = weight.address();
    order.qsort(hotter);
    auto_vec<unsigned> map;
    map.safe_grow(n);
    bool same = true;
    for (unsigned r = 0; r < n; r++) {
        map[order[r]] = c0 + r;
        same &= order[r] == r;
    }
    if (same)
        return;
    w.weight = NULL;
    w.map = map.address();
    walk_body(fun, &w);
    pi_unit_renumber_counters(first_site, first_arc, c0, n, map.address());
}
