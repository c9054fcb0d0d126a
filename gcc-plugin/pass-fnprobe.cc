/* pass-fnprobe.cc — function probes for counter combinations and dormant
 * classes (seed 004 M24, M25), run from the count pass.
 *
 * A function that counter combinations may name (plugin argument
 * combine=marked|all) or that carries `dormant(types=...)` gets a probe
 * pair around its body, in its counting copy only (the split pass deletes
 * probe calls from the clean copy):
 *
 *     PERFINST("count", "dormant(types=branch)")     bb 2: # perfinst site U 0
 *     int f(int n) {                                        t0 = __perfinst_fn_enter(U, 0, TYPES, N)
 *         ...                               →               __perfinst_ctr[0] += 1
 *         return s;                                         ...
 *     }                                                     __perfinst_fn_exit(U, 0, t0)
 *                                                           return s;
 *
 * The enter probe runs before the entry block's counter update, so the
 * runtime's snapshot of the function's counters at entry and their values
 * at exit differ by exactly the blocks this invocation executed
 * (runtime/armed.c).  Both probes return at once for a function no
 * combination names and whose dormant class is off: the instrumentation is
 * compiled in but off until the runtime arms it.
 */
#include "plugin.h"

static tree probe_decl(const char *name, tree ret, tree a1, tree a2, tree a3, tree a4)
{
    tree type = build_function_type_list(ret, a1, a2, a3, a4, NULL_TREE);
    tree decl = build_fn_decl(name, type);
    TREE_NOTHROW(decl) = 1;
    return decl;
}

bool pi_fnprobe_wanted(const struct pi_directive_spec *specs, int nspec, bool marked)
{
    for (int i = 0; i < nspec; i++)
        if (specs[i].kind == PI_D_DORMANT)
            return true;
    return pi_opt.combine == 2 || (pi_opt.combine == 1 && marked);
}

void pi_fnprobe_instrument(function *fun, basic_block entry, unsigned site,
                           const struct pi_directive_spec *specs, int nspec)
{
    tree u64 = uint64_type_node, u32 = unsigned_type_node;
    uint32_t dtypes = 0;
    uint64_t dthr = 0;
    for (int i = 0; i < nspec; i++)
        if (specs[i].kind == PI_D_DORMANT) {
            dtypes |= specs[i].arg;
            dthr = specs[i].threshold;
        }
    tree id = build_int_cst(u64, pi_unit_id()), st = build_int_cst(u32, site);
    location_t loc = DECL_SOURCE_LOCATION(fun->decl);

    /* after the site marker, before the counter update */
    gimple_stmt_iterator gsi = gsi_after_labels(entry);
    if (!gsi_end_p(gsi) && gimple_code(gsi_stmt(gsi)) == GIMPLE_ASM)
        gsi_next(&gsi);
    tree t0 = pi_tmp_reg(u64, "pi_fn");
    gcall *enter = gimple_build_call(probe_decl("__perfinst_fn_enter", u64, u64, u32, u32, u64), 4, id, st,
                                     build_int_cst(u32, dtypes), build_int_cst(u64, dthr));
    gimple_call_set_lhs(enter, t0);
    gimple_set_location(enter, loc);
    if (gsi_end_p(gsi))
        gsi_insert_after(&gsi, enter, GSI_NEW_STMT);
    else
        gsi_insert_before(&gsi, enter, GSI_SAME_STMT);

    tree exitfn = probe_decl("__perfinst_fn_exit", void_type_node, u64, u32, u64, NULL_TREE);
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds)
    {
        gimple *last = last_stmt(e->src);
        if (!last || gimple_code(last) != GIMPLE_RETURN)
            continue;
        gimple_stmt_iterator r = gsi_for_stmt(last);
        gcall *exitc = gimple_build_call(exitfn, 3, id, st, t0);
        gimple_set_location(exitc, loc);
        gsi_insert_before(&r, exitc, GSI_SAME_STMT);
    }
}
