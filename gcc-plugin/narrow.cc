/* narrow.cc — narrow counters with spills (seeds 000 M16, 002 M15, 004 M8:
 * a small counter in the instruction, an overflow threshold, a read into a
 * 64-bit aggregate and a reset).  Called by the count pass for a block
 * whose counter is narrow: `count(width=N)` on the function or statement,
 * or -fplugin-arg-perfinst-counter-width=N, N = 8, 16 or 32.
 *
 *     bb 3: # perfinst site U 1                 bb 3: # perfinst site U 1
 *           __perfinst_ctr[1] += 1       →            n = MEM<uint16>[&__perfinst_ctr + 8]
 *           ...                                        n = n + 1
 *                                                      MEM<uint16>[&__perfinst_ctr + 8] = n
 *                                                      if (n == 0) goto spill; else goto rest
 *                                               spill: __perfinst_spill(U, 1, 1, 16)
 *                                               rest:  ...
 *
 * The counter is the low N bits of the site's 8-byte slot (little-endian):
 * each execution touches N bits, and when they wrap to 0 the runtime adds
 * 2^N to the unit's 64-bit total of that counter (runtime/narrow.c).  The
 * slot's other bits stay 0, so what the runtime flushes from the slot is
 * the narrow counter's residue, and total + residue is the exact count.
 * The store's base is the counter array itself, so the split pass strips
 * it from the clean copy like any counter update, and the spill probe with
 * the other probes.
 */
#include "plugin.h"
#include "cfgloop.h"

void pi_narrow_increment(basic_block bb, gimple_stmt_iterator *gsi, tree ref, unsigned site,
                         unsigned counter, unsigned width, location_t loc)
{
    tree type = width == 8 ? unsigned_char_type_node : width == 16 ? short_unsigned_type_node
                                                                   : unsigned_type_node;
    tree var = TREE_OPERAND(ref, 0);
    tree off = build_int_cst(build_pointer_type(char_type_node), (HOST_WIDE_INT)counter * 8);
    tree mem = build2(MEM_REF, type, build_fold_addr_expr(var), off);
    tree old = pi_tmp_reg(type, "pi_n");
    tree inc = pi_tmp_reg(type, "pi_n");
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, gimple_build_assign(old, mem));
    gimple_seq_add_stmt(&seq, gimple_build_assign(inc, PLUS_EXPR, old, build_int_cst(type, 1)));
    gimple *store = gimple_build_assign(unshare_expr(mem), inc);
    gimple_seq_add_stmt(&seq, store);
    gcond *cond = gimple_build_cond(EQ_EXPR, inc, build_int_cst(type, 0), NULL_TREE, NULL_TREE);
    gimple_seq_add_stmt(&seq, cond);
    for (gimple_stmt_iterator g = gsi_start(seq); !gsi_end_p(g); gsi_next(&g))
        gimple_set_location(gsi_stmt(g), loc);
    gsi_insert_seq_before(gsi, seq, GSI_SAME_STMT);

    /* bb: ... if (n == 0)  →  spill (rare) → rest;  else → rest */
    edge fall = split_block(bb, cond);
    basic_block rest = fall->dest;
    fall->flags = (fall->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    basic_block spill = create_empty_bb(bb);
    if (current_loops)
        add_bb_to_loop(spill, bb->loop_father);
    edge t = make_edge(bb, spill, EDGE_TRUE_VALUE);
    make_single_succ_edge(spill, rest, EDGE_FALLTHRU);
    t->probability = profile_probability::very_unlikely();
    fall->probability = t->probability.invert();
    spill->count = bb->count.apply_probability(t->probability);

    tree u64 = uint64_type_node, u32 = unsigned_type_node;
    tree fn = build_fn_decl("__perfinst_spill",
                            build_function_type_list(void_type_node, u64, u32, u32, u32, NULL_TREE));
    TREE_NOTHROW(fn) = 1;
    gcall *call = gimple_build_call(fn, 4, build_int_cst(u64, pi_unit_id()), build_int_cst(u32, site),
                                    build_int_cst(u32, counter), build_int_cst(u32, width));
    gimple_set_location(call, loc);
    gimple_stmt_iterator s = gsi_start_bb(spill);
    gsi_insert_after(&s, call, GSI_NEW_STMT);
}
