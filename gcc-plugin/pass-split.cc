/* pass-split.cc — the mode register at (almost) no cost: two copies of
 * every instrumented function, chosen at its entry (seed 004 M11).
 *
 * Runs after inlining ("adjust_alignment", at every -O level and in lto1),
 * when a function's final body, inlined callees included, is known.  A
 * function that contains counter updates is rewritten as
 *
 * (counter updates, site markers and probe calls are all deleted from the
 * clean copy):
 *
 *     f(...) {                                f(...) {
 *       bb1: # perfinst site U 0                if (__perfinst_on != 0) goto bb1'; else goto bb1;
 *            __perfinst_ctr[0] += 1     →     bb1': # perfinst site U 0          bb1: ...
 *            ...                                     __perfinst_ctr[0] += 1          ...
 *     }                                              ...                            (no counters,
 *                                                                                    no markers)
 *
 * so that with counting off (PERFINST_MODE=off, perfinst_disable()) a call
 * costs one load and one predictable branch, and the code that runs is the
 * uninstrumented code, optimised as such.  With entry=jump (entry=test,
 * the default, -flto, -fcf-protection=branch, retpolines and -masm=intel
 * keep the byte test: docs/indicators.md) the test is instead one
 * instruction whichever copy runs,
 *
 *     f(...) { asm goto ("jmp *SLOT(%rip)" :::: bb1); bb1': ...  bb1: ... }
 *
 * SLOT (8 bytes in __perfinst_jumps; perfinst-format.h) holds the target,
 * which runtime/jumps.c keeps equal to the counting copy (bb1', right after
 * the jmp) while the function's switch byte is 1 and to the clean copy
 * (bb1) while it is 0.  The byte tested (or followed) is the function's
 * own switch __perfinst_fnon[F] of its unit, which libperfinst sets from the
 * mode register and the overlay (PERFINST_OVERLAY turns functions off
 * without touching .text); a clone GCC made (.constprop, .isra, .part)
 * tests the switch of the function it was cloned from; with -flto
 * (functions of several units mixed) and for functions without an entry of
 * their own (unmarked callers of inlined marked code) it is __perfinst_on,
 * the mode register itself.
 * A change takes effect at the next function entry.
 * GCC's if-to-switch and switch conversion, which run only before IPA and
 * which the counters in case blocks stop, run again on the split function
 * (rerun_early_passes, with switch-again=yes): the clean copy gets -O2's
 * tables and bit tests.  Not the default: on SQLite the off mode ran 0.15 %
 * fewer instructions, but counting 2.8 % more (sqlite3VdbeExec).
 * Functions whose blocks cannot be copied (setjmp, computed goto, nonlocal
 * labels) stay single-copy here and count whatever the mode (pass-countfn
 * splits computed-goto and setjmp functions, the default).
 *
 * Both copies in one function share one prologue: where the counting copy
 * needs callee-saved registers, the clean copy pushes them before the test
 * too.  With counting=function (the default), pass-countfn.cc has already (in a late IPA
 * pass) moved the counting copy into a function of its own, f.count.N,
 * entered by a sibling call after the test:
 *
 *     f(...) { if (__perfinst_fnon[F] != 0) return f.count.0(...); <-O2's f> }
 *
 * This pass then sees f without counters (nothing to do) and leaves
 * f.count.N alone (it counts whatever the mode); it still splits what that
 * pass does not take (-O0, -flto, entry=jump, variadic functions, ...).
 */
#include "plugin.h"
#include "cfgloop.h"
#include "cfgloopmanip.h"
#include "cfganal.h"
#include "tree-ssa.h"
#include "tree-into-ssa.h"
#include "tree-ssanames.h"
#include "tree-cfgcleanup.h"
#include "tree-ssa-dce.h"

/* The entry's `jmp *SLOT(%rip)`, its slot in the module's __perfinst_jumps
 * section (starting at the counting copy, right after the jmp, as the
 * switch bytes start at 1) and the slot's perfinst-format.h struct
 * pi_jump_info, in the subsection between the unit's two labels (unit.cc).
 * Numeric
 * labels keep the asm valid when GCC duplicates the block (each copy gets
 * a slot of its own, which the runtime keeps like any other). */
static gasm *jump_slot_asm(tree clean_label, int fi)
{
    char text[512];
    snprintf(text, sizeof text,
             "jmp *1f(%%%%rip)\n"
             "2:\n"
             "\t.pushsection " PI_JUMPS_SECTION ",\"aw\",@progbits\n"
             "\t.balign 8\n"
             "1:\t.quad 2b\n"
             "\t.popsection\n"
             "\t.pushsection " PI_JUMPINFO_SECTION ",\"a\",@progbits\n"
             "\t.subsection 1\n"
             "\t.balign 4\n"
             "\t.long 1b - .\n"
             "\t.long %%l0 - .\n"
             "\t.long 2b - .\n"
             "\t.long %s+%d - .\n"
             "\t.popsection",
             pi_fnon_asm_name(), fi);
    vec<tree, va_gc> *labels = NULL;
    vec_safe_push(labels, build_tree_list(NULL_TREE, clean_label));
    gasm *as = gimple_build_asm_vec(ggc_strdup(text), NULL, NULL, NULL, labels);
    gimple_asm_set_volatile(as, true);
    return as;
}

/* entry=jump: D's byte test `if (SWITCH != 0) goto E'; else goto E;`
 * becomes asm goto ("jmp *SLOT(%rip)" :::: E) falling through to E'.
 * SLOT is the address right after the jmp (counting) or E (clean): one
 * instruction whichever copy runs.  The counting copy is the fall-through
 * so that, as with the byte test, a body GCC's cross-jumping shares
 * between the copies is laid out after the counting block, inside the
 * range pmopt's cache model gives its site (a range runs to the next one:
 * optimizer/plan/plan-order.c).  Returns the TODO flags still to do; leaves the
 * byte test if D is not as split_execute built it. */
static unsigned int jump_dispatch(function *fun, int fi)
{
    basic_block d = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    gimple_stmt_iterator gsi = gsi_last_bb(d);
    gcond *c = gsi_end_p(gsi) ? NULL : dyn_cast<gcond *>(gsi_stmt(gsi));
    if (!c || EDGE_COUNT(d->succs) != 2 || TREE_CODE(gimple_cond_lhs(c)) != SSA_NAME)
        return 0;
    gimple *load = SSA_NAME_DEF_STMT(gimple_cond_lhs(c));
    if (!is_gimple_assign(load) || gimple_bb(load) != d || !has_single_use(gimple_cond_lhs(c)))
        return 0;
    edge on, off;
    extract_true_false_edges_from_block(d, &on, &off);
    if (gimple_cond_code(c) == EQ_EXPR)
        std::swap(on, off);
    else if (gimple_cond_code(c) != NE_EXPR)
        return 0;
    gsi_remove(&gsi, true);
    gimple_stmt_iterator lg = gsi_for_stmt(load);
    gsi_remove(&lg, true);
    release_defs(load);
    gsi = gsi_last_bb(d);
    gsi_insert_after(&gsi, jump_slot_asm(gimple_block_label(off->dest), fi), GSI_NEW_STMT);
    off->flags &= ~(EDGE_TRUE_VALUE | EDGE_FALSE_VALUE);
    on->flags = (on->flags & ~(EDGE_TRUE_VALUE | EDGE_FALSE_VALUE)) | EDGE_FALLTHRU;
    mark_virtual_operands_for_renaming(fun);
    return TODO_update_ssa;
}

static unsigned int split_execute(function *fun)
{
    if (pi_is_own_decl(fun->decl))
        return 0; /* the generated registration code is not instrumented */
    if (pi_countfn_origin(fun->decl))
        return 0; /* a counting copy of its own (pass-countfn.cc): counts whatever the mode */
    if (!pi_split_instrumented(fun))
        return 0;
    basic_block bb;
    if (pi_single_body(fun)) { /* clean-copies=loops|none: one, counting body */
        auto_vec<basic_block> bbs;
        FOR_EACH_BB_FN(bb, fun) bbs.safe_push(bb);
        pi_single_body_finish(fun, bbs);
        return 0;
    }

    /* a fresh empty entry block E, so the copy's entry has no PHIs */
    basic_block e = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
    auto_vec<basic_block> bbs;
    FOR_EACH_BB_FN(bb, fun) bbs.safe_push(bb);
    if (!can_copy_bbs_p(bbs.address(), bbs.length())) {
        pi_return_site_mark(fun, bbs); /* the one, counting body */
        return 0;
    }

    /* copy the loop tree, then the blocks into the copied loops */
    initialize_original_copy_tables();
    if (current_loops) {
        class loop *root = current_loops->tree_root;
        auto_vec<class loop *> top;
        for (class loop *l = root->inner; l; l = l->next)
            top.safe_push(l);
        for (unsigned i = 0; i < top.length(); i++)
            duplicate_subloops(top[i], duplicate_loop(top[i], root));
    }
    auto_vec<basic_block> copies;
    copies.safe_grow(bbs.length());
    copy_bbs(bbs.address(), bbs.length(), copies.address(), NULL, 0, NULL,
             current_loops ? current_loops->tree_root : NULL, EXIT_BLOCK_PTR_FOR_FN(fun)->prev_bb,
             false);
    add_phi_args_after_copy(copies.address(), copies.length(), NULL);
    basic_block e_copy = get_bb_copy(e);
    free_original_copy_tables();
    pi_return_site_mark(fun, copies);

    /* the dispatch D: the function's own jump slot (or switch byte) when
       this compilation made it (an overlay can turn it off), else the mode
       register */
    basic_block d = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
    int fi = in_lto_p ? -1 : pi_split_switch_index(fun->decl);
    edge off = single_succ_edge(d);
    /* D: if (SWITCH != 0) goto E'; else goto E;  With entry=jump it becomes
       the slot's jmp at the end (jump_dispatch), after the early passes
       ran again: with the jmp in place first, if-to-switch left the chain
       of odd_pick (tests/count/switch-conv.c) alone, whose first block
       then held the asm goto's label (not traced further into GCC) */
    edge on = pi_split_add_test(d, fi, e_copy);
    /* Even odds, measured: giving the clean copy 80 % and scaling each
       copy's block counts to its share made PERFINST_MODE=off no cheaper
       and counting 1-3 % dearer in instructions on SQLite (the counting
       copy's code got the treatment of cold code; bench/RESULTS.md,
       2026-11-22).  The clean path is already the fall-through. */
    on->probability = profile_probability::even();
    off->probability = profile_probability::even();
    e_copy->count = e->count = d->count.apply_probability(profile_probability::even());

    auto_bitmap dead;
    pi_split_strip(bbs, dead);
    pi_split_update(fun);
    unsigned int todo = TODO_cleanup_cfg;
    /* switch-again=yes (-O0, -Og: GCC's early optimisations did not run) */
    if (pi_opt.switch_again && optimize && !optimize_debug && !pi_counted_late(fun->decl)) {
        simple_dce_from_worklist(dead);
        cleanup_tree_cfg();
        todo |= pi_split_rerun_early_passes(fun);
    }
    if (fi >= 0 && pi_entry_jump_usable() && pi_fnon_asm_name())
        todo |= jump_dispatch(fun, fi);
    return todo;
}

static bool split_gate(function *fun) { return !seen_error() && pi_unit_instrumented(); }
PI_GIMPLE_PASS(split, PROP_cfg | PROP_ssa)
