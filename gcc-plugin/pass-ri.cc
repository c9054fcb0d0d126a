/* pass-ri.cc — runtime instrumentation (seed 001): sample units, the
 * collection buffer's events, emit(EXPR).
 *
 * Runs right after the CFG is built, before the count pass (which deletes
 * the statement markers this pass reads) and before any inlining, so the
 * events belong to the source function wherever its code ends up.
 *
 *     #pragma perfinst sample(every=1000)      bb 2: __perfinst_ri_call(__builtin_return_address(0))
 *     int f(int n) {                                 UNIT(1000)
 *         int s = 0;                                 s = 0; i = 0; goto bb 4
 *         for (int i = 0; i < n; i++)         bb 3: UNIT(1000)
 *             s += i;                                s = s + i; i = i + 1
 *         return s;                           bb 4: UNIT(1000)
 *     }                                              if (i < n) goto bb 6 else goto bb 5
 *                                             bb 6: __perfinst_ri_transfer(pc)  (the true edge;
 *                                                    pc: lea 0(%rip) before the branch)
 *                                                    goto bb 3
 *                                             bb 5: UNIT(1000)
 *                                                    __perfinst_ri_return(__builtin_return_address(0))
 *                                                    return s
 *
 *     UNIT(N):  b = __perfinst_ri_budget - 1; __perfinst_ri_budget = b;
 *               if (b <= 0) __perfinst_ri_unit(N);      (an unlikely block of its own)
 *
 * The thread-local budget (runtime/ri.c) is the number of units that may
 * pass before one can matter (the next count sample point; 1 in cycles
 * mode; "never" with RI off), so a unit costs a TLS decrement and a branch.
 *
 * - sample(every=N) on a function: every block is a unit (but a block
 *   holding only a return, which -O0 makes and -O2 does not; the interval
 *   counts units; N is the default interval, docs/sampling.md); the entry
 *   calls __perfinst_ri_call, each return __perfinst_ri_return, the true
 *   edge of each two-way branch __perfinst_ri_transfer (a taken branch).
 * - sample(directed): the same, and the entry block's unit is a directed
 *   sample point (__perfinst_ri_directed).
 * - callret on a function: only the call and return events.
 * - sample(...) on a statement: its blocks are units (the first one
 *   directed for sample(directed)), its two-way branches transfers.
 * - emit(EXPR) in a body: __perfinst_ri_emit((uint64_t)(EXPR)) where the
 *   pragma stands, built by the pragma handler (emit-expr.cc, in the front
 *   end: this pass only sees the call).
 * - -fplugin-arg-perfinst-all=sample: every function as if marked
 *   sample(every=1000) (functions with no_instrument_function excepted).
 *
 * The budget's load and store are ordinary memory accesses of a global that
 * calls may read: GCC keeps one decrement per execution of the source block
 * (it may combine a loop's decrements, as with counters, but the runtime
 * only reads the budget in its calls, which see memory as the program
 * left it), so count-mode sample points stay exact.
 */
#include "plugin.h"

#define RI_ALL_EVERY 1000

static tree probe_decl(const char *name, tree arg)
{
    tree type = build_function_type_list(void_type_node, arg, NULL_TREE);
    tree decl = build_fn_decl(name, type);
    TREE_NOTHROW(decl) = 1;
    return decl;
}

static location_t bb_loc(basic_block bb, location_t dflt)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (gimple_location(gsi_stmt(gsi)) != UNKNOWN_LOCATION && !is_gimple_debug(gsi_stmt(gsi)))
            return gimple_location(gsi_stmt(gsi));
    return dflt;
}

static tree skip_var;
static tree skip_decl(void);

/* An event probe, called only when the thread records the event:
 *     s = __perfinst_ri_skip & BIT;
 *     if (s == 0) { [ra = __builtin_return_address(0);] probe([ra]); }
 * before the statement at gsi (or at the end of an empty block bb). */
static void insert_event_probe(basic_block bb, gimple_stmt_iterator *gsi, unsigned bit,
                               const char *name, bool with_ra, location_t loc, tree arg = NULL_TREE)
{
    tree t0 = create_tmp_reg(unsigned_type_node, "pi_s");
    tree t1 = create_tmp_reg(unsigned_type_node, "pi_s");
    gimple *ld = gimple_build_assign(t0, skip_decl());
    gimple *an = gimple_build_assign(t1, BIT_AND_EXPR, t0, build_int_cst(unsigned_type_node, bit));
    gimple_set_location(ld, loc);
    gimple_set_location(an, loc);
    if (gsi && !gsi_end_p(*gsi)) {
        gsi_insert_before(gsi, ld, GSI_SAME_STMT);
        gsi_insert_before(gsi, an, GSI_SAME_STMT);
    } else {
        gimple_stmt_iterator g = gsi_last_bb(bb);
        gimple_seq seq = NULL;
        gimple_seq_add_stmt(&seq, ld);
        gimple_seq_add_stmt(&seq, an);
        gsi_insert_seq_after(&g, seq, GSI_NEW_STMT);
    }
    gcond *cond = gimple_build_cond(EQ_EXPR, t1, build_int_cst(unsigned_type_node, 0), NULL_TREE, NULL_TREE);
    gimple_set_location(cond, loc);
    basic_block slow = insert_cond_bb(gimple_bb(an), an, cond, profile_probability::likely());
    gimple_stmt_iterator s = gsi_start_bb(slow);
    gcall *p;
    if (with_ra) {
        tree ra = create_tmp_reg(ptr_type_node, "pi_ra");
        gcall *get = gimple_build_call(builtin_decl_explicit(BUILT_IN_RETURN_ADDRESS), 1, integer_zero_node);
        gimple_call_set_lhs(get, ra);
        gimple_set_location(get, loc);
        gsi_insert_before(&s, get, GSI_SAME_STMT);
        s = gsi_last_bb(slow);
        p = gimple_build_call(probe_decl(name, ptr_type_node), 1, ra);
        gimple_set_location(p, loc);
        gsi_insert_after(&s, p, GSI_NEW_STMT);
    } else {
        p = gimple_build_call(probe_decl(name, ptr_type_node), 1, arg);
        gimple_set_location(p, loc);
        gsi_insert_before(&s, p, GSI_SAME_STMT);
    }
}

/* `pc = <the address of this point>` (lea 0(%rip)) before gsi: where a
 * branch is taken from. */
static tree insert_here_pc(gimple_stmt_iterator *gsi, location_t loc)
{
    tree pc = create_tmp_reg(ptr_type_node, "pi_pc");
    vec<tree, va_gc> *outputs = NULL;
    vec_safe_push(outputs, pi_asm_operand("=r", pc));
    gasm *a = gimple_build_asm_vec("lea 0(%%rip), %0", NULL, outputs, NULL, NULL);
    gimple_asm_set_volatile(a, true);
    gimple_set_location(a, loc);
    gsi_insert_before(gsi, a, GSI_SAME_STMT);
    return pc;
}

/* __perfinst_ri_budget: the runtime's thread-local budget of units that
 * may pass before one matters (runtime/ri.c).  Kept alive by its varpool
 * node. */
static tree budget_var;

/* *var, made on first use: an external initial-exec TLS variable of the
 * runtime, NAME of TYPE. */
static tree runtime_tls(tree *var, const char *name, tree type)
{
    if (!*var) {
        tree d = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name), type);
        DECL_EXTERNAL(d) = 1;
        TREE_PUBLIC(d) = 1;
        DECL_ARTIFICIAL(d) = 1;
        set_decl_tls_model(d, TLS_MODEL_INITIAL_EXEC);
        varpool_node::get_create(d);
        *var = d;
        pi_gc_root(var);
    }
    return *var;
}

static tree budget_decl(void)
{
    return runtime_tls(&budget_var, "__perfinst_ri_budget", long_integer_type_node);
}

static tree skip_decl(void)
{
    return runtime_tls(&skip_var, "__perfinst_ri_skip", unsigned_type_node);
}

/* A unit at the start of bb (or after the statement `after`):
 *     directed:  __perfinst_ri_directed(N)
 *     else:      b = __perfinst_ri_budget - 1; __perfinst_ri_budget = b;
 *                if (b <= 0) __perfinst_ri_unit(N) */
static void insert_unit(basic_block bb, gimple *after, bool directed, uint64_t every, location_t loc)
{
    gimple_stmt_iterator gsi;
    if (after) {
        gsi = gsi_for_stmt(after);
        gsi_next(&gsi);
    } else {
        gsi = gsi_after_labels(bb);
    }
    tree n = build_int_cst(uint64_type_node, every);
    if (directed) {
        gcall *c = gimple_build_call(probe_decl("__perfinst_ri_directed", uint64_type_node), 1, n);
        gimple_set_location(c, loc);
        if (gsi_end_p(gsi)) {
            gsi = gsi_last_bb(bb);
            gsi_insert_after(&gsi, c, GSI_NEW_STMT);
        } else
            gsi_insert_before(&gsi, c, GSI_SAME_STMT);
        return;
    }
    tree var = budget_decl();
    tree b0 = create_tmp_reg(long_integer_type_node, "pi_b");
    tree b1 = create_tmp_reg(long_integer_type_node, "pi_b");
    gimple *ld = gimple_build_assign(b0, var);
    gimple *dec = gimple_build_assign(b1, PLUS_EXPR, b0, build_int_cst(long_integer_type_node, -1));
    gimple *st = gimple_build_assign(var, b1);
    gimple_set_location(ld, loc);
    gimple_set_location(dec, loc);
    gimple_set_location(st, loc);
    if (gsi_end_p(gsi)) {
        gsi = gsi_last_bb(bb);
        if (gsi_end_p(gsi)) {
            gimple_seq seq = NULL;
            gimple_seq_add_stmt(&seq, ld);
            gimple_seq_add_stmt(&seq, dec);
            gimple_seq_add_stmt(&seq, st);
            gsi_insert_seq_after(&gsi, seq, GSI_NEW_STMT);
        } else {
            gsi_insert_after(&gsi, ld, GSI_NEW_STMT);
            gsi_insert_after(&gsi, dec, GSI_NEW_STMT);
            gsi_insert_after(&gsi, st, GSI_NEW_STMT);
        }
    } else {
        gsi_insert_before(&gsi, ld, GSI_SAME_STMT);
        gsi_insert_before(&gsi, dec, GSI_SAME_STMT);
        gsi_insert_before(&gsi, st, GSI_SAME_STMT);
    }
    gcond *cond = gimple_build_cond(LE_EXPR, b1, build_int_cst(long_integer_type_node, 0), NULL_TREE, NULL_TREE);
    gimple_set_location(cond, loc);
    basic_block slow = insert_cond_bb(gimple_bb(st), st, cond, profile_probability::very_unlikely());
    gcall *c = gimple_build_call(probe_decl("__perfinst_ri_unit", uint64_type_node), 1, n);
    gimple_set_location(c, loc);
    gimple_stmt_iterator s = gsi_start_bb(slow);
    gsi_insert_before(&s, c, GSI_SAME_STMT);
}

/* Blocks of the statement region `id`: from the BEGIN marker, not past a
 * block holding one of its END markers. */
static void region_blocks(function *fun, basic_block begin, unsigned id, sbitmap in)
{
    auto_vec<basic_block> work;
    work.safe_push(begin);
    bitmap_set_bit(in, begin->index);
    while (!work.is_empty()) {
        basic_block bb = work.pop();
        bool stop = false;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            unsigned mid;
            int what;
            if (pi_is_marker_call(gsi_stmt(gsi), &mid, &what) && mid == id && what == PI_MARK_END)
                stop = true;
        }
        if (stop)
            continue;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        if (e->dest != EXIT_BLOCK_PTR_FOR_FN(fun) && !bitmap_bit_p(in, e->dest->index)) {
            bitmap_set_bit(in, e->dest->index);
            work.safe_push(e->dest);
        }
    }
}

/* Transfers: the true edge of every two-way branch that ends a block in `in`. */
static void instrument_transfers(function *fun, sbitmap in)
{
    auto_vec<edge> edges;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        if (!bitmap_bit_p(in, bb->index))
            continue;
        gimple *last = last_stmt(bb);
        if (!last || gimple_code(last) != GIMPLE_COND)
            continue;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        if ((e->flags & EDGE_TRUE_VALUE) && !(e->flags & (EDGE_ABNORMAL | EDGE_EH)))
            edges.safe_push(e);
    }
    for (unsigned i = 0; i < edges.length(); i++) {
        gimple *br = last_stmt(edges[i]->src);
        location_t loc = gimple_location(br);
        gimple_stmt_iterator g = gsi_for_stmt(br);
        tree from = insert_here_pc(&g, loc);
        basic_block nb = split_edge(edges[i]);
        insert_event_probe(nb, NULL, 4 /* PERFINST_RI_B */, "__perfinst_ri_transfer", false, loc, from);
    }
}

/* A block with nothing but a return (the one -O0's lowering gives every
 * function) is no unit: the units of a function are then the same at every
 * optimisation level. */
static bool only_return(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gimple_code(g) == GIMPLE_LABEL || is_gimple_debug(g) || gimple_code(g) == GIMPLE_PREDICT)
            continue;
        return gimple_code(g) == GIMPLE_RETURN;
    }
    return false;
}


static unsigned int ri_execute(function *fun)
{
    tree fndecl = fun->decl;
    if (pi_skip_function(fndecl))
        return 0;
    struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
    int nspec = pi_decl_directives(fndecl, specs, PI_MAX_DIRECTIVES);
    bool sample = pi_opt.all_sample, directed = false, callret = false;
    uint64_t every = pi_opt.all_sample ? RI_ALL_EVERY : 0;
    for (int i = 0; i < nspec; i++) {
        if (specs[i].kind == PI_D_SAMPLE) {
            sample = true;
            if (specs[i].arg == 1)
                directed = true;
            else
                every = specs[i].threshold;
        }
        if (specs[i].kind == PI_D_CALLRET)
            callret = true;
    }

    /* statement regions marked sample(...) */
    struct region {
        basic_block first;
        gimple *marker;
        unsigned id;
        bool directed;
        uint64_t every;
    };
    auto_vec<region> regions;
    basic_block bb;
    /* (markers only where a statement directive made them) */
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); pi_markers_made() && !gsi_end_p(gsi); gsi_next(&gsi)) {
        unsigned id;
        int what;
        if (!pi_is_marker_call(gsi_stmt(gsi), &id, &what) || what != PI_MARK_BEGIN)
            continue;
        const pi_stmt_directive *d = pi_stmt_directive_get(id);
        if (!d || d->spec.kind != PI_D_SAMPLE)
            continue;
        region r = {bb, gsi_stmt(gsi), id, d->spec.arg == 1, d->spec.arg == 1 ? 0 : d->spec.threshold};
        regions.safe_push(r);
    }
    if (!sample && !callret && regions.is_empty())
        return 0;

    location_t floc = DECL_SOURCE_LOCATION(fndecl);
    basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    if (!single_pred_p(entry)) /* the entry block is a loop head: give the entry its own */
        entry = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));

    auto_sbitmap in(last_basic_block_for_fn(fun) + 2 * n_edges_for_fn(fun) + 16);
    bitmap_clear(in);
    /* which blocks are units: computed before anything is split */
    struct unit_at {
        basic_block bb;
        gimple *after;     /* the unit goes after this statement (a BEGIN marker), or at the start */
        bool directed;
        uint64_t every;
    };
    auto_vec<unit_at> units;
    if (sample) {
        FOR_EACH_BB_FN(bb, fun)
        {
            bitmap_set_bit(in, bb->index);
            if (bb == entry || !only_return(bb)) {
                unit_at u = {bb, NULL, directed && bb == entry, every};
                units.safe_push(u);
            }
        }
    }
    for (unsigned i = 0; i < regions.length(); i++) {
        auto_sbitmap r(last_basic_block_for_fn(fun));
        bitmap_clear(r);
        region_blocks(fun, regions[i].first, regions[i].id, r);
        sbitmap_iterator sbi;
        unsigned idx;
        EXECUTE_IF_SET_IN_BITMAP(r, 0, idx, sbi)
        {
            bitmap_set_bit(in, idx);
            basic_block b = BASIC_BLOCK_FOR_FN(fun, idx);
            if (sample)
                continue; /* the function's own units cover it */
            if (b == regions[i].first) {
                /* the region's first unit goes right after its BEGIN marker */
                unit_at u = {b, regions[i].marker, regions[i].directed, regions[i].every};
                units.safe_push(u);
            } else if (!only_return(b)) {
                unit_at u = {b, NULL, false, regions[i].every};
                units.safe_push(u);
            }
        }
    }
    /* taken branches first: the units' own checks add conditions */
    if (sample || !regions.is_empty())
        instrument_transfers(fun, in);
    for (unsigned i = 0; i < units.length(); i++) {
        location_t loc = units[i].after ? gimple_location(units[i].after) : bb_loc(units[i].bb, floc);
        insert_unit(units[i].bb, units[i].after, units[i].directed, units[i].every, loc);
    }
    if (sample || callret) {
        /* the call before the entry's unit, so a sample at the entry sees it */
        auto_vec<gimple *> rets;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds)
        {
            gimple *last = last_stmt(e->src);
            if (last && gimple_code(last) == GIMPLE_RETURN)
                rets.safe_push(last);
        }
        gimple_stmt_iterator gsi = gsi_after_labels(entry);
        insert_event_probe(entry, &gsi, 1 /* PERFINST_RI_C */, "__perfinst_ri_call", true, floc);
        for (unsigned i = 0; i < rets.length(); i++) {
            gimple_stmt_iterator r = gsi_for_stmt(rets[i]);
            insert_event_probe(gimple_bb(rets[i]), &r, 2 /* PERFINST_RI_R */, "__perfinst_ri_return",
                               true, gimple_location(rets[i]));
        }
    }
    return 0;
}

static bool ri_gate(function *fun) { return !seen_error(); }
PI_GIMPLE_PASS(ri, PROP_cfg)
