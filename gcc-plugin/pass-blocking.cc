/* pass-blocking.cc — `blocking`: a function that is a blocking point of the
 * idle-transition sampler's dispatch monitor (seed 003; docs/sampling-stacks.md).
 *
 *   #pragma perfinst blocking            __attribute__((perfinst("blocking")))
 *   void wait_for_slot(struct pool *p)   void wait_for_slot(struct pool *p)
 *   { ... spin, futex, whatever ... }    {
 *                                            __perfinst_block_enter(0);
 *                                            ... spin, futex, whatever ...
 *                                            __perfinst_block_exit();   (before every return)
 *                                        }
 *
 * GIMPLE, right after the CFG is built (with the count pass), so the calls
 * go wherever the body goes when it is inlined.  While the thread is
 * between the two calls it counts as blocked: its CPU may be idle of
 * monitored threads, and an idle tick may take its stack (the leaf is the
 * marked function or what it called).  The calls cost one load and a branch
 * when PERFINST_IDLE is off.  An exit by longjmp or an exception skips the
 * exit call: the thread then counts as blocked until its next blocking point
 * (documented).
 */
#include "plugin.h"

static tree block_decl(const char *name, tree arg)
{
    tree type = build_function_type_list(void_type_node, arg, NULL_TREE);
    tree decl = build_fn_decl(name, type);
    TREE_NOTHROW(decl) = 1;
    return decl;
}

static bool marked_blocking(tree fndecl)
{
    struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
    int n = pi_decl_directives(fndecl, specs, PI_MAX_DIRECTIVES);
    for (int i = 0; i < n; i++)
        if (specs[i].kind == PI_D_BLOCKING)
            return true;
    return false;
}

static unsigned int blocking_execute(function *fun)
{
    if (!marked_blocking(fun->decl) || pi_is_own_decl(fun->decl))
        return 0;
    static tree enter, leave;
    if (!enter) {
        enter = block_decl("__perfinst_block_enter", unsigned_type_node);
        leave = block_decl("__perfinst_block_exit", NULL_TREE);
        pi_gc_root(&enter);
        pi_gc_root(&leave);
    }
    location_t loc = DECL_SOURCE_LOCATION(fun->decl);

    /* every return: the exit call just before it */
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds) {
        gimple_stmt_iterator gsi = gsi_last_bb(e->src);
        if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) != GIMPLE_RETURN)
            continue; /* a noreturn call ends this block: no exit */
        gcall *call = gimple_build_call(leave, 0);
        gimple_set_location(call, gimple_location(gsi_stmt(gsi)));
        gsi_insert_before(&gsi, call, GSI_SAME_STMT);
        /* An empty volatile asm after it: not a tail call, so the marked
         * function's frame is still there when a from-idle sample walks the
         * stack from inside the exit call. */
        gasm *barrier = gimple_build_asm_vec("", NULL, NULL, NULL, NULL);
        gimple_asm_set_volatile(barrier, true);
        gsi_insert_before(&gsi, barrier, GSI_SAME_STMT);
    }
    /* the entry: the enter call first */
    basic_block first = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    gimple_stmt_iterator gsi = gsi_after_labels(first);
    gcall *call = gimple_build_call(enter, 1, build_int_cst(unsigned_type_node, 0));
    gimple_set_location(call, loc);
    if (gsi_end_p(gsi))
        gsi_insert_after(&gsi, call, GSI_NEW_STMT);
    else
        gsi_insert_before(&gsi, call, GSI_SAME_STMT);
    return 0;
}

static bool blocking_gate(function *fun) { return !seen_error(); }
PI_GIMPLE_PASS(blocking, PROP_cfg)
