/* pass-blockorder.cc — the rebuild loop's block order: Ext-TSP on the
 * training profile's counts, right after GCC's own block reordering
 * ("bbro"), in every function whose branch profile was applied
 * (pass-feedback.cc).  docs/layout.md, "Block order (Ext-TSP)".
 *
 *   gcc -O2 -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=prog.fb \
 *       [-fplugin-arg-perfinst-block-order=exttsp|gcc] -c x.c
 *
 *     bbro's order (counts)              after (Ext-TSP)
 *     A   1000  -> B 990, E 10           A   1000
 *     E     10  (between hot blocks)     B    990   (A falls through to B)
 *     B    990  -> C 990                 C    990
 *     C    990                           E     10   (after the hot chain)
 *
 * GCC's bb-reorder (STC, software trace cache) chains the most frequent
 * successor as the fall-through and sorts traces in rounds by frequency,
 * but does not weigh distances: in a big function (SQLite's
 * sqlite3VdbeExec) blocks that run rarely stay between hot ones.  This pass
 * recomputes the order of the blocks of the hot partition with the Ext-TSP
 * objective (Newell & Pupyrev, "Improved Basic Block Reordering", 2020;
 * the objective BOLT's -reorder-blocks=ext-tsp maximizes):
 *
 *   score = sum over edges s->t of count(s->t) *
 *           1.0                          t starts where s ends (fall-through)
 *           0.1 * (1 - d / 1024)         forward jump of d bytes, d < 1024
 *           0.1 * (1 - d / 640)          backward jump of d bytes, d < 640
 *
 * by greedy chain merging: every executed block starts as a chain; the
 * pair of chains (joined by an edge) whose merge gains the most is merged,
 * as X·Y, Y·X or X1·Y·X2 (Y inserted into X at a block boundary, X short),
 * until no merge gains; the chain of the entry block goes first, the others
 * by decreasing density (count per byte), then the blocks of the hot
 * partition that never ran, then the cold partition: its blocks that ran
 * (split=3's warm blocks, pass-coldsplit.cc) first, then the others, each
 * group in bbro's order.  Block
 * sizes are the insns' lengths (get_attr_length), edge counts those GCC
 * carried from the profile (bb->count, e->probability).  The new order is
 * kept only if its score is higher than bbro's (the cold part's order always).
 *
 * Partitions are left as they are: the pass only permutes blocks inside
 * each partition, so the one switch from hot to cold text stays.  GCC does
 * not re-enter cfglayout mode after bbro in a partitioned function (an
 * assertion guards fixups that could move blocks across partitions); the
 * pass clears crtl->bb_reorder_complete around the reordering and does no
 * CFG cleanup (CLEANUP_NO_PARTITIONING), as bbro's own finalization does.
 *
 * -fplugin-arg-perfinst-block-order=gcc turns the pass off (bbro's order
 * stays); with -fplugin-arg-perfinst-verbose a note per function says the
 * scores. */
#include "plugin.h"
#include "cfgrtl.h"
#include "df.h"

#define FALL_W 1.0
#define FWD_W 0.1
#define BWD_W 0.1
#define FWD_DIST 1024.0
#define BWD_DIST 640.0
#define SPLIT_MAX 128 /* X1·Y·X2 is tried when X has at most this many blocks */

struct bo_edge {
    int src, dst; /* node indices */
    double w;
};

struct bo {
    int n;                 /* nodes: the executed blocks of the hot partition */
    basic_block *bb;       /* node -> block */
    uint64_t *size;        /* node -> bytes */
    double *cnt;           /* node -> count */
    vec<bo_edge> edges;
    int *of;               /* node -> chain */
    vec<int> *blocks;      /* chain -> its nodes in order */
    vec<int> *cedges;      /* chain -> edges touching it (each once) */
    uint64_t *off;         /* node -> offset in its chain */
    uint64_t *csize;       /* chain -> bytes */
    uint64_t *pos;         /* node -> offset, scratch */
    int *mark;             /* chain -> stamp, scratch */
};

static double edge_score(uint64_t s_pos, uint64_t s_size, uint64_t d_pos, double w)
{
    uint64_t s_end = s_pos + s_size;
    if (d_pos == s_end)
        return w * FALL_W;
    if (d_pos > s_end) {
        double d = (double)(d_pos - s_end);
        return d < FWD_DIST ? w * FWD_W * (1.0 - d / FWD_DIST) : 0.0;
    }
    double d = (double)(s_end - d_pos);
    return d < BWD_DIST ? w * BWD_W * (1.0 - d / BWD_DIST) : 0.0;
}

/* A candidate merge: chain a's nodes [0, k), chain b, a's nodes [k, end);
 * k = length of a for a·b. */
struct bo_merge {
    int a, b;
    unsigned k;
    double gain;
};

/* A node's place if chain b is inserted into chain a before a's node k
 * (k = a's length: b after a), K being that node's offset. */
static uint64_t place(const struct bo *o, int v, int a, uint64_t K, uint64_t bsize)
{
    if (o->of[v] == a)
        return o->off[v] < K ? o->off[v] : o->off[v] + bsize;
    return K + o->off[v];
}

/* The best way to merge chains x and y (the entry chain, 0, stays first).
 * Only the edges between the two chains and, when one is split, that
 * chain's own edges change their score: the gain is computed on them. */
static struct bo_merge best_merge(struct bo *o, int x, int y)
{
    struct bo_merge best = {x, y, 0, -1.0};
    /* the edges between x and y, from the shorter list */
    int sc = o->cedges[x].length() <= o->cedges[y].length() ? x : y;
    int oc = sc == x ? y : x;
    auto_vec<int, 16> between;
    for (unsigned i = 0; i < o->cedges[sc].length(); i++) {
        const bo_edge &e = o->edges[o->cedges[sc][i]];
        if (o->of[e.src] == oc || o->of[e.dst] == oc)
            between.safe_push(o->cedges[sc][i]);
    }
    bool have = false;
    for (int side = 0; side < 2; side++) {
        int a = side ? y : x, b = side ? x : y;
        if (b == 0) /* the entry chain is never inserted or appended */
            continue;
        unsigned la = o->blocks[a].length();
        for (unsigned k = la;; k--) {
            uint64_t K = k < la ? o->off[o->blocks[a][k]] : o->csize[a];
            double g = 0;
            for (unsigned i = 0; i < between.length(); i++) {
                const bo_edge &e = o->edges[between[i]];
                g += edge_score(place(o, e.src, a, K, o->csize[b]), o->size[e.src],
                                place(o, e.dst, a, K, o->csize[b]), e.w);
            }
            if (k < la) /* a split: a's own edges move */
                for (unsigned i = 0; i < o->cedges[a].length(); i++) {
                    const bo_edge &e = o->edges[o->cedges[a][i]];
                    if (o->of[e.src] != a || o->of[e.dst] != a)
                        continue;
                    g += edge_score(place(o, e.src, a, K, o->csize[b]), o->size[e.src],
                                    place(o, e.dst, a, K, o->csize[b]), e.w) -
                         edge_score(o->off[e.src], o->size[e.src], o->off[e.dst], e.w);
                }
            if (!have || g > best.gain + 1e-9) {
                best.a = a, best.b = b, best.k = k, best.gain = g;
                have = true;
            }
            if (k == 1 || la > SPLIT_MAX)
                break;
        }
    }
    return best;
}

static void apply_merge(struct bo *o, const struct bo_merge &m)
{
    int a = m.a, b = m.b;
    vec<int> seq = vNULL;
    vec<int> &A = o->blocks[a], &B = o->blocks[b];
    for (unsigned i = 0; i < m.k; i++)
        seq.safe_push(A[i]);
    for (unsigned i = 0; i < B.length(); i++)
        seq.safe_push(B[i]);
    for (unsigned i = m.k; i < A.length(); i++)
        seq.safe_push(A[i]);
    /* b's edges that do not touch a are new to a's list */
    for (unsigned i = 0; i < o->cedges[b].length(); i++) {
        const bo_edge &e = o->edges[o->cedges[b][i]];
        if (o->of[e.src] != a && o->of[e.dst] != a)
            o->cedges[a].safe_push(o->cedges[b][i]);
    }
    for (unsigned i = 0; i < B.length(); i++)
        o->of[B[i]] = a;
    A.release();
    o->blocks[a] = seq;
    o->blocks[b].release();
    o->cedges[b].release();
    uint64_t p = 0;
    for (unsigned i = 0; i < seq.length(); i++)
        o->off[seq[i]] = p, p += o->size[seq[i]];
    o->csize[a] = p;
    o->csize[b] = 0;
}

/* Candidates with every chain joined to c by an edge. */
static void add_candidates(struct bo *o, int c, vec<bo_merge> &cand, int stamp)
{
    o->mark[c] = stamp;
    for (unsigned i = 0; i < o->cedges[c].length(); i++) {
        const bo_edge &e = o->edges[o->cedges[c][i]];
        int other = o->of[e.src] == c ? o->of[e.dst] : o->of[e.src];
        if (o->mark[other] == stamp)
            continue;
        o->mark[other] = stamp;
        struct bo_merge m = best_merge(o, c, other);
        if (m.gain > 1e-9)
            cand.safe_push(m);
    }
}

static void exttsp_chains(struct bo *o)
{
    vec<bo_merge> cand = vNULL;
    int stamp = 0;
    for (int c = 0; c < o->n; c++)
        o->mark[c] = -1;
    /* initial candidates: one per pair joined by an edge, from the lower chain */
    for (int c = 0; c < o->n; c++) {
        stamp++;
        o->mark[c] = stamp;
        for (unsigned i = 0; i < o->cedges[c].length(); i++) {
            const bo_edge &e = o->edges[o->cedges[c][i]];
            int other = e.src == c ? e.dst : e.src;
            if (other < c || o->mark[other] == stamp)
                continue;
            o->mark[other] = stamp;
            struct bo_merge m = best_merge(o, c, other);
            if (m.gain > 1e-9)
                cand.safe_push(m);
        }
    }
    for (;;) {
        int bi = -1;
        for (unsigned i = 0; i < cand.length(); i++)
            if (bi < 0 || cand[i].gain > cand[bi].gain + 1e-9 ||
                (cand[i].gain > cand[bi].gain - 1e-9 &&
                 (MIN(cand[i].a, cand[i].b) < MIN(cand[bi].a, cand[bi].b) ||
                  (MIN(cand[i].a, cand[i].b) == MIN(cand[bi].a, cand[bi].b) &&
                   MAX(cand[i].a, cand[i].b) < MAX(cand[bi].a, cand[bi].b)))))
                bi = (int)i;
        if (bi < 0)
            break;
        struct bo_merge m = cand[bi];
        apply_merge(o, m);
        /* drop the candidates of a and b, add a's new ones */
        unsigned w = 0;
        for (unsigned i = 0; i < cand.length(); i++)
            if (cand[i].a != m.a && cand[i].b != m.a && cand[i].a != m.b && cand[i].b != m.b)
                cand[w++] = cand[i];
        cand.truncate(w);
        add_candidates(o, m.a, cand, ++stamp);
    }
    cand.release();
}

/* The chains after the entry's, densest first (ties: the head's node). */
static const struct bo *sort_o;
static int by_density(const void *pa, const void *pb)
{
    int x = *(const int *)pa, y = *(const int *)pb;
    const struct bo *o = sort_o;
    double cx = 0, cy = 0;
    uint64_t sx = 0, sy = 0;
    for (unsigned i = 0; i < o->blocks[x].length(); i++)
        cx += o->cnt[o->blocks[x][i]], sx += o->size[o->blocks[x][i]];
    for (unsigned i = 0; i < o->blocks[y].length(); i++)
        cy += o->cnt[o->blocks[y][i]], sy += o->size[o->blocks[y][i]];
    double dx = cx / (double)(sx ? sx : 1), dy = cy / (double)(sy ? sy : 1);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return o->blocks[x][0] - o->blocks[y][0];
}

static uint64_t bb_bytes(basic_block bb)
{
    uint64_t n = 0;
    rtx_insn *insn;
    FOR_BB_INSNS(bb, insn)
    if (NONDEBUG_INSN_P(insn)) {
        int l = get_attr_length(insn);
        n += l > 0 ? (uint64_t)l : 0;
    }
    return n ? n : 1;
}

static double count_of(profile_count c)
{
    return c.initialized_p() ? (double)c.to_gcov_type() : 0.0;
}

/* The Ext-TSP score of the hot partition's executed blocks in the given
 * block order (every block counts for its size; edges between nodes). */
static double layout_score(struct bo *o, const vec<basic_block> &order, int *node_of)
{
    uint64_t p = 0;
    for (unsigned i = 0; i < order.length(); i++) {
        int v = node_of[order[i]->index];
        uint64_t s = v >= 0 ? o->size[v] : bb_bytes(order[i]);
        if (v >= 0)
            o->pos[v] = p;
        p += s;
    }
    double s = 0;
    for (unsigned i = 0; i < o->edges.length(); i++) {
        const bo_edge &e = o->edges[i];
        s += edge_score(o->pos[e.src], o->size[e.src], o->pos[e.dst], e.w);
    }
    return s;
}

/* The new order of the first partition's blocks into ORDER, the other
 * partition's into REST (bbro's order); true if it is to be used.  NOTE
 * says whether to print the verbose note. */
static bool plan_order(function *fun, vec<basic_block> &order, vec<basic_block> &rest, bool note)
{
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl));
    basic_block entry_bb = ENTRY_BLOCK_PTR_FOR_FN(fun);
    if (n_basic_blocks_for_fn(fun) <= NUM_FIXED_BLOCKS + 2 || !single_succ_p(entry_bb))
        return false;
    basic_block first = single_succ(entry_bb);
    if (entry_bb->next_bb != first || count_of(first->count) <= 0)
        return false;
    int part0 = BB_PARTITION(first);

    /* bbro's order, split into the first partition and the rest */
    auto_vec<basic_block> cur;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        if (BB_PARTITION(bb) == part0 && rest.is_empty())
            cur.safe_push(bb);
        else
            rest.safe_push(bb);
    }
    for (unsigned i = 0; i < rest.length(); i++)
        if (BB_PARTITION(rest[i]) == part0)
            return false; /* more than one switch: leave it alone */

    struct bo o;
    memset(&o, 0, sizeof o);
    int nb = last_basic_block_for_fn(fun);
    int *node_of = XNEWVEC(int, nb);
    for (int i = 0; i < nb; i++)
        node_of[i] = -1;
    o.bb = XNEWVEC(basic_block, cur.length());
    o.size = XNEWVEC(uint64_t, cur.length());
    o.cnt = XNEWVEC(double, cur.length());
    /* the entry block is node 0 */
    for (unsigned i = 0; i < cur.length(); i++) {
        double c = count_of(cur[i]->count);
        if (c <= 0)
            continue;
        node_of[cur[i]->index] = o.n;
        o.bb[o.n] = cur[i];
        o.size[o.n] = bb_bytes(cur[i]);
        o.cnt[o.n] = c;
        o.n++;
    }
    o.edges = vNULL;
    for (int v = 0; v < o.n; v++) {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, o.bb[v]->succs)
        {
            if (e->dest == EXIT_BLOCK_PTR_FOR_FN(fun) || node_of[e->dest->index] < 0 ||
                node_of[e->dest->index] == v)
                continue;
            double w = count_of(e->count());
            if (w <= 0)
                continue;
            bo_edge be = {v, node_of[e->dest->index], w};
            o.edges.safe_push(be);
        }
    }
    o.of = XNEWVEC(int, o.n);
    o.blocks = XCNEWVEC(vec<int>, o.n);
    o.cedges = XCNEWVEC(vec<int>, o.n);
    o.off = XCNEWVEC(uint64_t, o.n);
    o.csize = XCNEWVEC(uint64_t, o.n);
    o.pos = XCNEWVEC(uint64_t, o.n);
    o.mark = XNEWVEC(int, o.n);
    for (int v = 0; v < o.n; v++) {
        o.of[v] = v;
        o.blocks[v] = vNULL;
        o.blocks[v].safe_push(v);
        o.cedges[v] = vNULL;
        o.csize[v] = o.size[v];
    }
    for (unsigned i = 0; i < o.edges.length(); i++) {
        o.cedges[o.edges[i].src].safe_push((int)i);
        o.cedges[o.edges[i].dst].safe_push((int)i);
    }
    double before = layout_score(&o, cur, node_of);
    exttsp_chains(&o);

    auto_vec<int> chains;
    for (int c = 1; c < o.n; c++)
        if (o.blocks[c].length())
            chains.safe_push(c);
    sort_o = &o;
    if (chains.length() > 1)
        qsort(chains.address(), chains.length(), sizeof(int), by_density);
    for (unsigned i = 0; i < o.blocks[0].length(); i++)
        order.safe_push(o.bb[o.blocks[0][i]]);
    for (unsigned c = 0; c < chains.length(); c++)
        for (unsigned i = 0; i < o.blocks[chains[c]].length(); i++)
            order.safe_push(o.bb[o.blocks[chains[c]][i]]);
    for (unsigned i = 0; i < cur.length(); i++)
        if (node_of[cur[i]->index] < 0)
            order.safe_push(cur[i]);
    gcc_assert(order.length() == cur.length() && order[0] == first);
    double after = layout_score(&o, order, node_of);
    bool changed = false;
    for (unsigned i = 0; i < order.length(); i++)
        changed |= order[i] != cur[i];
    bool use = changed && after > before * (1.0 + 1e-9);
    if (!use) { /* bbro's order of the first partition */
        order.truncate(0);
        order.safe_splice(cur);
    }
    /* the cold part: the blocks that ran (split=3's warm blocks) first, in
       bbro's order, then those that never ran (pass-coldsplit.cc) */
    bool rest_changed = false;
    {
        auto_vec<basic_block> ran, never;
        for (unsigned i = 0; i < rest.length(); i++)
            (count_of(rest[i]->count) > 0 ? ran : never).safe_push(rest[i]);
        for (unsigned i = 0; i < ran.length(); i++)
            rest_changed |= rest[i] != ran[i];
        rest.truncate(0);
        rest.safe_splice(ran);
        rest.safe_splice(never);
    }

    if (pi_opt.verbose && note) {
        char sc[96];
        snprintf(sc, sizeof sc, "%.0f (bbro), %.0f (Ext-TSP)", before, after);
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: block order of %qs: %u blocks, %d executed, score %s: %s", fn,
               cur.length(), o.n, sc, use ? "reordered" : "bbro's order kept");
    if (pi_opt.verbose && note && rest_changed)
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: block order of %qs: the cold part%'s blocks that ran moved to its head", fn);
    }

    for (int v = 0; v < o.n; v++)
        o.blocks[v].release(), o.cedges[v].release();
    o.edges.release();
    XDELETEVEC(node_of);
    XDELETEVEC(o.bb);
    XDELETEVEC(o.size);
    XDELETEVEC(o.cnt);
    XDELETEVEC(o.of);
    XDELETEVEC(o.blocks);
    XDELETEVEC(o.cedges);
    XDELETEVEC(o.off);
    XDELETEVEC(o.csize);
    XDELETEVEC(o.pos);
    XDELETEVEC(o.mark);
    return use || rest_changed;
}

static unsigned int blockorder_execute(function *fun)
{
    auto_vec<basic_block> order, rest;
    if (!plan_order(fun, order, rest, true))
        return 0;
    /* re-enter cfglayout mode (its cleanup leaves blocks in their
       partitions but may merge or delete some: the order is planned again
       on what it left), chain the blocks through aux, finalize */
    bool complete = crtl->bb_reorder_complete;
    crtl->bb_reorder_complete = false;
    cfg_layout_initialize(CLEANUP_NO_PARTITIONING);
    order.truncate(0);
    rest.truncate(0);
    basic_block bb;
    if (plan_order(fun, order, rest, false)) {
        for (unsigned i = 0; i + 1 < order.length(); i++)
            order[i]->aux = order[i + 1];
        basic_block last = order.last();
        for (unsigned i = 0; i < rest.length(); i++) {
            last->aux = rest[i];
            last = rest[i];
        }
        last->aux = NULL;
        relink_block_chain(/*stay_in_cfglayout_mode=*/true);
    }
    FOR_EACH_BB_FN(bb, fun)
    if (bb->next_bb != EXIT_BLOCK_PTR_FOR_FN(fun))
        bb->aux = bb->next_bb;
    cfg_layout_finalize();
    crtl->bb_reorder_complete = complete;
    FOR_EACH_BB_FN(bb, fun) df_recompute_luids(bb);
    return 0;
}

static bool blockorder_gate(function *fun)
{
    return fun && pi_feedback_on(fun->decl) && pi_opt.block_order == 0 && !seen_error() && optimize > 0 &&
           (flag_reorder_blocks || flag_reorder_blocks_and_partition) &&
           pi_feedback_applied(fun->decl);
}
PI_RTL_PASS(blockorder)
