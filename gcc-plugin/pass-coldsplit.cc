/* pass-coldsplit.cc — the rebuild loop owns the hot/cold split
 * (-fplugin-arg-perfinst-split=gcc|2|3, docs/layout.md "The split").
 *
 *   gcc -O2 -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=prog.fb \
 *       [-fplugin-arg-perfinst-split=2|3|gcc] [-fplugin-arg-perfinst-warm=PCT] -c x.c
 *
 *     before (GCC's partitioning)        after (split=3, warm=1)
 *     .text.f:  entry   1000             .text.f:          entry 1000, loop 990
 *               loop     990             .text.unlikely.f: warm 3   (ran < 1 % of the entry)
 *               warm       3                               copy 0   (threading's copy of a
 *               copy       0 (guessed)                               zero block: judged zero)
 *
 * GCC's hot/cold partitioning (-freorder-blocks-and-partition, the RTL
 * pass "bbpart", bb-reorder.cc) puts a block in the cold part (the
 * function's .cold piece in .text.unlikely.F) only when
 * probably_never_executed_bb_p holds: a count that is zero in the IPA
 * sense (a precise zero).  The feedback pass gives a block that never ran
 * a precise zero, but a block GCC creates or duplicates afterwards (jump
 * threading, tail duplication, loop peeling and unrolling, split edges)
 * gets a zero of GUESSED quality (a guessed-local count times a probability)
 * or no count at all, which GCC does not trust: it stays hot.  And a block
 * that ran, but rarely, always stays hot.
 *
 * Two RTL passes around "bbpart", in every function whose branch profile
 * was applied (pass-feedback.cc, pi_feedback_applied):
 *
 *   perfinst_coldsplit (before bbpart) first gives a block that ran but
 *   has a zero count the counts of the edges that bring it from blocks that
 *   ran (pi_feedback_repair_counts, pass-feedback.cc: GCC lost them), then
 *   judges each block, in reverse
 *   post-order: its count when it has one; when it has none, zero if every
 *   incoming edge is (its source judged zero, or its own count zero).
 *     split=2: every block judged zero gets the precise zero
 *       count, so that bbpart moves it to the cold part;
 *     split=3 (the default): in addition every warm block — it ran, but less than PCT
 *       percent (-fplugin-arg-perfinst-warm=PCT, default 1) of the
 *       function's entry count — gets a precise zero for bbpart alone (its
 *       count is remembered);
 *     split=gcc: nothing (GCC's partitioning on the applied profile).
 *   perfinst_coldsplit_restore (after bbpart) gives the warm blocks their
 *   counts back, so that bb-reorder and pass-blockorder order them by their
 *   counts and later passes optimize them for speed.
 *
 * GCC's own partitioning then does the rest, crossing edges included: it
 * keeps the entry and a path to every hot block hot (sanitize_hot_paths),
 * puts landing pads with their throwers, adds the labels and jumps the
 * crossing edges need and marks them (fixup_partitions keeps them right
 * through later CFG changes).  pass-blockorder.cc lays out the cold part
 * warm blocks first (split=3: the warm section right after the hot code
 * once GNU ld groups .text.unlikely), then the blocks that never ran.
 *
 *     before (split=gcc)                 after (split=2)
 *     f:     ... hot blocks ...          f:       ... hot blocks ...
 *            bb 9 [count 0 (guessed)]             (bb 9 moved)
 *     f.cold: bb 7 [count 0 (precise)]   f.cold:  bb 7, bb 9
 *
 * dispatch=whole: a dispatch loop is not split at all (dispatch_loop below):
 * its never-run blocks get a guessed zero for bbpart alone (their precise
 * zero back after it), so they stay in the hot part, where bb-reorder puts
 * them after the blocks that ran — as llvm-bolt leaves luaV_execute and
 * sqlite3VdbeExec whole.  dispatch=small keeps whole only a dispatch loop
 * of at most DISPATCH_SMALL_INSNS instructions and splits a larger one.
 *
 * split-min=N: a function whose cold part would hold fewer than N
 * instructions (the blocks judged zero and the warm ones, counted before
 * register allocation) is kept whole as a dispatch loop is, without the
 * dispatch tails: a small cold part saves the hot part little and costs a
 * line whenever a run enters it.
 *
 * A dispatch loop kept whole keeps a dispatch tail per opcode (the
 * perfinst_tails passes around "jump2", below): GCC factors a threaded
 * interpreter's computed gotos into one block D (`goto *x`, tree-cfg.cc
 * factor_computed_gotos) and "compgotos" (bb-reorder.cc,
 * maybe_duplicate_computed_goto) copies D back into each predecessor that
 * ends in a plain jump to it.  Before that, jump2's cross-jumping
 * (cfgcleanup.cc try_crossjump_bb) merges the identical tails of D's
 * predecessors — Lua's vmfetch, `if (trap) ...; i = *pc++; x =
 * disptab[op]` — into one: 45 of luaV_execute's opcodes then jump to a
 * shared trap test, whose block has two successors, and compgotos can
 * copy D into 3 blocks.  Split, GCC never merges them: try_crossjump_bb
 * leaves a block alone when its first two predecessors lie in different
 * partitions, which D's (hot and cold opcodes) do.  Kept whole, D gets a
 * precise zero count for jump2 alone, and try_crossjump_bb leaves alone a
 * block ending in a computed jump that is optimized for size.
 *
 * With -fplugin-arg-perfinst-verbose a note per function says how many
 * blocks went where. */
#include "plugin.h"
#include "predict.h"
#include "cfganal.h"
#include "cfgrtl.h"

/* A warm block's count, kept from before bbpart to after it. */
struct cs_keep {
    basic_block bb;
    int index;
    profile_count count;
};
static vec<cs_keep> kept;
static function *kept_fun;
static bool kept_whole; /* kept: the never-run blocks of a dispatch loop kept whole */
static function *whole_fun; /* the function whose dispatch loop was kept whole (for the tails) */
/* dispatch=whole: an edge into a kept block whose probability was never(),
 * by its ends' indices (bbpart adds no edge where nothing is cold) */
struct cs_edge {
    int src, dest;
};
static vec<cs_edge> kept_edges;

/* The split mode (1 gcc, 2, 3) with the default applied. */
static int split_mode(void)
{
    return pi_opt.split ? pi_opt.split : 3;
}

/* split=3's threshold, percent of the entry count (warm=PCT, default 1). */
static double warm_pct(void)
{
    return pi_opt.warm_pct > 0 ? pi_opt.warm_pct : 1.0;
}

static bool count_zero(profile_count c)
{
    return c.initialized_p() && c.to_gcov_type() == 0;
}

/* A dispatch loop (dispatch=whole): an interpreter's opcode dispatch, whose
 * blocks run once per instruction interpreted and whose entry count is once
 * per call, so that split=3's share of the entry count says nothing of a
 * block's share of the work, and the opcodes one workload never ran are the
 * next workload's hot code.  The function has a block that jumps through a
 * table (a switch's tablejump) or a computed goto to at least
 * DISPATCH_SUCCS blocks, and its dispatch blocks together ran at least
 * DISPATCH_RATIO times per entry.  *succs and *ratio: the most successors
 * of one such block, the runs per entry. */
enum { DISPATCH_SUCCS = 8 };
static const double DISPATCH_RATIO = 16.0;

static bool dispatch_loop(function *fun, double ecount, unsigned *succs, double *ratio)
{
    double runs = 0.0;
    unsigned most = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        rtx_insn *end = BB_END(bb);
        if (!JUMP_P(end) || EDGE_COUNT(bb->succs) < DISPATCH_SUCCS || !bb->count.initialized_p())
            continue;
        if (!computed_jump_p(end) && !tablejump_p(end, NULL, NULL))
            continue;
        runs += (double)bb->count.to_gcov_type();
        most = MAX(most, EDGE_COUNT(bb->succs));
    }
    *succs = most;
    *ratio = ecount > 0.0 ? runs / ecount : 0.0;
    return most > 0 && ecount > 0.0 && runs >= DISPATCH_RATIO * ecount;
}

/* dispatch=small: a dispatch loop is kept whole when it has at most this
 * many instructions (RTL, before register allocation; 5,461): half a
 * 32 KiB L1i at about 3 bytes an instruction.  On the suite: Lua's
 * luaV_execute (4,016 instructions, 11.2 KB compiled whole) is kept whole,
 * SQLite's sqlite3VdbeExec (7,254, 36.5 KB whole, more than the L1i) is
 * split (docs/layout.md "Dispatch loops"). */
enum { DISPATCH_SMALL_INSNS = 16384 / 3 };

static unsigned insn_count(function *fun)
{
    unsigned n = 0;
    basic_block bb;
    rtx_insn *insn;
    FOR_EACH_BB_FN(bb, fun)
    FOR_BB_INSNS(bb, insn)
    if (NONDEBUG_INSN_P(insn))
        n++;
    return n;
}

/* split-min: the instructions of the blocks the split would send to the
 * cold part: those judged zero (ZERO) and split=3's warm ones (kept). */
static unsigned cold_insns(const_sbitmap zero)
{
    unsigned n = 0;
    basic_block bb;
    rtx_insn *insn;
    FOR_EACH_BB_FN(bb, cfun) {
        bool cold = bitmap_bit_p(zero, bb->index);
        for (unsigned i = 0; !cold && i < kept.length(); i++)
            cold = kept[i].bb == bb;
        if (cold)
            FOR_BB_INSNS(bb, insn)
            if (NONDEBUG_INSN_P(insn))
                n++;
    }
    return n;
}

/* dispatch=whole on a dispatch loop: every block bbpart would move to the
 * cold part gets a guessed zero until after bbpart (kept, kept_whole), and
 * every edge into one of them whose probability is never() a guessed never
 * (kept_edges): bbpart first marks every block that only such edges reach
 * a precise zero again (propagate_unlikely_bbs_forward). */
static unsigned keep_whole(function *fun, bool tails)
{
    unsigned n = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        if (!probably_never_executed_bb_p(fun, bb))
            continue;
        cs_keep k = {bb, bb->index, bb->count};
        kept.safe_push(k);
        n++;
    }
    for (unsigned i = 0; i < kept.length(); i++) {
        kept[i].bb->count = profile_count::guessed_zero();
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, kept[i].bb->preds)
        if (e->probability == profile_probability::never()) {
            cs_edge k = {e->src->index, e->dest->index};
            kept_edges.safe_push(k);
            e->probability = profile_probability::guessed_never();
            update_br_prob_note(e->src); /* a conditional jump's note says the same */
        }
    }
    kept_whole = true;
    whole_fun = tails ? fun : NULL;
    return n;
}

static unsigned int coldsplit_execute(function *fun)
{
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl));
    kept.truncate(0);
    kept_edges.truncate(0);
    kept_fun = fun;
    kept_whole = false;
    whole_fun = NULL;
    basic_block entry = ENTRY_BLOCK_PTR_FOR_FN(fun);
    if (!single_succ_p(entry) || count_zero(single_succ(entry)->count) ||
        !single_succ(entry)->count.initialized_p())
        return 0; /* a function that never ran: GCC's business (its tier) */
    /* a block that ran is not judged by a zero RTL's changes left it
       (pass-feedback.cc did the same before expansion) */
    pi_feedback_repair_counts(fun, "split");
    double ecount = entry->count.initialized_p() ? (double)entry->count.to_gcov_type() : 0.0;
    unsigned dsuccs;
    double dratio;
    if (pi_opt.dispatch != PI_DISPATCH_SPLIT && dispatch_loop(fun, ecount, &dsuccs, &dratio)) {
        char r[32];
        snprintf(r, sizeof r, "%.1f", dratio);
        unsigned insns = 0;
        if (pi_opt.dispatch == PI_DISPATCH_SMALL && (insns = insn_count(fun)) > DISPATCH_SMALL_INSNS) {
            if (pi_opt.verbose)
                inform(DECL_SOURCE_LOCATION(fun->decl),
                       "perfinst: split of %qs: a dispatch loop (%u successors, %s runs per entry) of %u "
                       "instructions, more than %u: split (dispatch=small)", fn, dsuccs, r, insns,
                       (unsigned)DISPATCH_SMALL_INSNS);
        } else {
            unsigned n = keep_whole(fun, true);
            if (pi_opt.verbose) {
                char size[64] = "";
                if (insns)
                    snprintf(size, sizeof size, " of %u instructions", insns);
                inform(DECL_SOURCE_LOCATION(fun->decl),
                       "perfinst: split of %qs: a dispatch loop (%u successors, %s runs per entry)%s: "
                       "kept whole (dispatch=%s), %u blocks that never ran stay in it",
                       fn, dsuccs, r, size, insns ? "small" : "whole", n);
            }
            return 0;
        }
    }
    double warm_below = split_mode() == 3 ? ecount * warm_pct() / 100.0 : 0.0;
    /* feedback-quality=ipa (pass-feedback.cc): the counts are the
       program's, and GCC's own hot-block threshold (what ipa-profile set
       so that the hot blocks hold 99% of the training run's time, or
       sum_max / hot-bb-count-fraction) says what is warm program-wide; a
       share of the entry count says little in a function that loops */
    bool ipa = split_mode() == 3 && pi_feedback_ipa_quality() && entry->count.ipa_p();
    if (ipa)
        warm_below = MAX(warm_below, (double)get_hot_bb_threshold());

    int nb = last_basic_block_for_fn(fun);
    auto_sbitmap zero(nb);
    bitmap_clear(zero);
    int *rpo = XNEWVEC(int, n_basic_blocks_for_fn(fun));
    int n = pre_and_rev_post_order_compute_fn(fun, NULL, rpo, false);
    unsigned ncold = 0, nforced = 0, nwarm = 0;
    auto_vec<cs_keep> forced; /* split-min: the counts the forced zeros replaced */
    for (int i = 0; i < n; i++) {
        basic_block bb = BASIC_BLOCK_FOR_FN(fun, rpo[i]);
        if (bb == single_succ(entry))
            continue;
        bool z;
        if (bb->count.initialized_p())
            z = bb->count.to_gcov_type() == 0;
        else {
            /* no count of its own: judged by its incoming edges */
            z = EDGE_COUNT(bb->preds) > 0;
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, bb->preds)
            if (!(e->src != entry && (bitmap_bit_p(zero, e->src->index) || count_zero(e->count())))) {
                z = false;
                break;
            }
        }
        if (z) {
            bitmap_set_bit(zero, bb->index);
            ncold++;
            if (!probably_never_executed_bb_p(fun, bb)) {
                nforced++;
                cs_keep k = {bb, bb->index, bb->count};
                forced.safe_push(k);
                bb->count = profile_count::zero();
            }
            continue;
        }
        if (warm_below > 0 && bb->count.initialized_p() &&
            (double)bb->count.to_gcov_type() < warm_below) {
            cs_keep k = {bb, bb->index, bb->count};
            kept.safe_push(k);
            bb->count = profile_count::zero();
            nwarm++;
        }
    }
    XDELETEVEC(rpo);
    unsigned cinsns = 0;
    if (pi_opt.split_min && (cinsns = cold_insns(zero)) < pi_opt.split_min && ncold + nwarm > 0) {
        /* split-min: a cold part this small would save the hot part less than
           the line it costs whenever a run enters it: every count back as it
           was, then kept whole as a dispatch loop is (without its tails) */
        for (unsigned i = 0; i < forced.length(); i++)
            forced[i].bb->count = forced[i].count;
        for (unsigned i = 0; i < kept.length(); i++)
            kept[i].bb->count = kept[i].count;
        kept.truncate(0);
        unsigned k = keep_whole(fun, false);
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(fun->decl),
                   "perfinst: split of %qs: the cold part would hold %u instructions (%u blocks never ran, "
                   "%u warm), fewer than %u: kept whole (split-min), %u blocks that never ran stay in it",
                   fn, cinsns, ncold, nwarm, pi_opt.split_min, k);
        return 0;
    }
    if (pi_opt.verbose) {
        char warm[96];
        if (ipa)
            snprintf(warm, sizeof warm, "below %.0f: %g%% of %.0f entries or GCC%s hot-block threshold",
                     warm_below, warm_pct(), ecount, "'s");
        else
            snprintf(warm, sizeof warm, "below %g%% of %.0f entries", split_mode() == 3 ? warm_pct() : 0.0,
                     ecount);
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: split of %qs: %u blocks never ran (%u of them not yet cold for GCC), "
               "%u warm (%s)",
               fn, ncold, nforced, nwarm, warm);
    }
    return 0;
}

/* After bbpart: the warm blocks' counts back (their partition stays). */
static unsigned int coldsplit_restore_execute(function *fun)
{
    unsigned nwarm = 0, ncold = 0;
    if (kept_fun != fun) {
        kept.truncate(0);
        return 0;
    }
    bool whole = kept_whole;
    kept_whole = false;
    for (unsigned i = 0; i < kept_edges.length(); i++) {
        int n = last_basic_block_for_fn(fun);
        basic_block src = kept_edges[i].src < n ? BASIC_BLOCK_FOR_FN(fun, kept_edges[i].src) : NULL;
        basic_block dest = kept_edges[i].dest < n ? BASIC_BLOCK_FOR_FN(fun, kept_edges[i].dest) : NULL;
        edge e = src && dest ? find_edge(src, dest) : NULL;
        if (e && e->probability == profile_probability::guessed_never()) {
            e->probability = profile_probability::never();
            update_br_prob_note(src);
        }
    }
    kept_edges.truncate(0);
    for (unsigned i = 0; i < kept.length(); i++) {
        basic_block bb = kept[i].bb;
        if (kept[i].index >= last_basic_block_for_fn(fun) ||
            BASIC_BLOCK_FOR_FN(fun, kept[i].index) != bb)
            continue; /* deleted: nothing to give back */
        bb->count = kept[i].count;
        if (BB_PARTITION(bb) == BB_COLD_PARTITION)
            ncold++;
        nwarm++;
    }
    if (pi_opt.verbose && whole)
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: split of %qs: %u blocks that never ran given back their zero, %u of them "
               "in the cold part", IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), nwarm, ncold);
    else if (pi_opt.verbose && nwarm)
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: split of %qs: %u warm blocks, %u of them in the cold part",
               IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), nwarm, ncold);
    kept.truncate(0);
    return 0;
}

static bool coldsplit_gate(function *fun)
{
    return fun && pi_feedback_on(fun->decl) && split_mode() != 1 && !seen_error() && optimize > 0 &&
           flag_reorder_blocks_and_partition && pi_feedback_applied(fun->decl);
}

PI_RTL_PASS(coldsplit)

static bool coldsplit_restore_gate(function *fun) { return !kept.is_empty(); }
PI_RTL_PASS(coldsplit_restore)

/* A dispatch loop kept whole: each opcode keeps its own dispatch tail.
 * perfinst_tails (before "jump2") gives every block that ends in a
 * computed jump and ran a precise zero count, so that jump2's
 * cross-jumping does not merge the tails of its predecessors (it leaves a
 * computed jump's block optimized for size alone), and
 * perfinst_tails_restore (after "jump2") gives the counts back, before
 * "compgotos" copies the computed jump into each predecessor and
 * bb-reorder lays the blocks out by their counts.  The predecessors keep
 * their own copies as in the split function, where cross-jumping leaves
 * them alone because they lie in both partitions (the comment at the
 * top).  A switch's table jump is not a computed jump: SQLite's
 * sqlite3VdbeExec is compiled as before. */
struct cs_tail {
    basic_block bb;
    profile_count count;
};
static vec<cs_tail> tails;
static function *tails_fun;

static unsigned int tails_execute(function *fun)
{
    tails.truncate(0);
    tails_fun = fun;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        if (!computed_jump_p(BB_END(bb)) || !bb->count.initialized_p() || bb->count.to_gcov_type() == 0)
            continue;
        cs_tail t = {bb, bb->count};
        tails.safe_push(t);
        bb->count = profile_count::zero();
    }
    if (pi_opt.verbose && !tails.is_empty())
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: dispatch tails of %qs: %u computed jumps kept from cross-jumping",
               IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), tails.length());
    return 0;
}

static bool tails_gate(function *fun)
{
    return whole_fun == fun && optimize > 0 && !seen_error();
}
PI_RTL_PASS(tails)

/* After jump2: the counts back (a block jump2 deleted is not found; a block
 * that is one of them still ends in its computed jump). */
static unsigned int tails_restore_execute(function *fun)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (unsigned i = 0; i < tails.length(); i++)
        if (tails[i].bb == bb && bb->count == profile_count::zero() && computed_jump_p(BB_END(bb)))
            bb->count = tails[i].count;
    tails.truncate(0);
    tails_fun = NULL;
    return 0;
}

static bool tails_restore_gate(function *fun) { return tails_fun == fun && !tails.is_empty(); }
PI_RTL_PASS(tails_restore)
