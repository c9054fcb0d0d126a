/* arcs.cc — a function counted whole gets its counters on the edges off a
 * spanning tree of its flow graph (Knuth; what GCC's -fprofile-arcs does,
 * profile.cc), called from the count pass (pass-count.cc).
 *
 *     int f(int n) {                      bb 2 (entry)     bb 2:  s = 0; i = 0
 *         int s = 0;                        |                     goto bb 4
 *         for (int i = 0; i < n; i++)     bb 4 <--+        bb 3:  s = s + i; i = i + 1
 *             s += i;                      |  \    |       bb 4:  if (i < n) goto bb 3
 *         return s;                       bb 5  bb 3              else { __perfinst_ctr[0] += 1;
 *     }                                                                  goto bb 5; }
 *                                                          bb 5:  return s;
 *
 * One counter on the loop's exit edge instead of one per block: the
 * entry, the loop's blocks and the return are solved by the reader from
 * the flow equations (common/piflow.c) — bb 2 runs as often as f is
 * called, bb 5 as often, bb 4 = calls + bb 3, bb 3 = bb 4 - exits, and
 * the calls are the exits.
 *
 * The graph (UNIT arcs, include/perfinst-format.h): the block sites, an
 * arc from the entry, one per CFG edge but abnormal and EH ones (a
 * computed goto's, setjmp's, an exception's: they cannot hold code), and
 * fake arcs for what the edges do not show — from a block that may be
 * left without taking an edge (a call that may not return: exit,
 * longjmp, an exception; a probe whose handler may do the same; no
 * successor) to the exit (none from a block with an edge to the exit
 * that gcov does not split after a call: that arc's count is then both
 * ways out, whose split nothing needs), and from the entry to a block entered by an
 * abnormal or EH edge — so that the equations hold however a call ends.
 * The tree is taken on the graph whose vertices are each block's in and
 * out, joined by the block itself, so that a block can hold the counter
 * (at its start, where a site's counter always was) as well as an edge:
 *
 *   - fake arcs, and what must stay bare (a bare return block and its
 *     edge to the exit, return-site.cc; a block that opens with setjmp
 *     where gcov counts its entries after a longjmp, which a counter at
 *     its start would miss: counts_returns), go on the tree first;
 *   - a block whose count the runtime reads while the program runs (the
 *     function probes of combinations and dormant classes,
 *     pass-fnprobe.cc) keeps a counter of its own: its edge is never on
 *     the tree;
 *   - then the others, the most often executed first (count-at=late:
 *     by GCC's estimated profile, which profile_estimate made before the
 *     count pass -- its predictors know early returns, __builtin_expect,
 *     error paths -- unless counter-tree=guess; count-at=cfg, where no
 *     profile exists yet: a static guess, loops run ten times, branches
 *     split evenly, a block that ends in a call that does not return is
 *     cold.  A chain of early exits the calls seldom take shows the
 *     difference: the guess makes each test's block colder than the
 *     last, and counts each one, where the estimate counts the exits;
 *     tests/count/t-counter-tree.sh), an edge whose counter would
 *     need a block of its own (a critical edge) counted twice as dear; of
 *     two as often executed, a block's counter before an edge's (the code
 *     after a counter at a block's start stays common to the counting and
 *     the clean copy, and GCC shares it).
 *
 * The edges left off the tree get counters: a block's at its start (at
 * its end when nothing inside can leave it: pass-count.cc), an
 * edge's where GCC's gsi_insert_on_edge puts code (the start of its
 * destination if it has one predecessor, else the end of its source if it
 * has one successor, else a new block on the edge).  The new blocks are no
 * sites: the CFG the profile is keyed on (pi_cfg_checksum) and the
 * sites' successor lists were taken before.
 */
#include "plugin.h"
#include "cfgloop.h"
#include "cfganal.h"
#include "sreal.h"

/* An edge of the split graph: vertex 0 is the entry and exit, 1 + 2i and
 * 2 + 2i the in and the out of the i-th block of the site order. */
struct cand {
    unsigned a, b;
    double key;      /* estimated executions x the counter's cost: high goes on the tree first */
    int block;       /* >= 0: that block's own edge (in to out), else an arc */
    int arc;         /* index into the arc list */
    bool must_tree;  /* cannot hold a counter */
    bool never_tree; /* must hold a counter (a live block count) */
    bool on_tree;
};

static unsigned find(vec<unsigned> &up, unsigned x)
{
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

static int cmp_cand(const void *p, const void *q)
{
    const cand *x = *(const cand *const *)p, *y = *(const cand *const *)q;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    /* a tie: the block's own counter (at its start) rather than an edge's,
       so that the code after it stays the same in the counting and the
       clean copy, which GCC's cross-jumping can then share */
    if ((x->block >= 0) != (y->block >= 0))
        return x->block >= 0 ? 1 : -1;
    return x < y ? -1 : x > y; /* stable: the order they were made in */
}

/* Does E leave the loop its source is in? */
static bool exits_loop(edge e)
{
    return e->src->loop_father && e->dest->loop_father && !flow_bb_inside_loop_p(e->src->loop_father, e->dest);
}

/* A static guess of how often control takes E when its source runs: an
 * even split, but an edge that leaves a loop a tenth of the rest. */
static double edge_prob(edge e)
{
    unsigned nout = 0, nexit = 0;
    edge x;
    edge_iterator xi;
    FOR_EACH_EDGE(x, xi, e->src->succs)
    {
        nout++;
        nexit += exits_loop(x);
    }
    if (!nexit || nexit == nout)
        return 1.0 / nout;
    return exits_loop(e) ? 0.1 / nexit : 0.9 / (nout - nexit);
}

/* A static guess of each block's executions per call, from the loop
 * nesting and the guessed branches (no profile exists at count-at=cfg): in
 * reverse post-order, a block gets what its forward edges bring, a loop
 * header ten times that; a block that ends in a call that does not return
 * (an error path) next to nothing. */
/* A block's or an edge's frequency is at most FREQ_MAX (the spanning
 * tree's keys stay finite: a deep loop nest's guess, an estimate far above
 * the entry's). */
static const double FREQ_MAX = 1e12;

static double capped(double f)
{
    return f > FREQ_MAX ? FREQ_MAX : f;
}

static void guess_freq(function *fun, vec<double> &freq)
{
    int n = n_basic_blocks_for_fn(fun);
    int *rpo = XNEWVEC(int, n);
    int nrpo = pre_and_rev_post_order_compute_fn(fun, NULL, rpo, false);
    mark_dfs_back_edges(fun);
    freq.safe_grow_cleared(last_basic_block_for_fn(fun));
    for (int i = 0; i < nrpo; i++) {
        basic_block bb = BASIC_BLOCK_FOR_FN(fun, rpo[i]);
        double f = 0;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->preds)
        if (e->src == ENTRY_BLOCK_PTR_FOR_FN(fun))
            f += 1;
        else if (!(e->flags & EDGE_DFS_BACK))
            f += freq[e->src->index] * edge_prob(e);
        if (bb->loop_father && bb->loop_father->header == bb && bb->loop_father->num)
            f *= 10;
        if (EDGE_COUNT(bb->succs) == 0)
            f *= 0.01;
        freq[bb->index] = capped(f);
    }
    XDELETEVEC(rpo);
}

/* count-at=late: GCC's estimated profile (profile_estimate ran before the
 * count pass), each block's count relative to the entry's, and each
 * edge's through its probability; false where there is none (count-at=cfg,
 * a function GCC guesses never runs) or with counter-tree=guess. */
/* *F: C relative to the entry's count IN (capped); false where GCC cannot
 * say. */
static bool relative_count(profile_count c, profile_count in, double *f)
{
    bool known = false;
    *f = capped(c.to_sreal_scale(in, &known).to_double());
    return known;
}

static bool estimated_freq(function *fun, vec<double> &freq)
{
    profile_count in = ENTRY_BLOCK_PTR_FOR_FN(fun)->count;
    if (pi_opt.counter_tree_guess || profile_status_for_fn(fun) == PROFILE_ABSENT || !in.initialized_p() ||
        !in.nonzero_p())
        return false;
    freq.safe_grow_cleared(last_basic_block_for_fn(fun));
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    if (!relative_count(bb->count, in, &freq[bb->index]))
        return false;
    return true;
}

static double edge_freq(function *fun, const vec<double> &freq, bool estimated, edge e)
{
    if (e->src == ENTRY_BLOCK_PTR_FOR_FN(fun))
        return 1;
    double f;
    if (estimated && relative_count(e->count(), ENTRY_BLOCK_PTR_FOR_FN(fun)->count, &f))
        return f;
    f = freq[e->src->index] * edge_prob(e);
    if (e->dest != EXIT_BLOCK_PTR_FOR_FN(fun) && freq[e->dest->index] < f)
        f = freq[e->dest->index];
    return f;
}

/* Where gsi_insert_on_edge puts an edge's code: in a block of its own
 * (a critical edge) costs a jump more. */
static double edge_cost(function *fun, edge e)
{
    if (single_pred_p(e->dest) && e->dest != EXIT_BLOCK_PTR_FOR_FN(fun))
        return 1;
    if (single_succ_p(e->src) && e->src != ENTRY_BLOCK_PTR_FOR_FN(fun))
        return 1;
    return 2;
}

/* Does BB open with a call that returns twice (setjmp, vfork)?  Such a
 * block is entered again right after the call (the abnormal edge from the
 * dispatcher, a fake arc from the entry here), and the call's own abnormal
 * edge is never taken (a longjmp leaves by another block's call). */
static bool returns_twice_block(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (pi_block_filler(g))
            continue;
        return is_gimple_call(g) && (gimple_call_flags(g) & ECF_RETURNS_TWICE);
    }
    return false;
}

/* Does gcov count the entries of BB, which opens with a call that returns
 * twice, that come back after the call?  GCC's profile pass gives such a
 * block a fake edge from the entry unless an edge from the entry reaches
 * it already (branch_prob's have_entry_edge), and puts the fake edges on
 * its spanning tree first, in the order of compare_freqs: with an
 * estimated profile the entry's fake edges, of unknown frequency, come
 * first and the block's fake edge to the exit (never taken) is dropped;
 * without one (-O0) the blocks' fake edges to the exit come first (the
 * higher source index) and the entry's into the block is dropped, the
 * block counted as entered only from above.  When gcov counts the
 * re-entries, so do the arcs: the block holds no counter (one at its
 * start would miss them) and has no fake arc to the exit. */
static bool counts_returns(function *fun, basic_block bb, basic_block first)
{
    /* (FIRST: the block the entry's edge reached before the count pass
       gave a first block that is entered again a block of its own) */
    return profile_status_for_fn(fun) != PROFILE_ABSENT && bb != first && returns_twice_block(bb);
}

bool pi_arcs_instrument(function *fun, const vec<basic_block> &order, const vec<int> &site_of,
                        sbitmap leave, const vec<bool> &live, basic_block bare_ret, basic_block first,
                        vec<int> &block_counter)
{
    unsigned n = order.length();
    basic_block entry_bb = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    if (!n || order[0] != entry_bb)
        return false;
    auto_vec<int> pos; /* bb index -> position in order, -1 */
    pos.safe_grow(last_basic_block_for_fn(fun));
    for (unsigned i = 0; i < pos.length(); i++)
        pos[i] = -1;
    for (unsigned i = 0; i < n; i++)
        pos[order[i]->index] = i;

    /* the arcs, grouped by source: the entry's, then each block's; ends
       as positions in order (-1: the entry or the exit) until registered */
    struct arc_tmp {
        int src, dst;
        unsigned flags;
        edge e;            /* NULL for a fake arc */
        unsigned counter;
    };
    auto_vec<arc_tmp> arcs;
    auto_vec<bool> fake_in, fake_out;
    fake_in.safe_grow_cleared(n);
    fake_out.safe_grow_cleared(n);
    auto_vec<bool> twice;
    twice.safe_grow_cleared(n);
    for (unsigned i = 0; i < n; i++) {
        twice[i] = !live[i] && counts_returns(fun, order[i], first); /* (a live block keeps its counter) */
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, order[i]->succs)
        if (e->flags & (EDGE_ABNORMAL | EDGE_EH)) {
            fake_out[i] |= !(twice[i] && (e->flags & EDGE_ABNORMAL));
            if (e->dest != EXIT_BLOCK_PTR_FOR_FN(fun)) {
                if (pos[e->dest->index] < 0)
                    return false;
                fake_in[pos[e->dest->index]] = true;
            }
        } else if (e->dest != EXIT_BLOCK_PTR_FOR_FN(fun) && pos[e->dest->index] < 0)
            return false; /* an edge out of the sites: not a function counted whole */
        if (EDGE_COUNT(order[i]->succs) == 0 || (bitmap_bit_p(leave, order[i]->index) && !twice[i]))
            fake_out[i] = true; /* (the call that returns twice is what may leave a twice block) */
        /* a block that returns: its arc to the exit stands for both ways
           out (the flow cannot tell them apart, and needs no counter to
           know their sum) -- unless gcov splits it after a call that may
           not return, whose pieces' counts need the split (lines.cc); a
           volatile asm, after which gcov splits too, is taken to return */
        edge x;
        edge_iterator xi;
        FOR_EACH_EDGE(x, xi, order[i]->succs)
        if (x->dest == EXIT_BLOCK_PTR_FOR_FN(fun) && !(x->flags & (EDGE_ABNORMAL | EDGE_EH)) &&
            !pi_lines_split_by_call(order[i]))
            fake_out[i] = false;
    }
    arc_tmp t = {-1, 0, 0, single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), PI_NONE};
    arcs.safe_push(t);
    for (unsigned i = 0; i < n; i++)
        if (fake_in[i]) {
            t = (arc_tmp){-1, (int)i, PI_ARC_FAKE, NULL, PI_NONE};
            arcs.safe_push(t);
        }
    for (unsigned i = 0; i < n; i++) {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, order[i]->succs)
        if (!(e->flags & (EDGE_ABNORMAL | EDGE_EH))) {
            t = (arc_tmp){(int)i, e->dest == EXIT_BLOCK_PTR_FOR_FN(fun) ? -1 : pos[e->dest->index], 0, e,
                          PI_NONE};
            arcs.safe_push(t);
        }
        if (fake_out[i]) {
            t = (arc_tmp){(int)i, -1, PI_ARC_FAKE, NULL, PI_NONE};
            arcs.safe_push(t);
        }
    }

    /* the split graph's edges: each block's, each arc's */
    auto_vec<double> freq;
    bool estimated = estimated_freq(fun, freq);
    if (!estimated) {
        freq.truncate(0);
        guess_freq(fun, freq);
    }
    auto_vec<cand> cands;
    cands.safe_grow_cleared(n + arcs.length());
    for (unsigned i = 0; i < n; i++) {
        cand &c = cands[i];
        c.a = 1 + 2 * i;
        c.b = 2 + 2 * i;
        c.block = i;
        c.arc = -1;
        c.key = freq[order[i]->index];
        c.never_tree = live[i];
        c.must_tree = order[i] == bare_ret || twice[i];
    }
    for (unsigned k = 0; k < arcs.length(); k++) {
        const arc_tmp &x = arcs[k];
        cand &c = cands[n + k];
        c.a = x.src < 0 ? 0 : 2 + 2 * x.src;
        c.b = x.dst < 0 ? 0 : 1 + 2 * x.dst;
        c.block = -1;
        c.arc = k;
        c.must_tree = !x.e || (bare_ret && x.src >= 0 && order[x.src] == bare_ret);
        c.key = x.e ? edge_freq(fun, freq, estimated, x.e) * edge_cost(fun, x.e) : 0;
    }

    /* Kruskal: what must be on the tree, then the rest, hottest first */
    auto_vec<unsigned> up;
    up.safe_grow(2 * n + 1);
    for (unsigned v = 0; v < up.length(); v++)
        up[v] = v;
    for (unsigned k = 0; k < cands.length(); k++) {
        cand &c = cands[k];
        if (!c.must_tree)
            continue;
        unsigned ra = find(up, c.a), rb = find(up, c.b);
        if (ra == rb)
            return false; /* a cycle of what cannot be counted: count the blocks */
        up[ra] = rb;
        c.on_tree = true;
    }
    auto_vec<cand *> rest;
    for (unsigned k = 0; k < cands.length(); k++)
        if (!cands[k].must_tree && !cands[k].never_tree)
            rest.safe_push(&cands[k]);
    rest.qsort(cmp_cand);
    for (unsigned k = 0; k < rest.length(); k++) {
        unsigned ra = find(up, rest[k]->a), rb = find(up, rest[k]->b);
        if (ra != rb) {
            up[ra] = rb;
            rest[k]->on_tree = true;
        }
    }

    /* counters for what is off the tree; the arcs into the unit */
    block_counter.safe_grow(n);
    for (unsigned i = 0; i < n; i++)
        block_counter[i] = cands[i].on_tree ? -1 : (int)pi_unit_add_counter();
    for (unsigned k = 0; k < arcs.length(); k++) {
        arc_tmp &x = arcs[k];
        if (!cands[n + k].on_tree)
            x.counter = pi_unit_add_counter();
        pi_arc a;
        memset(&a, 0, sizeof a);
        a.src = x.src < 0 ? PI_NONE : site_of[order[x.src]->index];
        a.dst = x.dst < 0 ? PI_NONE : site_of[order[x.dst]->index];
        a.counter = x.counter;
        a.flags = x.flags;
        bool last, phi;
        if (x.e && x.src >= 0 && pi_edge_line(x.e, &a.file, &a.line, &last, &phi))
            a.flags |= PI_ARC_BLOCK | (last ? PI_ARC_LAST : 0) | (phi ? PI_ARC_PHI : 0);
        pi_unit_add_arc(&a);
    }
    for (unsigned k = 0; k < arcs.length(); k++)
        if (arcs[k].counter != PI_NONE) {
            gimple_seq seq = NULL;
            pi_add_increment(&seq, pi_counter_ref(arcs[k].counter));
            gsi_insert_seq_on_edge(arcs[k].e, seq);
        }
    gsi_commit_edge_inserts();
    return true;
}
