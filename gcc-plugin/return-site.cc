/* return-site.cc — the return block stays a bare `return` until the split,
 * so that ipa-split can outline the rest of a counted function as it does
 * at -O2 (docs/design.md, "The return block").
 *
 * GCC's ipa-split (partial inlining, before IPA) needs the function's one
 * return block to hold nothing but `return [VAL]` (find_return_bb); the
 * count pass used to put the block's site marker and counter update
 * there, so a counted function was never split, and its clean copy lost
 * the partial inlining -O2 does (`if (fast) return x; return slow(...);`
 * inlined as the test, the slow part a `.part` call).  Now:
 *
 *     before (pass-count)                     after
 *
 *     bb 5: ... goto bb 7;                    bb 5: ... __perfinst_ctr[R] += 1; goto bb 7;
 *     bb 6: ... goto bb 7;                    bb 6: ... __perfinst_ctr[R] += 1; goto bb 7;
 *     bb 7: # perfinst site U R               bb 7: return D;
 *           __perfinst_ctr[R] += 1
 *           return D;
 *
 * - the counter update goes on every edge into the return block (at the
 *   end of a predecessor with one successor, else in a new block on the
 *   edge): each execution of the block follows exactly one of them, so
 *   the count is exact; a block sharing another's counter gets none;
 * - the site marker is put back by pass-split, in the counting copy only,
 *   before the `return` of the function's (or its ipa-cp/ipa-sra clone's)
 *   return blocks; ipa-split's `.part` functions and inlined copies get
 *   none (the site keeps its count, and its code range where the function
 *   stays out of line).
 *
 * Only with -fplugin-arg-perfinst-bare-return=yes: ipa-split judges by its
 * own size estimates, counters included, and then splits functions -O2
 * inlines whole; on SQLite the off mode ran 1.3 % more instructions with
 * it (bench/RESULTS.md, offmode-early).
 *
 * The table of deferred markers lives in this compiler process, so with
 * -flto (pass-split then runs in lto1) return blocks are instrumented in
 * place as before, and so are narrow counters (narrow.cc).
 */
#include "plugin.h"

/* function -> its return block's site, for pass-split */
static hash_map<tree, unsigned> *deferred;

basic_block pi_bare_return_block(function *fun, basic_block entry)
{
    if (!pi_opt.bare_return || (flag_lto && *flag_lto))
        return NULL;
    basic_block exitb = EXIT_BLOCK_PTR_FOR_FN(fun);
    if (!single_pred_p(exitb))
        return NULL;
    basic_block r = single_pred(exitb);
    if (r == entry || r == ENTRY_BLOCK_PTR_FOR_FN(fun) || EDGE_COUNT(r->preds) == 0)
        return NULL;
    bool ret = false;
    for (gimple_stmt_iterator gsi = gsi_start_bb(r); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gimple_code(g) == GIMPLE_LABEL || is_gimple_debug(g))
            continue;
        if (gimple_code(g) != GIMPLE_RETURN || ret)
            return NULL;
        ret = true;
    }
    if (!ret)
        return NULL;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, r->preds)
    if ((e->flags & (EDGE_ABNORMAL | EDGE_EH)) || e->src == ENTRY_BLOCK_PTR_FOR_FN(fun))
        return NULL;
    return r;
}

void pi_return_site_instrument(basic_block r, unsigned site, tree counter, location_t loc)
{
    if (!deferred) {
        deferred = new hash_map<tree, unsigned>;
        pi_gc_root_map(&deferred);
    }
    deferred->put(current_function_decl, site);
    if (!counter)
        return;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, r->preds)
    {
        gimple_seq seq = NULL;
        tree old = pi_tmp_reg(uint64_type_node, "pi");
        tree inc = pi_tmp_reg(uint64_type_node, "pi");
        gimple_seq_add_stmt(&seq, gimple_build_assign(old, unshare_expr(counter)));
        gimple_seq_add_stmt(&seq, gimple_build_assign(inc, PLUS_EXPR, old, build_int_cst(uint64_type_node, 1)));
        gimple_seq_add_stmt(&seq, gimple_build_assign(unshare_expr(counter), inc));
        for (gimple_stmt_iterator g = gsi_start(seq); !gsi_end_p(g); gsi_next(&g))
            gimple_set_location(gsi_stmt(g), loc);
        gsi_insert_seq_on_edge(e, seq);
    }
    gsi_commit_edge_inserts();
}

/* The site whose marker FUN's return blocks get back: FUN's own, or that
 * of the function an ipa-cp/ipa-sra clone was made from; none for an
 * ipa-split part (its return is not the function's return block). */
static bool deferred_site(tree decl, unsigned *site)
{
    for (int depth = 0; deferred && depth < 8 && decl && TREE_CODE(decl) == FUNCTION_DECL; depth++) {
        cgraph_node *n = cgraph_node::get(decl);
        if (n && n->split_part)
            return false;
        if (unsigned *s = deferred->get(decl)) {
            *site = *s;
            return true;
        }
        decl = pi_clone_origin(decl);
    }
    return false;
}

void pi_return_site_mark(function *fun, const vec<basic_block> &counting)
{
    unsigned site;
    if (!deferred_site(fun->decl, &site))
        return;
    for (unsigned i = 0; i < counting.length(); i++) {
        basic_block bb = counting[i];
        gimple_stmt_iterator gsi = gsi_last_bb(bb);
        if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) != GIMPLE_RETURN || !single_succ_p(bb))
            continue;
        gsi_insert_before(&gsi, pi_site_marker(site, gimple_location(gsi_stmt(gsi))), GSI_SAME_STMT);
    }
}
