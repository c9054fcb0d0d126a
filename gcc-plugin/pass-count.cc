/* pass-count.cc — the `count` directive: exact execution counts of basic
 * blocks (seed 004 M1, M8, M13; seed 000's per-instruction counters).
 *
 * Runs right after the CFG is built ("cfg", in the lowering passes), before
 * any optimisation or inlining, so each count belongs to a block of the
 * source function wherever optimisation later copies or inlines it.
 *
 *     #pragma perfinst count            bb 2:  # perfinst site UNIT 0
 *     int f(int n) {                            __perfinst_ctr[0] += 1
 *         int s = 0;                            s = 0; i = 0; goto bb 4
 *         for (int i = 0; i < n; i++)   bb 3:  # perfinst site UNIT 1
 *             s += i;                           __perfinst_ctr[1] += 1
 *         return s;                             s = s + i; i = i + 1
 *     }                                 bb 4:  # perfinst site UNIT 2
 *                                               __perfinst_ctr[2] += 1
 *                                               if (i < n) goto bb 3 ...
 *
 * Every instrumented block becomes a site (unit.cc): its counter, its
 * source line, its successors.  The `# perfinst site` asm is empty; the
 * late RTL pass (pass-ranges.cc) turns each surviving copy into a label
 * and records where the block's code ended up.
 *
 * Which blocks: all of a function marked `count` (by attribute, pragma or
 * -fplugin-arg-perfinst-all=count); for a statement marked by a pragma
 * inside a body, the blocks between its BEGIN marker and the END markers
 * that try/finally placed on every exit of the statement (pragma.cc).
 * The counter array is thread-local: increments are plain adds, exact
 * under threads, and never share a cache line with another thread.
 */
#include "plugin.h"

static bool skip_function(tree fndecl)
{
    /* (not DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT: the C front end sets it on
       every function when -finstrument-functions is off) */
    return pi_is_own_decl(fndecl) || DECL_ARTIFICIAL(fndecl) ||
           lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fndecl));
}

/* Start a new block at g unless g already starts one; returns g's block. */
static basic_block block_starting_at(gimple *g)
{
    basic_block bb = gimple_bb(g);
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    gsi_prev(&gsi);
    while (!gsi_end_p(gsi) && (gimple_code(gsi_stmt(gsi)) == GIMPLE_LABEL || is_gimple_debug(gsi_stmt(gsi))))
        gsi_prev(&gsi);
    if (gsi_end_p(gsi))
        return bb;
    return split_block(bb, gsi_stmt(gsi))->dest;
}

struct marker {
    gimple *stmt;
    unsigned id;
    int what;
};

/* Blocks of the statement region `id`: reachable from its BEGIN without
 * entering a block that starts with one of its END markers. */
static void mark_region(function *fun, const vec<marker> &marks, unsigned id, basic_block begin,
                        sbitmap in)
{
    auto_sbitmap stop(last_basic_block_for_fn(fun));
    bitmap_clear(stop);
    for (unsigned i = 0; i < marks.length(); i++)
        if (marks[i].id == id && marks[i].what == PI_MARK_END)
            bitmap_set_bit(stop, gimple_bb(marks[i].stmt)->index);
    auto_vec<basic_block> work;
    auto_sbitmap seen(last_basic_block_for_fn(fun));
    bitmap_clear(seen);
    work.safe_push(begin);
    bitmap_set_bit(seen, begin->index);
    while (!work.is_empty()) {
        basic_block bb = work.pop();
        if (bitmap_bit_p(stop, bb->index))
            continue;
        bitmap_set_bit(in, bb->index);
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        if (e->dest != EXIT_BLOCK_PTR_FOR_FN(fun) && !bitmap_bit_p(seen, e->dest->index)) {
            bitmap_set_bit(seen, e->dest->index);
            work.safe_push(e->dest);
        }
    }
}

static location_t first_location(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gimple_code(g) == GIMPLE_LABEL || is_gimple_debug(g))
            continue;
        if (gimple_location(g) != UNKNOWN_LOCATION)
            return gimple_location(g);
    }
    return UNKNOWN_LOCATION;
}

/* A block's source location: its first located statement; for a block with
 * none (the merged return block, an empty jump target), the function's
 * closing brace if it returns, else the location of a predecessor's last
 * statement — where gcov would show it. */
static location_t block_location(basic_block bb)
{
    location_t loc = first_location(bb);
    if (loc != UNKNOWN_LOCATION)
        return loc;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
        return cfun->function_end_locus;
    FOR_EACH_EDGE(e, ei, bb->preds)
    {
        gimple_stmt_iterator gsi = gsi_last_bb(e->src);
        if (!gsi_end_p(gsi) && gimple_location(gsi_stmt(gsi)) != UNKNOWN_LOCATION)
            return gimple_location(gsi_stmt(gsi));
    }
    return UNKNOWN_LOCATION;
}

static void instrument_block(basic_block bb, unsigned site, unsigned counter)
{
    location_t loc = block_location(bb);
    char text[96];
    snprintf(text, sizeof text, PI_MARKER_PREFIX "%016llx %u", (unsigned long long)pi_unit_id(), site);
    gasm *marker = gimple_build_asm_vec(ggc_strdup(text), NULL, NULL, NULL, NULL);
    gimple_asm_set_volatile(marker, true);

    tree ref = pi_counter_ref(counter);
    tree old = create_tmp_reg(uint64_type_node, "pi");
    tree inc = create_tmp_reg(uint64_type_node, "pi");
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, marker);
    gimple_seq_add_stmt(&seq, gimple_build_assign(old, ref));
    gimple_seq_add_stmt(&seq, gimple_build_assign(inc, PLUS_EXPR, old, build_int_cst(uint64_type_node, 1)));
    gimple_seq_add_stmt(&seq, gimple_build_assign(unshare_expr(ref), inc));
    for (gimple_stmt_iterator g = gsi_start(seq); !gsi_end_p(g); gsi_next(&g))
        gimple_set_location(gsi_stmt(g), loc);
    gimple_stmt_iterator gsi = gsi_after_labels(bb);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
}

static unsigned int execute_count(function *fun)
{
    tree fndecl = fun->decl;
    struct pi_directive_spec fn_specs[PI_MAX_DIRECTIVES];
    int nspec = pi_decl_directives(fndecl, fn_specs, PI_MAX_DIRECTIVES);
    uint32_t fn_dirs = 0;
    for (int i = 0; i < nspec; i++)
        fn_dirs |= fn_specs[i].kind;
    bool skip = skip_function(fndecl);
    if (!skip && pi_opt.all_count)
        fn_dirs |= PI_D_COUNT;

    /* the statement markers the pragmas left */
    auto_vec<marker> marks;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        marker m;
        if (pi_is_marker_call(gsi_stmt(gsi), &m.id, &m.what)) {
            m.stmt = gsi_stmt(gsi);
            marks.safe_push(m);
        }
    }
    if (!(fn_dirs & (PI_D_COUNT | PI_D_TYPES)) && marks.is_empty())
        return 0;

    /* region boundaries start blocks: split before every marker, and after BEGINs */
    for (unsigned i = 0; i < marks.length(); i++)
        block_starting_at(marks[i].stmt);
    auto_vec<basic_block> begins;
    for (unsigned i = 0; i < marks.length(); i++) {
        basic_block b = gimple_bb(marks[i].stmt);
        if (marks[i].what == PI_MARK_BEGIN) {
            gimple_stmt_iterator gsi = gsi_for_stmt(marks[i].stmt);
            gsi_next(&gsi);
            b = gsi_end_p(gsi) ? single_succ(b) : split_block(b, marks[i].stmt)->dest;
        }
        begins.safe_push(b);
    }

    auto_sbitmap in(last_basic_block_for_fn(fun));
    auto_vec<uint32_t> region_dirs;
    region_dirs.safe_grow_cleared(last_basic_block_for_fn(fun));
    bitmap_clear(in);
    if (!skip && (fn_dirs & (PI_D_COUNT | PI_D_TYPES)))
        FOR_EACH_BB_FN(bb, fun) bitmap_set_bit(in, bb->index);
    for (unsigned i = 0; i < marks.length(); i++) {
        const pi_stmt_directive *d = pi_stmt_directive_get(marks[i].id);
        if (marks[i].what != PI_MARK_BEGIN || skip)
            continue;
        auto_sbitmap r(last_basic_block_for_fn(fun));
        bitmap_clear(r);
        mark_region(fun, marks, marks[i].id, begins[i], r);
        sbitmap_iterator sbi;
        unsigned idx;
        EXECUTE_IF_SET_IN_BITMAP(r, 0, idx, sbi)
        {
            region_dirs[idx] |= d->spec.kind;
            if (d->spec.kind & PI_D_COUNT)
                bitmap_set_bit(in, idx);
        }
    }

    /* the markers have done their work */
    for (unsigned i = 0; i < marks.length(); i++) {
        gimple_stmt_iterator gsi = gsi_for_stmt(marks[i].stmt);
        gsi_remove(&gsi, true);
    }
    if (bitmap_empty_p(in))
        return 0;

    /* one site and one counter per instrumented block, in block order */
    unsigned func = pi_unit_add_func(fndecl, fn_dirs);
    auto_vec<int> site_of;
    site_of.safe_grow(last_basic_block_for_fn(fun));
    for (unsigned i = 0; i < site_of.length(); i++)
        site_of[i] = -1;
    uint64_t cfg = PI_HASH64_INIT;
    auto_vec<basic_block> order;
    /* the entry block's successor first, so sites[first_site] is the entry */
    basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    if (bitmap_bit_p(in, entry->index))
        order.safe_push(entry);
    FOR_EACH_BB_FN(bb, fun)
    if (bb != entry && bitmap_bit_p(in, bb->index))
        order.safe_push(bb);
    for (unsigned i = 0; i < order.length(); i++) {
        bb = order[i];
        pi_site s;
        memset(&s, 0, sizeof s);
        expanded_location xl = expand_location(block_location(bb));
        s.func = func;
        s.counter = pi_unit_nsites(); /* one counter per site: counter index == site index */
        s.file = pi_unit_str(xl.file);
        s.line = xl.line;
        s.column = xl.column > 0xffff ? 0xffff : xl.column;
        s.kind = PI_SITE_BLOCK;
        s.directives = (fn_dirs & ~(PI_D_SHARING | PI_D_WATCH)) | region_dirs[bb->index] | PI_D_COUNT;
        s.bb = bb->index;
        site_of[bb->index] = pi_unit_add_site(&s);
        uint32_t shape[2] = {(uint32_t)xl.line, EDGE_COUNT(bb->succs)};
        cfg = pi_hash64(cfg, shape, sizeof shape);
    }
    for (unsigned i = 0; i < order.length(); i++) {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, order[i]->succs)
        if (e->dest->index >= 0 && (unsigned)e->dest->index < site_of.length() && site_of[e->dest->index] >= 0) {
            pi_unit_add_succ(site_of[order[i]->index], site_of[e->dest->index]);
            uint32_t rel = site_of[e->dest->index] - site_of[order[0]->index];
            cfg = pi_hash64(cfg, &rel, sizeof rel);
        }
    }
    for (unsigned i = 0; i < order.length(); i++)
        instrument_block(order[i], site_of[order[i]->index], site_of[order[i]->index]);
    pi_unit_func_done(func, cfg);
    return 0;
}

const pass_data count_pass_data = {
    GIMPLE_PASS, "perfinst_count", OPTGROUP_NONE, TV_NONE, PROP_cfg, 0, 0, 0, 0,
};

class count_pass : public gimple_opt_pass {
public:
    count_pass(gcc::context *ctxt) : gimple_opt_pass(count_pass_data, ctxt) {}
    bool gate(function *) final override { return !seen_error(); }
    unsigned int execute(function *fun) final override { return execute_count(fun); }
};

opt_pass *pi_make_count_pass(gcc::context *ctxt)
{
    return new count_pass(ctxt);
}
