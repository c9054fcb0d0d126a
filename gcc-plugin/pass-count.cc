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
 * that try/finally placed on every exit of the statement (frontend.cc).
 * The counter array is thread-local: increments are plain adds, exact
 * under threads, and never share a cache line with another thread.
 */
#include "plugin.h"
#include "tree-eh.h"
#include "tree-into-ssa.h"
#include "tree-ssa.h"
#include "tree-cfgcleanup.h"

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

/* Region boundaries start blocks: a block starts at every marker, and
 * after every BEGIN marker.  Idempotent: a second call splits nothing. */
static void split_at_markers(const vec<marker> &marks)
{
    for (unsigned i = 0; i < marks.length(); i++)
        block_starting_at(marks[i].stmt);
    for (unsigned i = 0; i < marks.length(); i++)
        if (marks[i].what == PI_MARK_BEGIN) {
            gimple_stmt_iterator gsi = gsi_for_stmt(marks[i].stmt);
            gsi_next(&gsi);
            if (!gsi_end_p(gsi))
                split_block(gimple_bb(marks[i].stmt), marks[i].stmt);
        }
}

static void collect_markers(function *fun, vec<marker> &marks)
{
    if (!pi_markers_made())
        return;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        marker m;
        if (pi_is_marker_call(gsi_stmt(gsi), &m.id, &m.what)) {
            m.stmt = gsi_stmt(gsi);
            marks.safe_push(m);
        }
    }
}

/* The CFG the profile is keyed on (docs/layout.md, "Keys and staleness"):
 * the blocks as the count pass numbers them, i.e. split at the statement
 * markers.  The feedback pass, which runs before the count pass, splits
 * the same way, so a function with statement directives has the same
 * blocks in the training build (all=count) and in the rebuild. */
void pi_cfg_split_markers(function *fun)
{
    auto_vec<marker> marks;
    collect_markers(fun, marks);
    split_at_markers(marks);
}

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

bool pi_block_filler(const gimple *g)
{
    unsigned id;
    int what;
    return gimple_code(g) == GIMPLE_LABEL || is_gimple_debug(g) || pi_is_marker_call(g, &id, &what);
}

static location_t first_location(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (pi_block_filler(g))
            continue; /* (markers carry the pragma's line, not the block's) */
        if (gimple_location(g) != UNKNOWN_LOCATION)
            return gimple_location(g);
    }
    return UNKNOWN_LOCATION;
}

/* A block's source location: its first located statement; for a block with
 * none, the function's closing brace if it returns; the block of a
 * computed goto that GCC factored out of every `goto *p`
 * (factor_computed_gotos: a threaded interpreter's dispatch) none at all,
 * as in gcov, which counts it on no line (its site gets line 0: pmopt
 * report puts it on no line); else (an empty jump target) the location of
 * a predecessor's last statement — where gcov would show it. */
static bool is_factored_computed_goto(basic_block bb)
{
    gimple *last = last_stmt(bb);
    return last && gimple_code(last) == GIMPLE_GOTO && TREE_CODE(gimple_goto_dest(last)) != LABEL_DECL &&
           first_location(bb) == UNKNOWN_LOCATION;
}

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
    if (is_factored_computed_goto(bb))
        return UNKNOWN_LOCATION;
    FOR_EACH_EDGE(e, ei, bb->preds)
    {
        /* (not a debug bind, which only -g makes: the line, and so the
           CFG checksum, must not depend on -g) */
        gimple_stmt_iterator gsi = gsi_last_nondebug_bb(e->src);
        if (!gsi_end_p(gsi) && gimple_location(gsi_stmt(gsi)) != UNKNOWN_LOCATION)
            return gimple_location(gsi_stmt(gsi));
    }
    return UNKNOWN_LOCATION;
}

/* A volatile asm of TEXT (copied) with no operand, at LOC. */
gasm *pi_volatile_asm(const char *text, location_t loc)
{
    gasm *a = gimple_build_asm_vec(ggc_strdup(text), NULL, NULL, NULL, NULL);
    gimple_asm_set_volatile(a, true);
    gimple_set_location(a, loc);
    return a;
}

/* The site marker of SITE: an empty volatile asm (pass-ranges.cc). */
gasm *pi_site_marker(unsigned site, location_t loc)
{
    char text[96];
    snprintf(text, sizeof text, PI_MARKER_PREFIX "%016llx %u", (unsigned long long)pi_unit_id(), site);
    return pi_volatile_asm(text, loc);
}

/* A temporary: an SSA name once the function is in SSA form (count-at=late),
 * named NAME either way (pass-inlsize.cc tells the indirect-call caches'
 * statements by their "pi_icall" names) */
tree pi_tmp_reg(tree type, const char *name)
{
    return gimple_in_ssa_p(cfun) ? make_temp_ssa_name(type, NULL, name) : create_tmp_reg(type, name);
}

/* An operand of an asm statement (gimple_build_asm_vec's inputs and
 * outputs): OP with CONSTRAINT ("r", "=r", "re"). */
tree pi_asm_operand(const char *constraint, tree op)
{
    return build_tree_list(build_tree_list(NULL_TREE, build_string(strlen(constraint) + 1, constraint)), op);
}

/* `REF += 1` (a counter, an inline cache's hits, an arc's counter:
 * arcs.cc), at the end of *SEQ. */
void pi_add_increment(gimple_seq *seq, tree ref)
{
    tree old = pi_tmp_reg(uint64_type_node, "pi");
    tree inc = pi_tmp_reg(uint64_type_node, "pi");
    gimple_seq_add_stmt(seq, gimple_build_assign(old, ref));
    gimple_seq_add_stmt(seq, gimple_build_assign(inc, PLUS_EXPR, old, build_int_cst(uint64_type_node, 1)));
    gimple_seq_add_stmt(seq, gimple_build_assign(unshare_expr(ref), inc));
}

/* Can BB be left other than through its last statement's edges, or run
 * code of which the count pass knows nothing?  A call (which may not
 * return, or may read the count while running), an asm, a statement that
 * may throw, an exception or abnormal edge.  A block with none of these
 * is left only by its edges, or by a fault or a signal that ends the
 * process, which the trace's STOPPED record tells: its counter can go at
 * its end (counter_at_end). */
static bool may_leave_inside(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (is_gimple_call(g) || gimple_code(g) == GIMPLE_ASM || stmt_could_throw_p(cfun, g) ||
            stmt_can_terminate_bb_p(g))
            return true;
    }
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (e->flags & (EDGE_EH | EDGE_ABNORMAL))
        return true;
    return false;
}

/* Where a block's own counter goes in a function counted on arcs: at the
 * block's end when nothing inside can leave it (may_leave_inside).  At its
 * start, GCC 12's store motion of the counter out of a loop whose only
 * block it opens re-issues every later store of the iteration at the
 * loop's exit (tree-ssa-loop-im's ordered store sequence), keeping their
 * addresses and values live through the loop (zstd's histogram);
 * last, nothing follows it.  A thread stopped inside the block had not
 * reached the update: readers add the STOPPED count back
 * (PI_SITE_COUNTER_AT_END, common/piflow.c). */
static bool counter_at_end(basic_block bb)
{
    return !may_leave_inside(bb);
}

/* `REF += 1` at BB's end: before the statement that ends it, if any (a
 * jump, a return, an exception dispatch). */
static void add_increment_at_end(basic_block bb, tree ref, location_t loc)
{
    gimple_seq seq = NULL;
    pi_add_increment(&seq, ref);
    gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb);
    bool before = !gsi_end_p(gsi) && stmt_ends_bb_p(gsi_stmt(gsi));
    if (before && gimple_location(gsi_stmt(gsi)) != UNKNOWN_LOCATION)
        loc = gimple_location(gsi_stmt(gsi));
    gimple_seq_set_location(seq, loc);
    if (before)
        gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    else {
        gsi = gsi_last_bb(bb); /* (GSI_SAME_STMT needs a statement: the block may be empty) */
        gsi_insert_seq_after(&gsi, seq, GSI_CONTINUE_LINKING);
    }
}

/* The site marker, and the update of the block's own counter (-1: none,
 * the block shares a counter or its count comes from the arcs), at the
 * block's start or, AT_END, its end. */
static void instrument_block(basic_block bb, unsigned site, int counter, unsigned width, location_t loc,
                             bool at_end)
{
    bool own_counter = counter >= 0;
    bool narrow = own_counter && width < 64;
    if (narrow)
        own_counter = false; /* narrow.cc updates it, after the marker */
    if (own_counter && at_end) {
        add_increment_at_end(bb, pi_counter_ref(counter), loc);
        own_counter = false;
    }
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, pi_site_marker(site, loc));
    if (own_counter)
        pi_add_increment(&seq, pi_counter_ref(counter));
    gimple_seq_set_location(seq, loc);
    gimple_stmt_iterator gsi = gsi_after_labels(bb);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    if (narrow)
        pi_narrow_increment(bb, &gsi, pi_counter_ref(counter), site, counter, width, loc);
}

/* ---- fewer counters: blocks that run exactly as often share one ------------
 *
 * B runs exactly as often as its immediate dominator A when B post-dominates
 * A, both sit in the same loop, and nothing on the way from A's start to B
 * can leave the function early (a call that may exit or longjmp, an
 * exception or abnormal edge): every execution of A then reaches B, and B
 * is only reached through A.  The join after an if/else is the common case.
 * B keeps its site and its code range; its counter is A's (transitively),
 * so the report still has every block's exact count. */

static bool can_leave_between(basic_block a, basic_block b)
{
    auto_vec<basic_block> work;
    auto_bitmap seen;
    work.safe_push(a);
    bitmap_set_bit(seen, a->index);
    while (!work.is_empty()) {
        basic_block x = work.pop();
        for (gimple_stmt_iterator gsi = gsi_start_bb(x); !gsi_end_p(gsi); gsi_next(&gsi))
            if (stmt_can_terminate_bb_p(gsi_stmt(gsi)))
                return true;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, x->succs)
        {
            if (e->flags & (EDGE_EH | EDGE_ABNORMAL))
                return true;
            if (e->dest == b)
                continue;
            if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
                return true; /* cannot happen when b post-dominates a; be safe */
            if (bitmap_set_bit(seen, e->dest->index))
                work.safe_push(e->dest);
        }
    }
    return false;
}

/* rep[i]: the block whose counter block i uses (i itself if its own). */
static int counter_block(function *fun, basic_block b, sbitmap in, const vec<unsigned> &width,
                         vec<int> &rep)
{
    if (rep[b->index] >= 0)
        return rep[b->index];
    rep[b->index] = b->index;
    basic_block a = get_immediate_dominator(CDI_DOMINATORS, b);
    if (a && a != ENTRY_BLOCK_PTR_FOR_FN(fun) && bitmap_bit_p(in, a->index) && current_loops &&
        width[a->index] == width[b->index] && a->loop_father == b->loop_father &&
        dominated_by_p(CDI_POST_DOMINATORS, a, b) && !can_leave_between(a, b))
        rep[b->index] = counter_block(fun, a, in, width, rep);
    return rep[b->index];
}

/* A counter per block of ORDER, in functions without arcs: the one its
 * site reads (site_counter), its own or that of a block that runs exactly
 * as often (counter_block); own_counter the one it updates, or -1. */
static void block_counters(function *fun, const vec<basic_block> &order, sbitmap in,
                           const vec<unsigned> &width, vec<int> &site_counter, vec<int> &own_counter)
{
    auto_vec<int> rep, owner_counter;
    rep.safe_grow(last_basic_block_for_fn(fun));
    owner_counter.safe_grow(last_basic_block_for_fn(fun));
    for (unsigned i = 0; i < rep.length(); i++)
        rep[i] = owner_counter[i] = -1;
    calculate_dominance_info(CDI_DOMINATORS);
    calculate_dominance_info(CDI_POST_DOMINATORS);
    for (unsigned i = 0; i < order.length(); i++)
        counter_block(fun, order[i], in, width, rep);
    free_dominance_info(CDI_POST_DOMINATORS);
    site_counter.safe_grow(order.length());
    own_counter.safe_grow(order.length());
    for (unsigned i = 0; i < order.length(); i++) {
        int r = rep[order[i]->index];
        if (owner_counter[r] < 0)
            owner_counter[r] = pi_unit_add_counter();
        site_counter[i] = owner_counter[r];
        own_counter[i] = r == order[i]->index ? owner_counter[r] : -1;
    }
}

/* ---- probes: trap, threshold, cycles, trace ------------------------------ */

static tree runtime_probe(const char *name, tree ret, tree a1 = NULL_TREE, tree a2 = NULL_TREE,
                          tree a3 = NULL_TREE, tree a4 = NULL_TREE, tree a5 = NULL_TREE,
                          tree a6 = NULL_TREE)
{
    tree type = build_function_type_list(ret, a1, a2, a3, a4, a5, a6, NULL_TREE);
    tree decl = build_fn_decl(name, type);
    TREE_NOTHROW(decl) = 1;
    return decl;
}

static tree handler_ptr_type(void)
{
    return ptr_type_node;
}

static tree handler_arg(const struct pi_directive_spec *d)
{
    tree fn = d->name[0] ? pi_handler_decl(d->name) : NULL_TREE;
    if (!fn)
        return null_pointer_node;
    TREE_ADDRESSABLE(fn) = 1;
    /* &fn typed as void *: a gimple invariant, valid as a call argument */
    return build_fold_addr_expr_with_type(fn, handler_ptr_type());
}

static void insert_call_before(gimple_stmt_iterator *gsi, gimple *call, location_t loc)
{
    gimple_set_location(call, loc);
    gsi_insert_before(gsi, call, GSI_SAME_STMT);
}

/* What one directive wraps: its first block and where it is left. */
struct probe_region {
    const struct pi_directive_spec *spec;
    basic_block first;
    auto_vec<gimple *> exits;  /* the probe for the way out goes before each */
    location_t loc;
};

/* Begin probes at the first block, end probes before every exit. */
static void insert_probes(probe_region *r, unsigned site)
{
    tree u64 = uint64_type_node, u32 = unsigned_type_node;
    tree id = build_int_cst(u64, pi_unit_id()), st = build_int_cst(u32, site);
    const struct pi_directive_spec *d = r->spec;
    gimple_stmt_iterator gsi = gsi_after_labels(r->first);
    switch (d->kind) {
    case PI_D_TRAP:
        insert_call_before(&gsi, gimple_build_call(runtime_probe("__perfinst_trap", void_type_node, u64, u32), 2, id, st), r->loc);
        break;
    case PI_D_THRESHOLD:
        insert_call_before(&gsi,
                           gimple_build_call(runtime_probe("__perfinst_threshold", void_type_node, u64, u32, u64, handler_ptr_type()),
                                             4, id, st, build_int_cst(u64, d->threshold), handler_arg(d)),
                           r->loc);
        break;
    case PI_D_CYCLES: {
        tree t0 = create_tmp_reg(u64, "pi_t0");
        gcall *begin = gimple_build_call(runtime_probe("__perfinst_cycles_begin", u64), 0);
        gimple_call_set_lhs(begin, t0);
        insert_call_before(&gsi, begin, r->loc);
        tree endfn = runtime_probe("__perfinst_cycles_end", void_type_node, u64, u32, u64, u64, u32, handler_ptr_type());
        for (unsigned i = 0; i < r->exits.length(); i++) {
            gimple_stmt_iterator e = gsi_for_stmt(r->exits[i]);
            insert_call_before(&e, gimple_build_call(endfn, 6, id, st, t0, build_int_cst(u64, d->threshold),
                                                     build_int_cst(u32, d->arg), handler_arg(d)),
                               r->loc);
        }
        break;
    }
    default:
        break;
    }
}

static bool has_probe(uint32_t kind)
{
    return kind & (PI_D_TRAP | PI_D_THRESHOLD | PI_D_CYCLES);
}

/* Pair `region begin(NAME)` with the `region end(NAME)` markers of the
 * same function: they become a BEGIN and its ENDs, as a pragma on a
 * statement would.  Unpaired ones are errors. */
static void pair_named_regions(vec<marker> &marks)
{
    for (unsigned i = 0; i < marks.length(); i++) {
        const pi_stmt_directive *d = pi_stmt_directive_get(marks[i].id);
        if (d->spec.kind != PI_D_REGION_BEGIN || marks[i].what != PI_MARK_POINT)
            continue; /* (an END already paired carries its BEGIN's id) */
        bool found = false;
        for (unsigned k = 0; k < marks.length(); k++) {
            const pi_stmt_directive *e = pi_stmt_directive_get(marks[k].id);
            if (e->spec.kind == PI_D_REGION_END && strcmp(e->spec.name, d->spec.name) == 0 &&
                marks[k].what == PI_MARK_POINT) {
                marks[k].what = PI_MARK_END;
                marks[k].id = marks[i].id;
                found = true;
            }
        }
        marks[i].what = PI_MARK_BEGIN;
        if (!found)
            error_at(d->loc, "perfinst: %<region begin(%s)%> has no %<region end(%s)%> in this function",
                     d->spec.name, d->spec.name);
    }
    for (unsigned k = 0; k < marks.length(); k++) {
        const pi_stmt_directive *e = pi_stmt_directive_get(marks[k].id);
        if (e->spec.kind == PI_D_REGION_END && marks[k].what == PI_MARK_POINT)
            error_at(e->loc, "perfinst: %<region end(%s)%> has no %<region begin(%s)%> before it in this function",
                     e->spec.name, e->spec.name);
    }
}

/* The width of a block's counter: its statement's count(width=N), else the
 * function's, else counter-width=N; 64 when none says otherwise. */
static unsigned block_width(basic_block bb, const vec<unsigned> &region_width,
                            const struct pi_directive_spec *specs, int nspec)
{
    if (region_width[bb->index])
        return region_width[bb->index];
    for (int k = 0; k < nspec; k++)
        if (specs[k].kind == PI_D_COUNT && specs[k].arg)
            return specs[k].arg;
    return pi_opt.counter_width ? pi_opt.counter_width : 64;
}

/* ---- the site order and the CFG checksum -------------------------------
 * Shared with pass-feedback.cc, which must number a function's blocks
 * exactly as this pass did to apply a profile to them: the entry block
 * first (so sites[first_site] is the entry), then the others in block
 * order; the checksum hashes each block's line (relative to the function's
 * definition) and number of successors,
 * then each successor's position, so a changed function is told apart. */

/* The function's entry site: the first block, given a block of its own
 * when it is also a loop head (it must run once per call). */
basic_block pi_cfg_entry(function *fun)
{
    basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    if (!single_pred_p(entry))
        entry = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
    return entry;
}

void pi_cfg_order(function *fun, basic_block entry, sbitmap in, vec<basic_block> &order)
{
    basic_block bb;
    if (bitmap_bit_p(in, entry->index))
        order.safe_push(entry);
    FOR_EACH_BB_FN(bb, fun)
    if (bb != entry && bitmap_bit_p(in, bb->index))
        order.safe_push(bb);
}

uint64_t pi_cfg_checksum(const vec<basic_block> &order)
{
    uint64_t cfg = PI_HASH64_INIT;
    hash_map<int_hash<int, -1, -2>, unsigned> pos;
    /* lines relative to the definition's: an edit above the function (or
       in another function) leaves its checksum alone */
    int base = expand_location(DECL_SOURCE_LOCATION(current_function_decl)).line;
    for (unsigned i = 0; i < order.length(); i++) {
        expanded_location xl = expand_location(block_location(order[i]));
        uint32_t shape[2] = {xl.line ? (uint32_t)(xl.line - base) : 0u, EDGE_COUNT(order[i]->succs)};
        cfg = pi_hash64(cfg, shape, sizeof shape);
        pos.put(order[i]->index, i);
    }
    for (unsigned i = 0; i < order.length(); i++) {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, order[i]->succs)
        {
            unsigned *p = pos.get(e->dest->index);
            if (p) {
                uint32_t rel = *p;
                cfg = pi_hash64(cfg, &rel, sizeof rel);
            }
        }
    }
    return cfg;
}

/* An indirect call's target profile: an inline cache of two targets per
 * call site and thread, the runtime called only when the target is
 * neither, so that the training build pays two or four instructions more
 * per indirect call, not a call and a hash-table probe (docs/layout.md
 * "Indirect calls"):
 *
 *     B:  ...                           B:  ...
 *         r = fnptr (args);      →          t = (uint64) fnptr;
 *                                           if (__perfinst_ctr_icall[4k] == t) goto H0; else goto C;
 *                                       C:  if (__perfinst_ctr_icall[4k+2] == t) goto H1; else goto M;
 *                                       H0: __perfinst_ctr_icall[4k+1] += 1;    goto J;
 *                                       H1: __perfinst_ctr_icall[4k+3] += 1;    goto J;
 *                                       M:  __perfinst_icall_miss2 (UNIT, SITE, t, &__perfinst_ctr_icall[4k]);
 *                                       J:  r = fnptr (args);
 *
 * Two ways, not one: a call site that alternates between two targets (an
 * interpreter's array lookup through its type's table, gawk's str_array
 * and cint_array; a comparator of two kinds) missed a one-target cache at
 * every call (bench/RESULTS.md, 2026-11-29 15:00, gawk).  SITE is the
 * call's PI_SITE_CALL site; the slot is thread-local (unit.cc);
 * runtime/icall.c counts the pairs (site, target) with the hits when a
 * target leaves the cache, when the thread ends and when the trace is
 * written.  Done after the sites are numbered and the CFG checksum is
 * taken, so C, H0, H1, M and J are no sites: J continues B (its count is
 * B's), and the rebuild, which has no such blocks, keys on the same CFG.
 * pass-split deletes the miss call and the hit counters from the clean
 * copy, where the tests are then dead.  With clean-copies=final the whole
 * cache is one asm (add_icall_asm). */
struct icall_site {
    gimple *call;
    unsigned site;
};

/* SEQ after the last statement of B, or as
 * its only statements when it has none. */
static void append_to_block(basic_block b, gimple_seq seq)
{
    gimple_stmt_iterator end = gsi_last_bb(b);
    if (gsi_end_p(end)) {
        end = gsi_start_bb(b);
        gsi_insert_seq_before(&end, seq, GSI_SAME_STMT);
    } else
        gsi_insert_seq_after(&end, seq, GSI_SAME_STMT);
}

/* `if (WAY's target == T)` at the end of B, whose one edge goes to J: the
 * hit block (WAY's hits += 1) on the true edge, returned with the new
 * block on the false edge, *OTHER. */
static void add_icall_test(basic_block b, basic_block j, unsigned k, unsigned way, tree t, location_t loc,
                           basic_block *other)
{
    tree last = pi_tmp_reg(uint64_type_node, "pi_icall");
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, gimple_build_assign(last, pi_icall_slot_ref(k, 2 * way)));
    gimple_seq_add_stmt(&seq, gimple_build_cond(EQ_EXPR, last, t, NULL_TREE, NULL_TREE));
    gimple_seq_set_location(seq, loc);
    append_to_block(b, seq);

    edge hit = single_succ_edge(b);
    hit->flags = (hit->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
    hit->probability = profile_probability::likely();
    basic_block h = split_edge(hit); /* first: B has one edge to J */
    edge miss = make_edge(b, j, EDGE_FALSE_VALUE);
    miss->probability = profile_probability::likely().invert();
    *other = split_edge(miss);

    seq = NULL;
    pi_add_increment(&seq, pi_icall_slot_ref(k, 2 * way + 1));
    gimple_seq_set_location(seq, loc);
    gimple_stmt_iterator hg = gsi_start_bb(h);
    gsi_insert_seq_before(&hg, seq, GSI_SAME_STMT);
}

/* clean-copies=final: the whole cache one asm (pi_icall_asm_template),
 * which finalcopy.cc recognises in f.count.N's assembly and leaves out of
 * f's: the GIMPLE tests, adds and miss call of add_icall_test are code of
 * the body, scheduled and allocated among the program's, which no text
 * edit could take out, and the miss call, a call GCC sees, would keep the
 * values live across it in call-saved registers (a push and a pop each on
 * every call of the function, in f too) and the indirect call from being a
 * tail call.  The asm's miss calls a stub that saves every register
 * (runtime/icall.c), so GCC sees only the flags change.  The slot's
 * local-exec offset is a constant of the link only in an executable's code;
 * under -fPIC pass-tls.cc rebases the asm onto the slots' offset it
 * computes (pi_icall_asm_rebase; where it computes none, setjmp, onto
 * their address).  The template is AT&T, and its call of the stub an
 * indirect one (not with retpolines).  Not with -flto: the slots' symbol,
 * named in the asm's text, is renamed when units share a partition. */
static bool icall_as_asm(void)
{
    tree v = pi_icall_decl();
    if (pi_opt.clean_copies != PI_CLEAN_FINAL || pi_opt.counting_opt == PI_COPT_FULL || !v ||
        !pi_opt.counter_address_abs || ix86_asm_dialect != ASM_ATT || ix86_indirect_branch != indirect_branch_keep ||
        flag_lto || in_lto_p)
        return false;
    return pi_counter_offset_decl() ? pi_ctr_base_asm_ok() : DECL_TLS_MODEL(v) == TLS_MODEL_LOCAL_EXEC;
}

/* As add_icall_test for both ways and the miss, one asm after AFTER (at
 * B's start, after its labels, if NULL) and T's conversion. */
static void add_icall_asm(basic_block b, gimple *after, gimple *conv, unsigned k, unsigned site, tree t,
                          location_t loc)
{
    char *text = pi_icall_asm_template(k, site);
    vec<tree, va_gc> *inputs = NULL;
    vec_safe_push(inputs, pi_asm_operand("r", t));
    gasm *a = gimple_build_asm_vec(ggc_strdup(text), inputs, NULL, NULL, NULL);
    free(text);
    gimple_asm_set_volatile(a, true);
    gimple_asm_set_inline(a, true); /* (its size for the estimates: one insn, not its lines) */
    gimple_set_location(a, loc);
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, conv);
    gimple_seq_add_stmt(&seq, a);
    if (after) {
        gimple_stmt_iterator g = gsi_for_stmt(after);
        gsi_insert_seq_after(&g, seq, GSI_SAME_STMT);
    } else {
        gimple_stmt_iterator g = gsi_after_labels(b);
        gsi_insert_seq_before(&g, seq, GSI_SAME_STMT);
    }
}

static tree own_decl_in(tree *tp, int *walk_subtrees, void *)
{
    if (TYPE_P(*tp))
        *walk_subtrees = 0;
    else if (VAR_P(*tp) && pi_is_own_decl(*tp))
        return *tp;
    return NULL_TREE;
}

/* May the cache's test of FNPTR go before G, which precedes the indirect
 * call in its block?  A plain assignment that can neither leave the block
 * nor throw, nor define FNPTR, and touches nothing of the plugin's (a
 * counter's load, add and store stay whole in B, the site marker first):
 * the argument computations, whose values would otherwise be live across
 * the miss call, and so in call-saved registers (a push and a pop each on
 * every call of the function) or on the stack. */
static bool test_may_precede(gimple *g, tree fnptr)
{
    if (is_gimple_debug(g))
        return true;
    if (!is_gimple_assign(g) || gimple_has_volatile_ops(g) || stmt_could_throw_p(cfun, g) ||
        stmt_can_terminate_bb_p(g) || gimple_assign_lhs(g) == fnptr)
        return false;
    for (unsigned i = 0; i < gimple_num_ops(g); i++) {
        tree op = gimple_op(g, i);
        if (op && walk_tree_without_duplicates(&op, own_decl_in, NULL))
            return false;
    }
    return true;
}

static void add_icall_cache(const icall_site &ic)
{
    gimple *call = ic.call;
    tree fnptr = gimple_call_fn(call);
    /* a C++ virtual call: the pointer it loaded from the vtable (the call
       keeps its OBJ_TYPE_REF, so devirtualization still sees it) */
    if (fnptr && TREE_CODE(fnptr) == OBJ_TYPE_REF)
        fnptr = OBJ_TYPE_REF_EXPR(fnptr);
    if (!fnptr || !POINTER_TYPE_P(TREE_TYPE(fnptr)))
        return;
    location_t loc = gimple_location(call);
    unsigned k = pi_unit_add_icall();
    basic_block b = gimple_bb(call);
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    gsi_prev(&gsi);
    /* the test before the arguments' computations (test_may_precede) */
    if (TREE_CODE(fnptr) == SSA_NAME)
        while (!gsi_end_p(gsi) && test_may_precede(gsi_stmt(gsi), fnptr))
            gsi_prev(&gsi);
    tree t = pi_tmp_reg(uint64_type_node, "pi_icall");
    gimple *conv = gimple_build_assign(t, NOP_EXPR, fnptr);
    gimple_set_location(conv, loc);
    if (icall_as_asm()) {
        add_icall_asm(b, gsi_end_p(gsi) ? NULL : gsi_stmt(gsi), conv, k, ic.site, t, loc);
        return;
    }
    /* (B keeps its labels, site marker and counter: the call is never first) */
    basic_block j = gsi_end_p(gsi) ? split_block_after_labels(b)->dest : split_block(b, gsi_stmt(gsi))->dest;

    append_to_block(b, gimple_seq_alloc_with_stmt(conv));
    basic_block c, m;
    add_icall_test(b, j, k, 0, t, loc, &c);
    add_icall_test(c, j, k, 1, t, loc, &m);

    tree slot = pi_icall_slot_ref(k, 0);
    tree missfn = runtime_probe("__perfinst_icall_miss2", void_type_node, uint64_type_node, unsigned_type_node,
                                uint64_type_node, ptr_type_node);
    gimple *mc = gimple_build_call(missfn, 4, build_int_cst(uint64_type_node, pi_unit_id()),
                                   build_int_cst(unsigned_type_node, ic.site), t,
                                   build_fold_addr_expr_with_type(slot, ptr_type_node));
    gimple_set_location(mc, loc);
    gimple_stmt_iterator mg = gsi_after_labels(m);
    gsi_insert_before(&mg, mc, GSI_SAME_STMT);
}

/* Blocks that may be left without taking one of their edges (the fake
 * arcs of arcs.cc): a statement that may not return (a call, a volatile
 * asm; not the statement markers, which go), and the blocks that are to
 * get a probe whose handler may do the same: the probes' first blocks and
 * exits, trace_start and trace_stop, the function probes' entry and
 * returns. */
static void may_leave(function *fun, const vec<probe_region *> &probes, const vec<marker> &marks,
                      bool fnprobe, basic_block entry, sbitmap leave)
{
    bitmap_clear(leave);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        unsigned id;
        int what;
        if (is_gimple_debug(g) || pi_is_marker_call(g, &id, &what))
            continue;
        if (stmt_can_terminate_bb_p(g) || (fnprobe && gimple_code(g) == GIMPLE_RETURN))
            bitmap_set_bit(leave, bb->index);
    }
    for (unsigned i = 0; i < probes.length(); i++) {
        bitmap_set_bit(leave, probes[i]->first->index);
        for (unsigned k = 0; k < probes[i]->exits.length(); k++)
            bitmap_set_bit(leave, gimple_bb(probes[i]->exits[k])->index);
    }
    for (unsigned i = 0; i < marks.length(); i++)
        if (marks[i].what == PI_MARK_POINT &&
            (pi_stmt_directive_get(marks[i].id)->spec.kind & (PI_D_TRACE_START | PI_D_TRACE_STOP)))
            bitmap_set_bit(leave, gimple_bb(marks[i].stmt)->index);
    if (fnprobe)
        bitmap_set_bit(leave, entry->index);
}

/* A site of KIND (PI_SITE_CALL, PI_SITE_INLINE) of function FUNC that
 * says something of block BB (arg: its site) at LOC, naming REGION: no
 * counter, no code. */
static unsigned add_block_note(unsigned func, unsigned kind, location_t loc, basic_block bb, const vec<int> &site_of,
                               const char *region)
{
    pi_site s;
    pi_site_init(&s, func, kind, expand_location(loc));
    s.bb = bb->index;
    s.region = pi_unit_str(region);
    s.arg = site_of[bb->index];
    return pi_unit_add_site(&s);
}

/* Call sites (PI_SITE_CALL) of a function counted whole: each call of
 * another function, with its block, so that a profile gives the call
 * graph's arcs (caller, callee, the block's count) for function ordering,
 * at no run-time cost.  Built-ins GCC declares itself (__builtin_expect,
 * ...) and internal calls are not calls; an indirect call is recorded with
 * an empty callee. */
static void add_call_sites(const vec<basic_block> &order, const vec<int> &site_of, unsigned func,
                           vec<icall_site> &icalls)
{
    for (unsigned i = 0; i < order.length(); i++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(order[i]); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            unsigned id;
            int what;
            if (!is_gimple_call(g) || gimple_call_internal_p(g) || pi_is_marker_call(g, &id, &what))
                continue;
            tree callee = gimple_call_fndecl(g);
            if (callee && (DECL_IS_UNDECLARED_BUILTIN(callee) || pi_is_own_decl(callee)))
                continue;
            unsigned call_site = add_block_note(func, PI_SITE_CALL, gimple_location(g), order[i], site_of,
                                                callee ? IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(callee)) : "");
            if (!callee) {
                icall_site ic = {g, call_site};
                icalls.safe_push(ic);
            }
        }
}

/* Is G a statement of the inlined body BODY (its outer BLOCK)? */
static bool in_body(gimple *g, tree body)
{
    for (tree b = gimple_block(g); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (b == body)
            return true;
    return false;
}

/* Can BB, the block an inlined BODY is entered in, be entered again from
 * inside the body: does it head a loop of the body's own, whose blocks
 * hold the body's statements only?  A loop of the caller that BB heads
 * (a comparator inlined into `while (comp(*i, pivot)) ++i;`) runs the
 * body's entry once per iteration, as the body runs. */
static bool enters_again(basic_block bb, tree body)
{
    calculate_dominance_info(CDI_DOMINATORS);
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds)
    {
        if (!dominated_by_p(CDI_DOMINATORS, e->src, bb))
            continue;
        /* the natural loop of the back edge e: the blocks that reach its
           source without passing BB */
        auto_vec<basic_block> work;
        auto_bitmap seen;
        bool callers = false;
        bitmap_set_bit(seen, bb->index);
        if (bitmap_set_bit(seen, e->src->index))
            work.safe_push(e->src);
        while (!work.is_empty() && !callers) {
            basic_block b = work.pop();
            for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi) && !callers; gsi_next(&gsi)) {
                gimple *g = gsi_stmt(gsi);
                if (!is_gimple_debug(g) && gimple_code(g) != GIMPLE_LABEL && !in_body(g, body))
                    callers = true;
            }
            edge p;
            edge_iterator pi;
            FOR_EACH_EDGE(p, pi, b->preds)
            if (p->src != ENTRY_BLOCK_PTR_FOR_FN(cfun) && bitmap_set_bit(seen, p->src->index))
                work.safe_push(p->src);
        }
        if (!callers)
            return true;
    }
    return false;
}

/* count-at=late: the bodies the early ipa-split cut in two.  A function F
 * split into its header (F, whose front GCC may then inline into its
 * callers) and F.part.N may have cut an inlined body in two: entered in the
 * header, ended in the part.  Its entries are counted in the header's
 * copies, never in the part.  A copy whose early optimisations folded away
 * every statement of such a body, and its inline entry marker (a test of
 * a constant argument), still calls the part when the body went on there:
 * the body's site is that call's block.  A body is named by the origin and
 * the call's location of each inlined scope from it up to F (remap_block
 * keeps both when a body is copied: into the part, into a caller).
 * split_entered: for each function with a part, the bodies the part has
 * statements of and one of its header's copies a statement or an inline
 * entry marker (a body wholly in the header that a copy folded away ran
 * there as its test decided, not with the call of the part). */
struct split_body {
    tree origin; /* F */
    tree callee; /* the body's */
    char *name;  /* "F:H@loc:..." */
};
static vec<split_body> split_entered;
static hash_set<nofree_string_hash> *split_entered_names;

/* The name of the inlined scopes SCOPES[FROM..TO) of a body of ORIGIN into
 * BUF (false: too deep to name). */
static bool body_name(char *buf, size_t size, tree origin, const vec<tree> &scopes, unsigned from, unsigned to)
{
    size_t n = snprintf(buf, size, "%u", DECL_UID(origin));
    for (unsigned i = from; i < to && n < size; i++)
        n += snprintf(buf + n, size - n, ":%u@%u", DECL_UID(block_ultimate_origin(scopes[i])),
                      (unsigned)BLOCK_SOURCE_LOCATION(scopes[i]));
    return n < size;
}

/* The inlined scopes of BLOCK, innermost first, into SCOPES. */
static void inlined_scopes(tree block, vec<tree> &scopes)
{
    scopes.truncate(0);
    for (tree b = block; b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (inlined_function_outer_scope_p(b))
            scopes.safe_push(b);
}

/* Where in the current function is a copy of ORIGIN's header: the index in
 * SCOPES (the inlined scopes of a statement, innermost first) of the first
 * scope inlined from ORIGIN, else SCOPES' length when the function is
 * ORIGIN's header itself; -1: in none. */
static int header_copy_at(const vec<tree> &scopes, tree origin)
{
    for (unsigned j = 0; j < scopes.length(); j++)
        if (block_ultimate_origin(scopes[j]) == origin)
            return j;
    if (DECL_ORIGIN(current_function_decl) == origin && !pi_split_part(current_function_decl))
        return scopes.length();
    return -1;
}

/* The distinct BLOCKs of FN's statements, and of its inline entry
 * markers when MARKERS, into BLOCKS. */
static void statement_blocks(function *fn, bool markers, vec<tree> &blocks)
{
    hash_set<tree> seen;
    blocks.truncate(0);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if ((is_gimple_debug(g) && !(markers && gimple_debug_inline_entry_p(g))) || !gimple_block(g) ||
            seen.add(gimple_block(g)))
            continue;
        blocks.safe_push(gimple_block(g));
    }
}

static void find_split_entered(void)
{
    hash_set<tree> split; /* the functions with a part */
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    if (gimple_has_body_p(node->decl) && pi_split_part(node->decl))
        split.add(DECL_ORIGIN(node->decl));
    if (split.is_empty())
        return;
    split_entered_names = new hash_set<nofree_string_hash>;
    char buf[1024];
    auto_vec<tree> scopes;
    /* the bodies the parts have statements of */
    hash_set<nofree_string_hash> in_part;
    auto_vec<char *> part_names;
    auto_vec<tree> blocks;
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        if (!gimple_has_body_p(node->decl) || !pi_split_part(node->decl))
            continue;
        statement_blocks(DECL_STRUCT_FUNCTION(node->decl), false, blocks);
        for (unsigned k = 0; k < blocks.length(); k++) {
            inlined_scopes(blocks[k], scopes);
            for (unsigned i = 0; i < scopes.length(); i++)
                if (body_name(buf, sizeof buf, DECL_ORIGIN(node->decl), scopes, i, scopes.length()) &&
                    !in_part.contains(buf)) {
                    part_names.safe_push(xstrdup(buf));
                    in_part.add(part_names.last());
                }
        }
    }
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        if (!gimple_has_body_p(node->decl) || pi_split_part(node->decl) ||
            (node->clone_of && node->decl == node->clone_of->decl))
            continue;
        tree self = split.contains(DECL_ORIGIN(node->decl)) ? DECL_ORIGIN(node->decl) : NULL_TREE;
        statement_blocks(DECL_STRUCT_FUNCTION(node->decl), true, blocks);
        for (unsigned k = 0; k < blocks.length(); k++) {
            inlined_scopes(blocks[k], scopes);
            /* a copy of F's header: F itself (SELF), or a scope of F inlined here */
            for (unsigned j = 0; j <= scopes.length(); j++) {
                tree f = j < scopes.length() ? block_ultimate_origin(scopes[j]) : self;
                if (!f || !split.contains(f))
                    continue;
                for (unsigned i = 0; i < j; i++)
                    if (body_name(buf, sizeof buf, f, scopes, i, j) && in_part.contains(buf) &&
                        !split_entered_names->contains(buf)) {
                        split_body e = {f, block_ultimate_origin(scopes[i]), xstrdup(buf)};
                        split_entered_names->add(e.name);
                        split_entered.safe_push(e);
                    }
            }
        }
    }
    for (unsigned i = 0; i < part_names.length(); i++)
        free(part_names[i]);
}

static void free_split_entered(void)
{
    for (unsigned i = 0; i < split_entered.length(); i++)
        free(split_entered[i].name);
    split_entered.release();
    delete split_entered_names;
    split_entered_names = NULL;
}

/* Was BODY, an inlined body of the part the early ipa-split cut off the
 * current function's origin, entered in that function's header? */
static bool entered_in_header(tree body)
{
    if (!split_entered_names || !pi_split_part(current_function_decl))
        return false;
    char buf[1024];
    auto_vec<tree> scopes;
    inlined_scopes(body, scopes);
    return body_name(buf, sizeof buf, DECL_ORIGIN(current_function_decl), scopes, 0, scopes.length()) &&
           split_entered_names->contains(buf);
}

/* An inlined body's entries: the callee and the block it is entered in. */
struct inline_entry {
    tree callee;
    basic_block bb;
};

/* CALL (in BB) calls a part of F: the bodies entered in F's header that
 * this copy of the header has nothing of (none of MET, the bodies met in
 * the current function) get a site at BB (into ENTRIES). */
static void add_split_entries(gimple *call, basic_block bb, const vec<tree> &met, vec<inline_entry> &entries)
{
    tree f = DECL_ORIGIN(gimple_call_fndecl(call));
    auto_vec<tree> scopes;
    inlined_scopes(gimple_block(call), scopes);
    int at = header_copy_at(scopes, f);
    if (at < 0)
        return;
    tree copy = (unsigned)at < scopes.length() ? scopes[at] : NULL_TREE;
    hash_set<nofree_string_hash> here;
    auto_vec<char *> names;
    char buf[1024];
    for (unsigned i = 0; i < met.length(); i++) {
        inlined_scopes(met[i], scopes);
        unsigned k = 0;
        while (k < scopes.length() && scopes[k] != copy)
            k++;
        if ((copy && k == scopes.length()) || (!copy && header_copy_at(scopes, f) != (int)scopes.length()) ||
            !body_name(buf, sizeof buf, f, scopes, 0, k) || here.contains(buf))
            continue;
        names.safe_push(xstrdup(buf));
        here.add(names.last());
    }
    for (unsigned i = 0; i < split_entered.length(); i++)
        if (split_entered[i].origin == f && !here.contains(split_entered[i].name)) {
            inline_entry e = {split_entered[i].callee, bb};
            entries.safe_push(e);
        }
    for (unsigned i = 0; i < names.length(); i++)
        free(names[i]);
}

/* count-at=late: an inlined call's entries (PI_SITE_INLINE).  By then the
 * early inliner has put helpers' bodies into their callers, where they
 * are counted on the caller's arcs; a helper inlined everywhere has no
 * function of its own whose entry block counts its calls.  Each inlined
 * body (a BLOCK whose origin is the callee, inlined_function_outer_scope_p)
 * gets a site naming the callee, whose count is the count of the block it
 * is entered in: the block holding its inline entry marker (GCC's `DEBUG
 * INLINE_ENTRY`, with -g), else the nearest block that dominates every one
 * of its statements unless that block can be entered again from inside (a
 * loop of the body's own: such a body gets no site; a loop of the caller
 * that the block heads runs the body once per iteration).  A body the early
 * optimisations folded away whole (no statement left, nor a marker) has
 * none either, but for the bodies the early ipa-split cut (above).  Not for
 * a callee counted at cfg (EARLY: marked one by one, whose inlined counters
 * count it) nor one never counted.  The bodies that get a site, in the
 * order met, each with the block it is entered in, go into ENTRIES. */
static void find_inline_entries(const vec<basic_block> &order, const vec<int> &site_of, hash_set<tree> *early,
                                vec<inline_entry> &entries)
{
    hash_map<tree, basic_block> marked_at, common; /* inlined body (its outer BLOCK) -> block */
    auto_vec<tree> met, markers;                   /* (in the order met) */
    auto_vec<gimple *> part_calls;                 /* calls of a part the early ipa-split cut off */
    for (unsigned i = 0; i < order.length(); i++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(order[i]); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (gimple_debug_inline_entry_p(g)) {
                if (!marked_at.put(gimple_block(g), order[i]))
                    markers.safe_push(gimple_block(g));
                continue;
            }
            if (is_gimple_debug(g))
                continue;
            if (split_entered_names && is_gimple_call(g) && gimple_call_fndecl(g) &&
                pi_split_part(gimple_call_fndecl(g)))
                part_calls.safe_push(g);
            for (tree b = gimple_block(g); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b)) {
                if (!inlined_function_outer_scope_p(b))
                    continue;
                bool existed;
                basic_block &slot = common.get_or_insert(b, &existed);
                if (!existed) {
                    met.safe_push(b);
                    slot = order[i];
                } else if (slot != order[i]) {
                    calculate_dominance_info(CDI_DOMINATORS);
                    slot = nearest_common_dominator(CDI_DOMINATORS, slot, order[i]);
                }
            }
        }
    /* a body whose statements all went (folded into the caller's) and
       left its marker */
    for (unsigned i = 0; i < markers.length(); i++)
        if (!common.get(markers[i]) && inlined_function_outer_scope_p(markers[i])) {
            met.safe_push(markers[i]);
            common.put(markers[i], *marked_at.get(markers[i]));
        }
    auto_vec<inline_entry> found;
    for (unsigned i = 0; i < met.length(); i++) {
        basic_block *m = marked_at.get(met[i]);
        inline_entry e = {block_ultimate_origin(met[i]), m ? *m : *common.get(met[i])};
        if (!m && enters_again(e.bb, met[i]))
            continue; /* (a loop of the body: its first block runs more often than the body) */
        if (!m && entered_in_header(met[i]))
            continue; /* (the early ipa-split cut it: its entries are the header's) */
        found.safe_push(e);
    }
    for (unsigned i = 0; i < part_calls.length(); i++)
        add_split_entries(part_calls[i], gimple_bb(part_calls[i]), met, found);
    for (unsigned i = 0; i < found.length(); i++) {
        tree callee = found[i].callee;
        basic_block bb = found[i].bb;
        if (callee && TREE_CODE(callee) == FUNCTION_DECL && !DECL_IS_UNDECLARED_BUILTIN(callee) &&
            !pi_is_own_decl(callee) && !pi_skip_function(callee) && !(early && early->contains(callee)) &&
            (unsigned)bb->index < site_of.length() && site_of[bb->index] >= 0)
            entries.safe_push(found[i]);
    }
}

/* count-at=late, with -g: an inlined body the early optimisations leave
 * no statement of (a second `at(b, i)` whose address FRE merged with the
 * first's, a `clamp` folded into MIN_EXPR) still has its inline entry
 * marker where it was entered, but remove_unused_locals drops a BLOCK no
 * statement is in, and with it the marker (clear_unused_block_pointer).
 * Right after the early inliner, each inlined body's outer BLOCK gets an
 * ignored variable with a value expression, which remove_unused_scope_block_p
 * never drops (nor the BLOCK holding it); the count pass then finds the
 * marker (find_inline_entries), and drop_keep_vars takes the variables out
 * again, so the later passes and the debug info see the BLOCKs as before.
 * Debug statements and BLOCKs do not change the code GCC makes (the -g and
 * -g0 builds are the same), so neither does this. */
static tree keep_name;

static bool is_keep_var(tree v) { return keep_name && VAR_P(v) && DECL_NAME(v) == keep_name; }

static void keep_inline_scopes(tree scope)
{
    for (tree b = BLOCK_SUBBLOCKS(scope); b; b = BLOCK_CHAIN(b)) {
        if (inlined_function_outer_scope_p(b)) {
            bool has = false;
            for (tree v = BLOCK_VARS(b); v && !has; v = DECL_CHAIN(v))
                has = is_keep_var(v);
            if (!has) {
                tree v = build_decl(BLOCK_SOURCE_LOCATION(b), VAR_DECL, keep_name, integer_type_node);
                DECL_ARTIFICIAL(v) = 1;
                DECL_IGNORED_P(v) = 1;
                DECL_CONTEXT(v) = current_function_decl;
                SET_DECL_VALUE_EXPR(v, integer_zero_node);
                DECL_HAS_VALUE_EXPR_P(v) = 1;
                DECL_CHAIN(v) = BLOCK_VARS(b);
                BLOCK_VARS(b) = v;
            }
        }
        keep_inline_scopes(b);
    }
}

static void drop_keep_vars(tree scope)
{
    for (tree *v = &BLOCK_VARS(scope); *v;)
        if (is_keep_var(*v))
            *v = DECL_CHAIN(*v);
        else
            v = &DECL_CHAIN(*v);
    for (tree b = BLOCK_SUBBLOCKS(scope); b; b = BLOCK_CHAIN(b))
        drop_keep_vars(b);
}

static bool keep_inlined_gate(function *)
{
    return !seen_error() && optimize && pi_opt.count_late && pi_opt.all_count && debug_inline_points;
}

static unsigned int keep_inlined_execute(function *fun)
{
    if (!keep_name) {
        keep_name = get_identifier("__perfinst_keep");
        pi_gc_root(&keep_name); /* (after parsing, an identifier no tree names is collected) */
    }
    if (DECL_INITIAL(fun->decl))
        keep_inline_scopes(DECL_INITIAL(fun->decl));
    return 0;
}
PI_GIMPLE_PASS(keep_inlined, PROP_cfg)

static void add_inline_sites(const vec<inline_entry> &entries, const vec<int> &site_of, unsigned func)
{
    for (unsigned i = 0; i < entries.length(); i++) {
        tree callee = entries[i].callee;
        add_block_note(func, PI_SITE_INLINE, DECL_SOURCE_LOCATION(callee), entries[i].bb, site_of,
                       IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(callee)));
    }
}

/* count-at=late: functions marked one by one, with statement regions or
 * watched data are instrumented at `cfg` as before (their counters must
 * follow their code into callers that are not counted); the rest of an
 * all=count unit after the early inliner (count_late_execute). */
static bool late_phase;
static hash_set<tree> *early_done;

/* Is FNDECL (or the function it was cloned or split from) counted after
 * the early inliner?  switch-again and bare-return leave such a function
 * alone: GCC's early switch conversion and ipa-split ran before its
 * counters, as at -O2 (perfinst.cc says so once). */
bool pi_counted_late(tree fndecl)
{
    return pi_opt.count_late && pi_opt.all_count && !(early_done && early_done->contains(DECL_ORIGIN(fndecl)));
}

bool pi_holds_site_marker(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (pi_is_site_marker(gsi_stmt(gsi)))
            return true;
    return false;
}

/* -flto, before GCC's free_lang_data: the assembler names of FUN's callees
 * and of their origins (a C++ constructor's abstract `C4` one), which the
 * count pass names inlined bodies by after it (count-at=late): made after
 * it, the name of a class in an anonymous namespace is gone from them
 * (`ns::(anonymous namespace)::(anonymous namespace)(char const*)`). */
static void name_with_origins(tree d)
{
    for (; d; d = DECL_ABSTRACT_ORIGIN(d) != d ? DECL_ABSTRACT_ORIGIN(d) : NULL_TREE)
        if (!DECL_ASSEMBLER_NAME_SET_P(d))
            DECL_ASSEMBLER_NAME(d);
}

static void name_callees_early(function *fun)
{
    if (!flag_lto || in_lto_p)
        return;
    name_with_origins(DECL_ABSTRACT_ORIGIN(fun->decl));
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (is_gimple_call(gsi_stmt(gsi)))
            name_with_origins(gimple_call_fndecl(gsi_stmt(gsi)));
}

static unsigned int count_execute(function *fun)
{
    tree fndecl = fun->decl;
    if (!late_phase)
        name_callees_early(fun);
    struct pi_directive_spec fn_specs[PI_MAX_DIRECTIVES];
    int nspec = pi_decl_directives(fndecl, fn_specs, PI_MAX_DIRECTIVES);
    uint32_t fn_dirs = 0;
    for (int i = 0; i < nspec; i++)
        fn_dirs |= fn_specs[i].kind;
    /* (the part the early ipa-split cut off a function is counted as the
       function is, and its lines as gcov's, which sees it unsplit: lines.cc) */
    bool skip = pi_skip_function(pi_split_part(fndecl) ? DECL_ORIGIN(fndecl) : fndecl);
    bool marked = (fn_dirs & (PI_D_COUNT | PI_D_TYPES | PI_D_TRAP | PI_D_THRESHOLD | PI_D_CYCLES)) != 0;
    bool resolver = skip && pi_ifunc_resolver(fndecl);
    for (int i = 0; resolver && i < nspec && !late_phase; i++)
        warning_at(DECL_SOURCE_LOCATION(fndecl), 0, "perfinst: directive %qs ignored: %qD runs while the "
                   "program is relocated (an %<ifunc%> resolver or called only by one), before its counters "
                   "exist", pi_directive_name(fn_specs[i].kind), fndecl);
    if (!skip && (pi_opt.all_count || (fn_dirs & PI_D_DORMANT)))
        fn_dirs |= PI_D_COUNT; /* (a dormant class is counted from the blocks' counts) */
    const uint32_t code_dirs = PI_D_COUNT | PI_D_TYPES | PI_D_TRAP | PI_D_THRESHOLD | PI_D_CYCLES;

    /* the statement markers the pragmas left */
    auto_vec<marker> marks;
    basic_block bb;
    collect_markers(fun, marks);
    bool watch = !skip && pi_watch_any(fun);
    if (!(fn_dirs & code_dirs) && marks.is_empty() && !watch)
        return 0;
    if (pi_opt.count_late) {
        bool own = marked || (fn_dirs & PI_D_DORMANT) || !marks.is_empty() || watch;
        if (!late_phase && !own)
            return 0; /* (the late pass's) */
        if (late_phase && early_done && early_done->contains(fndecl))
            return 0;
        if (!late_phase) {
            if (!early_done) {
                early_done = new hash_set<tree>;
                pi_gc_root_set(&early_done);
            }
            early_done->add(fndecl);
        }
    }
    pair_named_regions(marks);

    /* region boundaries start blocks: split before every marker, and after
       BEGINs (pi_cfg_split_markers: already done when the feedback pass ran) */
    split_at_markers(marks);
    auto_vec<basic_block> begins;
    for (unsigned i = 0; i < marks.length(); i++) {
        basic_block b = gimple_bb(marks[i].stmt);
        if (marks[i].what == PI_MARK_BEGIN)
            b = single_succ(b);
        begins.safe_push(b);
    }

    /* The entry site must run once per call: when the first block is also a
       loop head (a body that starts with a loop), give the entry its own. */
    basic_block first = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun)); /* gcov's first block */
    basic_block entry = pi_cfg_entry(fun);

    auto_sbitmap in(last_basic_block_for_fn(fun));
    auto_vec<uint32_t> region_dirs;
    auto_vec<const char *> region_name;
    auto_vec<unsigned> region_width; /* count(width=N) of a statement */
    region_width.safe_grow_cleared(last_basic_block_for_fn(fun));
    region_dirs.safe_grow_cleared(last_basic_block_for_fn(fun));
    region_name.safe_grow_cleared(last_basic_block_for_fn(fun));
    bitmap_clear(in);
    auto_delete_vec<probe_region> probes;
    if (!skip && (fn_dirs & code_dirs)) {
        /* late: not the blocks of a function instrumented early and inlined here */
        FOR_EACH_BB_FN(bb, fun) if (!late_phase || !pi_holds_site_marker(bb)) bitmap_set_bit(in, bb->index);
        for (int i = 0; i < nspec; i++) {
            if (!has_probe(fn_specs[i].kind))
                continue;
            probe_region *r = new probe_region;
            r->spec = &fn_specs[i];
            r->first = entry;
            r->loc = DECL_SOURCE_LOCATION(fndecl);
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds)
            {
                gimple *last = last_stmt(e->src);
                if (last && gimple_code(last) == GIMPLE_RETURN)
                    r->exits.safe_push(last);
            }
            probes.safe_push(r);
        }
    }
    for (unsigned i = 0; i < marks.length(); i++) {
        const pi_stmt_directive *d = pi_stmt_directive_get(marks[i].id);
        if (skip) {
            /* a statement directive in code the compiler outlined into a
               function of its own (an OpenMP body): said, not dropped silently */
            if (marks[i].what == PI_MARK_END)
                continue;
            if (lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fndecl)))
                warning_at(d->loc, 0, "perfinst: directive %qs ignored: %qD is marked "
                           "%<no_instrument_function%>", pi_directive_name(d->spec.kind), fndecl);
            else if (resolver)
                warning_at(d->loc, 0, "perfinst: directive %qs ignored: it is in %qD, which runs while "
                           "the program is relocated (an %<ifunc%> resolver or called only by one), "
                           "before its counters exist", pi_directive_name(d->spec.kind), fndecl);
            else
                warning_at(d->loc, 0, "perfinst: directive %qs ignored: it is in %qD, a function the "
                           "compiler made, which perfinst does not instrument",
                           pi_directive_name(d->spec.kind), fndecl);
            continue;
        }
        if (marks[i].what == PI_MARK_POINT) {
            /* trace_start/stop: a probe where the marker stands, in a counted block */
            if (d->spec.kind & (PI_D_TRACE_START | PI_D_TRACE_STOP)) {
                bitmap_set_bit(in, begins[i]->index);
                region_dirs[begins[i]->index] |= d->spec.kind;
            }
            continue;
        }
        if (marks[i].what != PI_MARK_BEGIN)
            continue;
        auto_sbitmap r(last_basic_block_for_fn(fun));
        bitmap_clear(r);
        mark_region(fun, marks, marks[i].id, begins[i], r);
        sbitmap_iterator sbi;
        unsigned idx;
        EXECUTE_IF_SET_IN_BITMAP(r, 0, idx, sbi)
        {
            region_dirs[idx] |= d->spec.kind & ~PI_D_REGION_BEGIN;
            if (d->spec.kind == PI_D_COUNT && d->spec.arg)
                region_width[idx] = d->spec.arg;
            bitmap_set_bit(in, idx);
            if (d->spec.kind == PI_D_REGION_BEGIN)
                region_name[idx] = d->spec.name;
        }
        if (d->spec.kind == PI_D_REGION_BEGIN) {
            /* The marker's own block runs once per entry into the region
               (the region's first block may be a loop head): its count is
               the region's visits (seed 004 M19). */
            basic_block mb = gimple_bb(marks[i].stmt);
            bitmap_set_bit(in, mb->index);
            region_dirs[mb->index] |= PI_D_REGION_BEGIN;
            region_name[mb->index] = d->spec.name;
        }
        if (has_probe(d->spec.kind)) {
            probe_region *pr = new probe_region;
            pr->spec = &d->spec;
            pr->first = begins[i];
            pr->loc = d->loc;
            for (unsigned k = 0; k < marks.length(); k++)
                if (marks[k].id == marks[i].id && marks[k].what == PI_MARK_END)
                    pr->exits.safe_push(marks[k].stmt);
            probes.safe_push(pr);
        }
    }
    if (bitmap_empty_p(in) && !watch) {
        for (unsigned i = 0; i < marks.length(); i++) {
            gimple_stmt_iterator gsi = gsi_for_stmt(marks[i].stmt);
            gsi_remove(&gsi, true);
        }
        return 0;
    }

    /* one site and one counter per instrumented block, in block order */
    unsigned func = pi_unit_add_func(fndecl, fn_dirs);
    auto_vec<int> site_of;
    site_of.safe_grow(last_basic_block_for_fn(fun));
    for (unsigned i = 0; i < site_of.length(); i++)
        site_of[i] = -1;
    auto_vec<basic_block> order;
    pi_cfg_order(fun, entry, in, order);
    auto_vec<location_t> locs; /* (taken before the counters change the CFG) */
    auto_vec<unsigned> width;  /* per block index */
    width.safe_grow_cleared(last_basic_block_for_fn(fun));
    bool whole = true;
    FOR_EACH_BB_FN(bb, fun) whole &= bitmap_bit_p(in, bb->index);
    for (unsigned i = 0; i < order.length(); i++) {
        locs.safe_push(block_location(order[i]));
        width[order[i]->index] = block_width(order[i], region_width, fn_specs, nspec);
        whole &= width[order[i]->index] == 64;
    }
    for (unsigned i = 0; i < order.length(); i++) {
        bb = order[i];
        expanded_location xl = expand_location(locs[i]);
        if (!xl.file) /* no line (a computed goto's dispatch): the function's file, line 0 */
            xl.file = expand_location(DECL_SOURCE_LOCATION(fndecl)).file;
        pi_site s; /* its counter is set below, once the owner's site exists */
        pi_site_init(&s, func, PI_SITE_BLOCK, xl);
        /* probe bits go on the probe's own site (pi_unit_set_probe) */
        s.directives = ((fn_dirs | region_dirs[bb->index]) & ~(PI_D_SHARING | PI_D_WATCH | PI_D_TRAP |
                                                               PI_D_THRESHOLD | PI_D_CYCLES)) | PI_D_COUNT;
        s.region = pi_unit_str(region_name[bb->index]);
        s.bb = bb->index;
        for (int k = 0; k < nspec; k++)
            if (fn_specs[k].kind == PI_D_TYPES)
                s.arg |= fn_specs[k].arg;
            else if (fn_specs[k].kind == PI_D_DORMANT && bb == entry)
                s.arg |= (fn_specs[k].arg & 0xffu) << 16; /* PI_SITE_DORMANT_TYPES */
        unsigned w = width[bb->index];
        if (w < 64)
            s.arg |= w << 24; /* PI_SITE_COUNTER_BITS */
        site_of[bb->index] = pi_unit_add_site(&s);
    }
    for (unsigned i = 0; i < order.length(); i++) {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, order[i]->succs)
        if (e->dest->index >= 0 && (unsigned)e->dest->index < site_of.length() && site_of[e->dest->index] >= 0)
            pi_unit_add_succ(site_of[order[i]->index], site_of[e->dest->index]);
    }
    uint64_t cfg = pi_cfg_checksum(order);

    /* The counters.  A function counted whole: on the arcs off a spanning
       tree of its flow graph (arcs.cc), with the lines gcov would give its
       blocks (lines.cc); else (statement regions, narrow counters) one per
       block, shared by blocks that run exactly as often. */
    bool fnprobe = !skip && (fn_dirs & code_dirs) && bitmap_bit_p(in, entry->index) &&
                   pi_fnprobe_wanted(fn_specs, nspec, marked);
    basic_block bare_ret = late_phase ? NULL : pi_bare_return_block(fun, entry);
    auto_vec<int> site_counter, own_counter;
    auto_sbitmap at_end(last_basic_block_for_fn(fun)); /* blocks whose counter goes at their end */
    bitmap_clear(at_end);
    bool arcs = false;
    /* count-at=late: the bodies the early inliner put here, and where each
       is entered (before the arcs add blocks on edges) */
    auto_vec<inline_entry> inline_entries;
    if ((fn_dirs & PI_D_COUNT) && late_phase)
        find_inline_entries(order, site_of, early_done, inline_entries);
    if (whole && !skip && (fn_dirs & PI_D_COUNT) && !pi_opt.counters_blocks) {
        pi_lines_record(fun, first, site_of);
        auto_sbitmap leave(last_basic_block_for_fn(fun));
        may_leave(fun, probes, marks, fnprobe, entry, leave);
        auto_vec<bool> live;
        live.safe_grow(order.length());
        for (unsigned i = 0; i < order.length(); i++)
            live[i] = fnprobe; /* armed.c reads every block's counter while running */
        arcs = pi_arcs_instrument(fun, order, site_of, leave, live, bare_ret, first, own_counter);
        if (arcs) {
            site_counter.safe_splice(own_counter);
            /* (a block a probe's handler may leave is in `leave`; the
               statement markers still in the blocks are calls) */
            for (unsigned i = 0; i < order.length(); i++)
                if (own_counter[i] >= 0 && !live[i] && order[i] != bare_ret &&
                    !bitmap_bit_p(leave, order[i]->index) && counter_at_end(order[i])) {
                    bitmap_set_bit(at_end, order[i]->index);
                    pi_unit_set_counter_at_end(site_of[order[i]->index]);
                }
        }
    }
    if (!arcs)
        block_counters(fun, order, in, width, site_counter, own_counter);
    for (unsigned i = 0; i < order.length(); i++)
        pi_unit_set_counter(site_of[order[i]->index], site_counter[i] >= 0 ? site_counter[i] : PI_NONE);

    auto_vec<icall_site> icalls;
    if (fn_dirs & PI_D_COUNT)
        add_call_sites(order, site_of, func, icalls);
    if (!inline_entries.is_empty())
        add_inline_sites(inline_entries, site_of, func);

    /* probes, before the markers that locate their exits go away */
    for (unsigned i = 0; i < probes.length(); i++) {
        probe_region *r = probes[i];
        unsigned site = site_of[r->first->index];
        pi_unit_set_probe(site, r->spec);
        insert_probes(r, site);
    }
    for (unsigned i = 0; i < marks.length(); i++) {
        const pi_stmt_directive *d = pi_stmt_directive_get(marks[i].id);
        gimple_stmt_iterator gsi = gsi_for_stmt(marks[i].stmt);
        if (marks[i].what == PI_MARK_POINT && (d->spec.kind & (PI_D_TRACE_START | PI_D_TRACE_STOP)) && !skip) {
            tree fn = runtime_probe(d->spec.kind == PI_D_TRACE_START ? "__perfinst_trace_start"
                                                                    : "__perfinst_trace_stop",
                                    void_type_node, uint64_type_node, unsigned_type_node);
            insert_call_before(&gsi, gimple_build_call(fn, 2, build_int_cst(uint64_type_node, pi_unit_id()),
                                                       build_int_cst(unsigned_type_node,
                                                                     site_of[begins[i]->index])),
                               d->loc);
        }
        gsi_remove(&gsi, true);
    }
    /* a bare return block stays bare for ipa-split (return-site.cc) */
    for (unsigned i = 0; i < order.length(); i++) {
        unsigned w = width[order[i]->index];
        /* the marker's location: its first statement's now (a probe's,
           where one was put first), else what it was before the edits */
        location_t loc = first_location(order[i]);
        if (loc != UNKNOWN_LOCATION)
            locs[i] = loc;
        if (order[i] == bare_ret && w == 64) {
            unsigned site = site_of[order[i]->index];
            pi_return_site_instrument(order[i], site, own_counter[i] >= 0 ? pi_counter_ref(own_counter[i]) : NULL_TREE,
                                      locs[i]);
            continue;
        }
        instrument_block(order[i], site_of[order[i]->index], own_counter[i], w, locs[i],
                         bitmap_bit_p(at_end, order[i]->index));
    }
    if (fnprobe)
        pi_fnprobe_instrument(fun, entry, site_of[entry->index], fn_specs, nspec);
    if (watch)
        pi_watch_instrument(fun, func);
    /* last: the caches split blocks, which no site may see (above) */
    for (unsigned i = 0; i < icalls.length(); i++)
        add_icall_cache(icalls[i]);
    if (!icalls.is_empty())
        free_dominance_info(CDI_DOMINATORS);
    pi_unit_func_done(func, cfg, late_phase);
    return 0;
}

static bool count_gate(function *fun) { return !seen_error(); }
PI_GIMPLE_PASS(count, PROP_cfg)

/* count-at=late: the count pass over every function once the early
 * inliner and the early optimisations are done, where GCC's own
 * -fprofile-arcs instruments (tree-profile.cc, the "profile" pass):
 * each function's counters then sit on its inlined body.  As there, the
 * pure/const flags the early passes found are dropped (the body now
 * stores), calls are updated and the call graph's edges rebuilt; GCC's
 * IPA mod/ref recomputes its summaries from these bodies
 * (modref_generate) before any later pass reads them. */
static bool count_late_gate(function *) { return !seen_error() && pi_opt.count_late; }

static unsigned int count_late_execute(function *)
{
    cgraph_node *node;
    auto_vec<cgraph_node *> done;
    find_split_entered();
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        if (!gimple_has_body_p(node->decl) || (node->clone_of && node->decl == node->clone_of->decl))
            continue;
        if (DECL_SOURCE_LOCATION(node->decl) == BUILTINS_LOCATION)
            continue;
        push_cfun(DECL_STRUCT_FUNCTION(node->decl));
        unsigned before = pi_unit_nsites(), c0 = pi_unit_ncounters(), a0 = pi_unit_narcs();
        late_phase = true;
        count_execute(cfun);
        late_phase = false;
        pi_order_counters(cfun, c0, before, a0);
        free_dominance_info(CDI_DOMINATORS);
        free_dominance_info(CDI_POST_DOMINATORS);
        if (pi_unit_nsites() != before)
            done.safe_push(node);
        pop_cfun();
    }
    free_split_entered();
    if (keep_name)
        FOR_EACH_DEFINED_FUNCTION(node)
        if (gimple_has_body_p(node->decl) && DECL_INITIAL(node->decl))
            drop_keep_vars(DECL_INITIAL(node->decl));
    for (unsigned i = 0; i < done.length(); i++) {
        node = done[i];
        node->set_const_flag(false, false);
        node->set_pure_flag(false, false);
    }
    for (unsigned i = 0; i < done.length(); i++) {
        node = done[i];
        push_cfun(DECL_STRUCT_FUNCTION(node->decl));
        basic_block bb;
        FOR_EACH_BB_FN(bb, cfun)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
            if (is_gimple_call(gsi_stmt(gsi)))
                update_stmt(gsi_stmt(gsi));
        mark_virtual_operands_for_renaming(cfun);
        update_ssa(TODO_update_ssa);
        cgraph_edge::rebuild_edges();
        pop_cfun();
    }
    pi_unit_finish();
    pi_scale_inline_limits(); /* the early passes saw -O's limits (perfinst.cc) */
    return 0;
}
PI_SIMPLE_IPA_PASS(count_late)
