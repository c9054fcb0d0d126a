/* pass-countfn.cc — the counting copy as a function of its own
 * (-fplugin-arg-perfinst-counting=function; docs/indicators.md, "The
 * prologue").
 *
 * pass-split.cc puts both copies of an instrumented function in ONE
 * function, so GCC gives them one prologue: where the counting copy needs
 * callee-saved registers (a probe around a call), the clean copy pays the
 * pushes and pops before the dispatch even where -O2's function has no
 * frame.  This pass instead makes the counting copy a function of its own:
 *
 *     f(a, b) {                          f(a, b) {
 *       bb1: # perfinst site U 0           if (__perfinst_fnon[F] != 0)
 *            __perfinst_ctr[0] += 1   →       return f.count.0(a, b);   // a sibling call
 *            ...                           ...                           // no counters, no markers
 *     }                                  }
 *                                        static f.count.0(a, b) {        // the body as it was
 *                                          bb1: # perfinst site U 0
 *                                               __perfinst_ctr[0] += 1 ...
 *                                        }
 *
 * so f is the byte test plus exactly the code -O2 would make of it, and
 * shrink-wrapping leaves f's prologue after the test:
 *
 *     f:  cmpb $0, __perfinst_fnon+F(%rip)
 *         jne  .Lc                            (.Lc: jmp f.count.0)
 *         <-O2's f>
 *
 * The call is marked as a tail call: f.count.0 runs on f's frame, so a
 * stack taken inside it (threshold and trap handlers, samples) shows f's
 * caller above it, as with one function.  f.count.0 is f's clone
 * (DECL_ABSTRACT_ORIGIN f; pi_clone_origin): its site markers are f's
 * sites, its code is attributed to f by pass-ranges' CODE chunks, its
 * return blocks get f's deferred return site, and pass-split leaves it
 * alone (it counts whatever the mode).
 *
 * Where: a simple IPA pass after "simdclone", the last of GCC 12's late IPA
 * passes, i.e. after inlining and before any function is expanded (new
 * functions can be added here, as the OpenMP simd clones are); the inline
 * transforms are applied first (cgraph_node::get_body, as ipa-pta does).
 * The function then goes through every per-function pass as usual, and
 * the clean f is optimised without counters.
 *
 * Left to pass-split's in-function copies (one function, the same dispatch):
 * -O0/-Og or -fno-optimize-sibling-calls (no sibling call), -flto units,
 * entry=jump, variadic and nested functions, functions returning an
 * aggregate or a value not in registers, functions GCC cannot version or
 * whose blocks cannot be copied (setjmp, computed goto, nonlocal labels),
 * and the generated registration code.
 */
#include "plugin.h"
#include "cfgloop.h"
#include "cfganal.h"
#include "tree-inline.h"
#include "tree-dfa.h"
#include "tree-into-ssa.h"
#include "tree-ssanames.h"
#include "tree-ssa.h"
#include "calls.h"
#include "tree-cfgcleanup.h"
#include "tree-ssa-dce.h"

/* f.count → f (decls live as long as the unit: not a GC root) */
static hash_map<tree, tree> *counting_copies;

tree pi_countfn_origin(tree decl)
{
    tree *f = counting_copies ? counting_copies->get(decl) : NULL;
    return f ? *f : NULL_TREE;
}

static bool usable_signature(tree decl)
{
    if (stdarg_p(TREE_TYPE(decl)) || DECL_STATIC_CHAIN(decl))
        return false;
    tree res = DECL_RESULT(decl);
    if (!res || aggregate_value_p(res, decl) || DECL_BY_REFERENCE(res))
        return false;
    if (!VOID_TYPE_P(TREE_TYPE(res)) && !is_gimple_reg_type(TREE_TYPE(res)))
        return false;
    for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p))
        if (!is_gimple_reg_type(TREE_TYPE(p)) && TREE_ADDRESSABLE(TREE_TYPE(p)))
            return false;
    return true;
}

/* Can FUN be split into f and f.count?  (cfun == FUN) */
static bool splittable(function *fun)
{
    if (fun->calls_setjmp || fun->has_nonlocal_label || fun->has_forced_label_in_static ||
        fun->can_throw_non_call_exceptions)
        return false;
    auto_vec<basic_block> bbs;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) bbs.safe_push(bb);
    return can_copy_bbs_p(bbs.address(), bbs.length());
}

/* In f (cfun): D at the entry, `if (SWITCH != 0) goto C; else goto
 * <f's body>;` and C: `[r =] f.count (params...); return [r];`. */
static gcall *add_dispatch(function *fun, tree copy, int fi)
{
    tree decl = fun->decl;
    basic_block d = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
    edge off = single_succ_edge(d);
    basic_block c = create_empty_bb(d);
    if (current_loops)
        add_bb_to_loop(c, current_loops->tree_root);

    gimple_stmt_iterator gsi = gsi_last_bb(d);
    tree src = fi >= 0 ? pi_fnon_ref(fi) : pi_split_mode_register();
    tree flag = make_ssa_name(TREE_TYPE(src));
    gsi_insert_after(&gsi, gimple_build_assign(flag, src), GSI_NEW_STMT);
    gsi_insert_after(&gsi, gimple_build_cond(NE_EXPR, flag, build_zero_cst(TREE_TYPE(src)), NULL_TREE, NULL_TREE),
                     GSI_NEW_STMT);
    off->flags = (off->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    edge on = make_edge(d, c, EDGE_TRUE_VALUE);
    /* the clean path is f's own: the fall-through, with the whole count */
    on->probability = profile_probability::unlikely();
    off->probability = on->probability.invert();
    c->count = d->count.apply_probability(on->probability);

    gsi = gsi_start_bb(c);
    auto_vec<tree> args;
    for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p)) {
        if (is_gimple_reg(p))
            args.safe_push(get_or_create_ssa_default_def(fun, p));
        else if (!is_gimple_reg_type(TREE_TYPE(p)))
            args.safe_push(p); /* an aggregate, passed as it came */
        else {                 /* an addressable scalar: its value */
            tree v = make_ssa_name(TREE_TYPE(p));
            gsi_insert_after(&gsi, gimple_build_assign(v, p), GSI_NEW_STMT);
            args.safe_push(v);
        }
    }
    gcall *call = gimple_build_call_vec(copy, args);
    tree rtype = TREE_TYPE(DECL_RESULT(decl));
    tree r = VOID_TYPE_P(rtype) ? NULL_TREE : make_ssa_name(rtype);
    if (r)
        gimple_call_set_lhs(call, r);
    gimple_call_set_tail(call, true); /* nothing of f's frame is live: f.count runs on it */
    gimple_set_location(call, DECL_SOURCE_LOCATION(decl));
    gsi_insert_after(&gsi, call, GSI_NEW_STMT);
    greturn *ret = gimple_build_return(r);
    gsi_insert_after(&gsi, ret, GSI_NEW_STMT);
    make_edge(c, EXIT_BLOCK_PTR_FOR_FN(fun), 0)->probability = profile_probability::always();
    return call;
}

/* NODE's f.count, and f made clean; false if NODE stays as it is. */
static bool split_off_counting(cgraph_node *node)
{
    tree decl = node->decl;
    /* a clone of ipa-cp/ipa-sra not made yet (GCC 12 makes them when
       their body is first asked for, as at expansion) */
    if (node->clone_of)
        node->get_untransformed_body();
    if (node->clone_of)
        return false;
    if (pi_is_own_decl(decl) || !usable_signature(decl) || !tree_versionable_function_p(decl))
        return false;
    node->get_body();
    function *fun = DECL_STRUCT_FUNCTION(decl);
    if (!fun || !fun->cfg)
        return false;
    push_cfun(fun);
    bool go = pi_split_instrumented(fun) && splittable(fun);
    pop_cfun();
    if (!go)
        return false;

    cgraph_node *copy = node->create_version_clone_with_body(vNULL, NULL, NULL, NULL, NULL, "count");
    if (!copy)
        return false;
    if (!counting_copies)
        counting_copies = new hash_map<tree, tree>;
    counting_copies->put(copy->decl, decl);

    /* the counting copy: f's return blocks get their deferred site
       marker (return-site.cc), as pass-split's counting copy does */
    push_cfun(DECL_STRUCT_FUNCTION(copy->decl));
    {
        auto_vec<basic_block> bbs;
        basic_block bb;
        FOR_EACH_BB_FN(bb, cfun) bbs.safe_push(bb);
        pi_return_site_mark(cfun, bbs);
    }
    pop_cfun();

    push_cfun(fun);
    auto_vec<basic_block> bbs;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) bbs.safe_push(bb);
    auto_bitmap dead;
    pi_split_strip(bbs, dead);
    add_dispatch(fun, copy->decl, pi_split_switch_index(decl));
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    if (current_loops)
        loops_state_set(LOOPS_NEED_FIXUP);
    mark_virtual_operands_for_renaming(fun);
    update_ssa(TODO_update_ssa);
    /* switch-again=yes: as pass-split does for its clean copy */
    if (pi_opt.switch_again) {
        simple_dce_from_worklist(dead);
        cleanup_tree_cfg();
        unsigned int todo = pi_split_rerun_early_passes(fun);
        if (todo & TODO_update_ssa_any)
            update_ssa(todo & TODO_update_ssa_any);
        if (todo & TODO_cleanup_cfg)
            cleanup_tree_cfg();
    }
    cgraph_edge::rebuild_edges();
    pop_cfun();
    if (pi_opt.verbose)
        inform(DECL_SOURCE_LOCATION(decl), "perfinst: %qD counts in %qD", decl, copy->decl);
    return true;
}

static unsigned int execute_countfn(void)
{
    auto_vec<cgraph_node *> todo;
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    if (node->has_gimple_body_p() && (!node->clone_of || node->clone_of->decl != node->decl) &&
        !node->inlined_to && !node->thunk &&
        !pi_countfn_origin(node->decl))
        todo.safe_push(node);
    for (unsigned i = 0; i < todo.length(); i++)
        split_off_counting(todo[i]);
    return 0;
}

const pass_data countfn_pass_data = {
    SIMPLE_IPA_PASS, "perfinst_countfn", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0,
};

class countfn_pass : public simple_ipa_opt_pass {
public:
    countfn_pass(gcc::context *ctxt) : simple_ipa_opt_pass(countfn_pass_data, ctxt) {}
    bool gate(function *) final override
    {
        return pi_opt.counting_function && !seen_error() && optimize && !optimize_debug &&
               flag_optimize_sibling_calls && !in_lto_p && !(flag_lto && *flag_lto) && !pi_entry_jump_usable();
    }
    unsigned int execute(function *) final override { return execute_countfn(); }
};

opt_pass *pi_make_countfn_pass(gcc::context *ctxt)
{
    return new countfn_pass(ctxt);
}
