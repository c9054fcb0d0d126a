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
 * labels) stay single-copy and count whatever the mode.
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

static tree mode_register;

tree pi_split_mode_register(void)
{
    if (!mode_register) {
        mode_register = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("__perfinst_on"),
                                   integer_type_node);
        DECL_EXTERNAL(mode_register) = 1;
        TREE_PUBLIC(mode_register) = 1;
        TREE_THIS_VOLATILE(mode_register) = 0;
        DECL_ARTIFICIAL(mode_register) = 1;
        DECL_IGNORED_P(mode_register) = 1;
        varpool_node::get_create(mode_register);
    }
    return mode_register;
}

/* The counter array of any unit (LTO may have renamed it). */
static bool is_counter_var(tree t)
{
    if (!t || TREE_CODE(t) != VAR_DECL || !DECL_THREAD_LOCAL_P(t) || !DECL_NAME(t))
        return false;
    return strncmp(IDENTIFIER_POINTER(DECL_NAME(t)), "__perfinst_ctr", 14) == 0;
}

static bool is_counter_store(gimple *g)
{
    return gimple_store_p(g) && gimple_assign_single_p(g) && is_counter_var(get_base_address(gimple_assign_lhs(g)));
}

static bool is_site_marker(gimple *g)
{
    return gimple_code(g) == GIMPLE_ASM &&
           strncmp(gimple_asm_string(as_a<gasm *>(g)), PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) == 0;
}

/* A call to one of libperfinst's probes (include/perfinst.h's ABI list;
 * not the registration calls of the generated constructor). */
static bool is_probe_call(gimple *g)
{
    static const char *const probes[] = {
        "__perfinst_trap", "__perfinst_threshold", "__perfinst_cycles_begin", "__perfinst_cycles_end",
        "__perfinst_trace_start", "__perfinst_trace_stop", "__perfinst_watch",
        "__perfinst_fn_enter", "__perfinst_fn_exit", "__perfinst_spill", /* pass-fnprobe.cc, narrow.cc */
        "__perfinst_icall", /* pass-count.cc: indirect-call targets */
    };
    tree fn = is_gimple_call(g) ? gimple_call_fndecl(g) : NULL_TREE;
    if (!fn || !DECL_NAME(fn))
        return false;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        if (strcmp(IDENTIFIER_POINTER(DECL_NAME(fn)), probes[i]) == 0)
            return true;
    return false;
}

/* Two sweeps: statements that define nothing first (stores, markers, probe
 * calls without a result), then probe calls with a result (the cycles
 * start time), whose uses the first sweep removed.  Then the counters'
 * loads and adds, dead now (DEAD: the values stored, for
 * simple_dce_from_worklist once the SSA form is updated: until then the
 * counting copy's stores still use the clean copy's names), so that the
 * passes run again after the split (rerun_early_passes) see empty blocks
 * where the counters were. */
static void strip_statements(const vec<basic_block> &bbs);

void pi_split_strip(const vec<basic_block> &bbs, bitmap dead)
{
    for (unsigned i = 0; i < bbs.length(); i++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bbs[i]); !gsi_end_p(gsi); gsi_next(&gsi))
            if (is_counter_store(gsi_stmt(gsi)) && TREE_CODE(gimple_assign_rhs1(gsi_stmt(gsi))) == SSA_NAME)
                bitmap_set_bit(dead, SSA_NAME_VERSION(gimple_assign_rhs1(gsi_stmt(gsi))));
    strip_statements(bbs);
}

static void strip_statements(const vec<basic_block> &bbs)
{
    for (int sweep = 0; sweep < 2; sweep++)
        for (unsigned i = 0; i < bbs.length(); i++)
            for (gimple_stmt_iterator gsi = gsi_start_bb(bbs[i]); !gsi_end_p(gsi);) {
                gimple *g = gsi_stmt(gsi);
                bool probe = is_probe_call(g) && (sweep == 1) == (gimple_call_lhs(g) != NULL_TREE);
                if ((sweep == 0 && (is_counter_store(g) || is_site_marker(g))) || probe) {
                    unlink_stmt_vdef(g);
                    gsi_remove(&gsi, true);
                    release_defs(g);
                } else
                    gsi_next(&gsi);
            }
}

/* The function whose switch a body tests: itself when this unit gave it
 * an entry; for a clone GCC made (ipa-cp's .constprop, ipa-sra's .isra,
 * ipa-split's .part), the function it was cloned from, so an overlay that
 * turns that function on or off covers its clones too, and the test is
 * the one-instruction `cmpb $0, __perfinst_fnon+F(%rip)` rather than a
 * load of the mode register (an int in libperfinst, reached through a copy
 * relocation) and a `test`.  -1: none (the mode register decides). */
int pi_split_switch_index(tree decl)
{
    for (int depth = 0; depth < 8 && decl && TREE_CODE(decl) == FUNCTION_DECL; depth++) {
        int fi = pi_unit_func_index(decl);
        if (fi >= 0)
            return fi;
        decl = pi_clone_origin(decl);
    }
    return -1;
}

/* The function a clone GCC made was made from (one step), or NULL_TREE. */
tree pi_clone_origin(tree decl)
{
    if (tree f = pi_countfn_origin(decl))
        return f; /* f.count (pass-countfn.cc) */
    cgraph_node *n = cgraph_node::get(decl);
    tree up = n && n->former_clone_of ? n->former_clone_of
              : n && n->clone_of      ? n->clone_of->decl
                                      : DECL_ABSTRACT_ORIGIN(decl);
    return up == decl ? NULL_TREE : up;
}

/* The early passes whose work counters prevent (a case block holding a
 * counter is not an empty forwarder) and that no later pass redoes: in
 * GCC 12, if-to-switch and switch conversion (a switch of constants into
 * a table load, an if-chain into a switch/bit test) run only before IPA.
 * GCC's own passes, run again on the function once its clean copy has no
 * counters; they leave the counting copy as it is (its case blocks are
 * not empty).  Returns the TODO flags still to do. */
unsigned int pi_split_rerun_early_passes(function *fun)
{
    static opt_pass *passes[2];
    if (!passes[0]) {
        passes[0] = make_pass_if_to_switch(g);
        passes[1] = make_pass_convert_switch(g);
    }
    unsigned int todo = 0;
    for (unsigned i = 0; i < sizeof passes / sizeof passes[0]; i++) {
        if (!passes[i]->gate(fun))
            continue;
        if (todo & TODO_update_ssa_any)
            update_ssa(todo & TODO_update_ssa_any);
        if (todo & TODO_cleanup_cfg)
            cleanup_tree_cfg();
        todo = passes[i]->execute(fun) | passes[i]->todo_flags_finish;
    }
    return todo;
}

/* The entry's `jmp *SLOT(%rip)`, its slot in the module's __perfinst_jumps
 * section (starting at the counting copy, right after the jmp, as the
 * switch bytes start at 1) and the slot's perfinst-format.h struct
 * pi_jump_info.  Numeric
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

/* entry=jump needs a plain `jmp *mem` in AT&T syntax: with indirect
 * branch tracking (-fcf-protection=branch: the targets would need endbr64),
 * retpolines (-mindirect-branch=thunk…) or -masm=intel the entries keep the
 * byte test. */
bool pi_entry_jump_usable(void)
{
    return pi_opt.entry_jump && !(flag_cf_protection & CF_BRANCH) &&
           ix86_indirect_branch == indirect_branch_keep && ix86_asm_dialect == ASM_ATT;
}

/* entry=jump: D's byte test `if (SWITCH != 0) goto E'; else goto E;`
 * becomes asm goto ("jmp *SLOT(%rip)" :::: E) falling through to E'.
 * SLOT is the address right after the jmp (counting) or E (clean): one
 * instruction whichever copy runs.  The counting copy is the fall-through
 * so that, as with the byte test, a body GCC's cross-jumping shares
 * between the copies is laid out after the counting block, inside the
 * range pmopt's cache model gives its site (a range runs to the next one:
 * optimizer/plan-order.c).  Returns the TODO flags still to do; leaves the
 * byte test if D is not as execute_split built it. */
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

/* Does FUN hold counter updates or probe calls? */
bool pi_split_instrumented(function *fun)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (is_counter_store(gsi_stmt(gsi)) || is_probe_call(gsi_stmt(gsi)))
            return true;
    return false;
}

/* At the end of D, whose single successor edge becomes the false edge:
 * `if (SWITCH != 0) goto ON;` where SWITCH is the function's switch byte
 * FI, or the mode register when FI < 0.  Returns the new true edge. */
edge pi_split_add_test(basic_block d, int fi, basic_block on)
{
    edge off = single_succ_edge(d);
    gimple_stmt_iterator gsi = gsi_last_bb(d);
    tree src = fi >= 0 ? pi_fnon_ref(fi) : pi_split_mode_register();
    tree flag = make_ssa_name(TREE_TYPE(src));
    gsi_insert_after(&gsi, gimple_build_assign(flag, src), GSI_NEW_STMT);
    gsi_insert_after(&gsi, gimple_build_cond(NE_EXPR, flag, build_zero_cst(TREE_TYPE(src)), NULL_TREE, NULL_TREE),
                     GSI_NEW_STMT);
    off->flags = (off->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    return make_edge(d, on, EDGE_TRUE_VALUE);
}

/* After a split's edits of FUN's blocks (copies, strips, the dispatch):
 * dominators and loops to be recomputed, the SSA form brought up to date. */
void pi_split_update(function *fun)
{
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    if (current_loops)
        loops_state_set(LOOPS_NEED_FIXUP);
    mark_virtual_operands_for_renaming(fun);
    update_ssa(TODO_update_ssa);
}

static unsigned int execute_split(function *fun)
{
    if (pi_is_own_decl(fun->decl))
        return 0; /* the generated registration code is not instrumented */
    if (pi_countfn_origin(fun->decl))
        return 0; /* a counting copy of its own (pass-countfn.cc): counts whatever the mode */
    if (!pi_split_instrumented(fun))
        return 0;
    basic_block bb;

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
    if (pi_opt.switch_again && optimize && !optimize_debug) {
        simple_dce_from_worklist(dead);
        cleanup_tree_cfg();
        todo |= pi_split_rerun_early_passes(fun);
    }
    if (fi >= 0 && pi_entry_jump_usable() && pi_fnon_asm_name())
        todo |= jump_dispatch(fun, fi);
    return todo;
}

const pass_data split_pass_data = {
    GIMPLE_PASS, "perfinst_split", OPTGROUP_NONE, TV_NONE, PROP_cfg | PROP_ssa, 0, 0, 0, 0,
};

class split_pass : public gimple_opt_pass {
public:
    split_pass(gcc::context *ctxt) : gimple_opt_pass(split_pass_data, ctxt) {}
    bool gate(function *) final override { return !seen_error(); }
    unsigned int execute(function *fun) final override { return execute_split(fun); }
};

opt_pass *pi_make_split_pass(gcc::context *ctxt)
{
    return new split_pass(ctxt);
}
