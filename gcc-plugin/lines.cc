/* lines.cc — the source lines of a counted function's blocks, recorded the
 * way GCC records them for gcov (profile.cc, branch_prob), so that pmopt
 * report can count lines by gcov's rule (docs/pmopt.md, "Lines"); called
 * from the count pass (pass-count.cc) before it changes anything.
 *
 *     3  int f(int n)                      site 0: 3, 5, 6
 *     4  {                                 site 1: 6, | 6     (| : the call g(i) ends a gcov block)
 *     5      int s = 0;                    site 2: 6
 *     6      for (int i = 0; i < n; i++) s += g(i);  ...
 *
 * For each block, in the order of GCC's block chain: the function's own
 * line on its first block; then every statement's line (a line the same
 * gcov block already has left out), labels included, debug statements not
 * (an -O0 build, which gcov users compare with, has none: with -g gcov
 * counts a loop's latch line by its debug statement's block outside the
 * loop too); a statement
 * that may not return (stmt_can_terminate_bb_p: a call, a volatile asm)
 * and is not the block's last ends a gcov block there (GCC splits the
 * block after it, gimple_flow_call_edges_add): a PI_LINE_END mark; and
 * the line of the goto that the CFG replaced by the block's only edge,
 * unless a statement already had that location; and for a statement of an
 * inlined body, the line of each call it was inlined through, after a
 * PI_LINE_VIA mark (once per gcov block: add_calls_lines).  An edge out of a block
 * with several (a fake one counted) whose goto has a line other than the
 * block's last statement's is a gcov block of its own, whose line is that
 * goto's (none if a statement had the goto's location): pi_edge_line
 * says so, for the arc (arcs.cc, PI_ARC_BLOCK).  The function's last block
 * in GCC's numbering, which gcov lists under no line, gets a PI_LINE_LAST
 * mark (PI_ARC_LAST when it is an edge's block); a line folded into a PHI
 * argument goes after a PI_LINE_RUN mark, and so does a line that only a
 * debug statement still shows (-g above -O0: main's `return 0;`, `int n =
 * 2;` folded away), in its block, with -O0's count, as gcov of a -g build
 * lists it.
 *
 * count-at=late sees what GCC's early ipa-split made of a function F that
 * -fprofile-generate keeps whole (ipa-split.cc's gate): F's header, which
 * the early inliner puts into callers, and F.part.N, the rest.  Their lines
 * are recorded as gcov records F's: F.part.N's first block without F's
 * own line (it is a block in the middle of F), and in a caller an inlined
 * header's statements a gcov block of their own (gcov's caller calls F and
 * is cut after the call), which opens, once per inlined copy, with F's
 * line; the call's line goes to the caller's block before it.
 */
#include "plugin.h"

typedef hash_set<int_hash<location_t, UNKNOWN_LOCATION, BUILTINS_LOCATION>> loc_set;

struct edge_line {
    edge e;
    pi_line line;
    bool split;   /* GCC splits the edge (a goto's line), not only a PHI line's */
    bool last;    /* its block is the function's last in GCC's numbering */
};
static vec<edge_line> edge_lines; /* of the function last recorded */

static bool is_marker(gimple *g)
{
    unsigned id;
    int what;
    return pi_is_marker_call(g, &id, &what);
}

static bool lines_skip(gimple *g)
{
    return is_gimple_debug(g) || is_marker(g);
}

/* The last statement of bb (debug statements and markers aside). */
static gimple *last_real(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_last_bb(bb); !gsi_end_p(gsi); gsi_prev(&gsi))
        if (!lines_skip(gsi_stmt(gsi)))
            return gsi_stmt(gsi);
    return NULL;
}

/* Does GCC give bb a fake edge to the exit (its last statement may not return)? */
static bool ends_with_fake_exit(basic_block bb)
{
    gimple *last = last_real(bb);
    return last && stmt_can_terminate_bb_p(last);
}

bool pi_lines_split_by_call(basic_block bb)
{
    gimple *last = last_real(bb);
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (g == last)
            break;
        if (!lines_skip(g) && is_gimple_call(g) && stmt_can_terminate_bb_p(g))
            return true;
    }
    return false;
}

struct line_list {
    auto_vec<pi_line> v;
    auto_vec<const char *> streamed_file; /* what the current gcov block has */
    auto_vec<unsigned> streamed_line;
    auto_vec<pi_line> via;                /* the calls' lines the current gcov block has */
    unsigned ends = 0; /* PI_LINE_END marks so far: the gcov block being added is the ends-th piece */

    void push_mark(unsigned what)
    {
        pi_line mark = {0, what};
        v.safe_push(mark);
    }
    bool is_mark(unsigned i, unsigned what) { return v[i].file == 0 && v[i].line == what; }
    bool is_via(unsigned i) { return is_mark(i, PI_LINE_VIA); }
    bool has(const char *file, unsigned line)
    {
        for (unsigned i = 0; i < streamed_line.length(); i++)
            if (streamed_line[i] == line && !strcmp(streamed_file[i], file))
                return true;
        return false;
    }
    void add(const char *file, unsigned line)
    {
        line = line ? line : 1; /* (profile.cc: MAX (1, line)) */
        if (!file || has(file, line))
            return;
        streamed_file.safe_push(file);
        streamed_line.safe_push(line);
        pi_line l = {pi_unit_file(file), line};
        v.safe_push(l);
    }
    /* LINE in a run of its own (a line gcov does not know: where gcov
       lists the block stays as it was) */
    void add_run(const char *file, unsigned line)
    {
        if (!file || has(file, line ? line : 1))
            return;
        push_mark(PI_LINE_RUN);
        add(file, line);
    }
    /* the line of a call whose inlined body the gcov block is part of */
    void add_via(const char *file, unsigned line)
    {
        pi_line l = {pi_unit_file(file), line ? line : 1};
        for (unsigned i = 0; i < via.length(); i++)
            if (via[i].file == l.file && via[i].line == l.line)
                return;
        via.safe_push(l);
        push_mark(PI_LINE_VIA);
        v.safe_push(l);
    }
    void end_block(void)
    {
        push_mark(PI_LINE_END);
        streamed_file.truncate(0);
        streamed_line.truncate(0);
        via.truncate(0);
        ends++;
    }
    /* LINE in a run of its own at the end of the PIECE-th gcov block of
       the list (before its end mark), once per piece */
    void add_run_in(unsigned piece, pi_line line)
    {
        unsigned at = 0, n = 0;
        while (at < v.length() && !(is_mark(at, PI_LINE_END) && n++ == piece))
            at++;
        for (unsigned i = at; i-- > 0 && !is_mark(i, PI_LINE_END);)
            if (v[i].file == line.file && v[i].line == line.line && !(i && is_via(i - 1)))
                return;
        pi_line mark = {0, PI_LINE_RUN};
        v.safe_insert(at, line);
        v.safe_insert(at, mark);
    }
};

/* a line only a debug statement shows: its list, the gcov block of the list */
struct debug_line {
    unsigned list, piece;
    pi_line line;
};

/* The line of BB's last statement of FILE with a line (not a marker's
 * asm), 0 if none */
static unsigned last_line_in(basic_block bb, const char *file)
{
    for (gimple_stmt_iterator gsi = gsi_last_bb(bb); !gsi_end_p(gsi); gsi_prev(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (is_gimple_debug(g) || gimple_code(g) == GIMPLE_ASM ||
            RESERVED_LOCATION_P(LOCATION_LOCUS(gimple_location(g))))
            continue;
        expanded_location x = expand_location(gimple_location(g));
        return x.file && !strcmp(x.file, file) ? x.line : 0;
    }
    return 0;
}

/* Whether argument I of PHI, the value its block returns, is not its
 * line's own among the arguments that repeat its location and constant:
 * GCC lowers every `return C;` of one constant C to one return statement
 * at the first one's location (gimple-low.cc), so the edges of the others
 * carry that line too.  The line's own edge is taken to be the one from
 * the nearest code before it (the largest last line at or before it: two
 * if a condition on one line has two blocks); with none before it, none
 * (gcov -O2 lists none of them) */
static bool merged_return_arg(gphi *phi, unsigned i)
{
    gimple *last = last_stmt(gimple_bb(phi));
    greturn *ret = last ? dyn_cast<greturn *>(last) : NULL;
    tree a = gimple_phi_arg_def(phi, i);
    if (!ret || gimple_return_retval(ret) != gimple_phi_result(phi) || !CONSTANT_CLASS_P(a))
        return false;
    location_t loc = LOCATION_LOCUS(gimple_phi_arg_location(phi, i));
    expanded_location x = expand_location(loc);
    unsigned best = 0, mine = 0;
    bool dup = false;
    for (unsigned j = 0; j < gimple_phi_num_args(phi) && x.file; j++) {
        if (LOCATION_LOCUS(gimple_phi_arg_location(phi, j)) != loc ||
            !operand_equal_p(a, gimple_phi_arg_def(phi, j), 0))
            continue;
        unsigned l = last_line_in(gimple_phi_arg_edge(phi, j)->src, x.file);
        if (l <= (unsigned)x.line && l > best)
            best = l;
        if (j == i)
            mine = l;
        else
            dup = true;
    }
    return dup && (!best || mine != best);
}

/* Whether BB holds nothing with a line (labels, debug statements and
 * markers aside) and goes one way: a forwarder GCC left where gotos meet */
static bool empty_forwarder(basic_block bb)
{
    if (!single_succ_p(bb) || EDGE_COUNT(bb->preds) < 2)
        return false;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (lines_skip(g) || gimple_code(g) == GIMPLE_LABEL || gimple_code(g) == GIMPLE_ASM)
            continue;
        if (gimple_code(g) == GIMPLE_GOTO || RESERVED_LOCATION_P(LOCATION_LOCUS(gimple_location(g))))
            continue;
        return false;
    }
    return true;
}

/* Argument I of PHI, the value its block returns, a constant or a
 * variable at a line whose edge comes from an empty forwarder that code
 * after the line also goes through (GCC lowers every `return X;` of one
 * X, a constant or a variable, to one return at the first's location, and
 * the returns' paths may meet in one block before the PHI): Tcl's
 * Tcl_RegexpObjCmd, the `return TCL_OK;` of its rarely taken `about`
 * branch (tclCmdMZ.c:249), and TclCompileObj's first `return codePtr;`
 * (tclExecute.c:1766) were listed with every call's count, the
 * forwarder's, where gcov -O0 says 0.  Puts the forwarder's in-edges that
 * are the line's own, as merged_return_arg takes them (from the nearest
 * code before it), into OWN and says true; false when the argument is not
 * such (no way in from after the line: gotos to a label before the line,
 * whose statement every one of them runs) */
static bool merged_return_forwarder(gphi *phi, unsigned i, vec<edge> *own)
{
    gimple *last = last_stmt(gimple_bb(phi));
    greturn *ret = last ? dyn_cast<greturn *>(last) : NULL;
    tree a = gimple_phi_arg_def(phi, i);
    if (!ret || gimple_return_retval(ret) != gimple_phi_result(phi) ||
        !(CONSTANT_CLASS_P(a) || TREE_CODE(a) == SSA_NAME))
        return false;
    basic_block f = gimple_phi_arg_edge(phi, i)->src;
    if (!empty_forwarder(f))
        return false;
    expanded_location x = expand_location(gimple_phi_arg_location(phi, i));
    if (!x.file)
        return false;
    unsigned best = 0;
    bool after = false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, f->preds)
    {
        unsigned l = last_line_in(e->src, x.file);
        if (l > (unsigned)x.line)
            after = true;
        else if (l > best)
            best = l;
    }
    if (!after)
        return false;
    FOR_EACH_EDGE(e, ei, f->preds)
    if (best && last_line_in(e->src, x.file) == best)
        own->safe_push(e);
    return true;
}

/* E's gcov block gets LINE of FILE, unless it has a line already (one
 * line per edge block: a second is left out) */
static void phi_edge_line(edge e, const char *file, unsigned line)
{
    for (unsigned i = 0; i < edge_lines.length(); i++)
        if (edge_lines[i].e == e) {
            if (!edge_lines[i].line.file) {
                edge_lines[i].line.file = pi_unit_file(file);
                edge_lines[i].line.line = line ? line : 1;
            }
            return;
        }
    edge_line el = {e, {pi_unit_file(file), line ? line : 1}, false, false};
    edge_lines.safe_push(el);
}

/* The functions the early ipa-split cut in two (the origins of the parts). */
static void split_functions(hash_set<tree> &split)
{
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    if (pi_split_part(node->decl))
        split.add(DECL_ORIGIN(node->decl));
}

/* The inlined header of a split function that G is a statement of (its
 * outer BLOCK), or NULL. */
static tree split_header(gimple *g, hash_set<tree> &split)
{
    if (split.is_empty())
        return NULL_TREE;
    for (tree b = gimple_block(g); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (inlined_function_outer_scope_p(b)) {
            tree origin = block_ultimate_origin(b);
            if (origin && split.contains(origin))
                return b;
        }
    return NULL_TREE;
}

/* The outermost inlined body BLOCK is in, or NULL. */
static tree outer_inline(tree block)
{
    tree outer = NULL_TREE;
    for (tree b = block; b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (inlined_function_outer_scope_p(b))
            outer = b;
    return outer;
}

/* The lines of the calls whose inlined bodies G is a statement of (each
 * call's line in its caller), into L's gcov block: at -O0 such a body is
 * the call, one statement of the call's line, so the caller's line is not
 * left and entered again through it (a split function's inlined header
 * too: gcov's caller calls the whole function).  None for the body a part
 * GCC's early ipa-split cut off opens in (OPENS): that body may have
 * begun in the header, which entered the call's line already. */
static void add_calls_lines(line_list *l, gimple *g, tree opens)
{
    if (opens && outer_inline(gimple_block(g)) == opens)
        return;
    for (tree b = gimple_block(g); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b)) {
        if (!inlined_function_outer_scope_p(b))
            continue;
        location_t call = BLOCK_SOURCE_LOCATION(b);
        if (RESERVED_LOCATION_P(call))
            continue;
        expanded_location x = expand_location(call);
        if (x.file)
            l->add_via(x.file, x.line);
    }
}

/* The inlined body the function's first located statement is in (from
 * FIRST, in chain order), or NULL. */
static tree part_opens(function *fun, basic_block first)
{
    for (basic_block b = first; b && b != EXIT_BLOCK_PTR_FOR_FN(fun); b = b->next_bb)
        for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi); gsi_next(&gsi))
            if (!lines_skip(gsi_stmt(gsi)) && !RESERVED_LOCATION_P(gimple_location(gsi_stmt(gsi))))
                return outer_inline(gimple_block(gsi_stmt(gsi)));
    return NULL_TREE;
}

/* Does X (a block; an edge's block when X < 0: edge_lines[-X - 1]) fall
 * into DEST by an edge that is not complex (split_edge_bb_loc's test)?
 * SPLIT: the edges split so far, which go to their blocks now. */
static bool falls_into(function *fun, int x, basic_block dest, hash_set<edge> &split)
{
    if (x < 0)
        return edge_lines[-x - 1].e->dest == dest;
    basic_block b = BASIC_BLOCK_FOR_FN(fun, x);
    if (dest == EXIT_BLOCK_PTR_FOR_FN(fun) && (ends_with_fake_exit(b) || EDGE_COUNT(b->succs) == 0))
        return true; /* (its fake edge to the exit, flow_call_edges_add's) */
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, b->succs)
    if (e->dest == dest && !(e->flags & EDGE_COMPLEX) && !split.contains(e))
        return true;
    return false;
}

/* gcov takes a function's last block (the highest number once profile.cc
 * has split blocks and edges and compacted them) for its exit block and
 * lists it under no line (gcov.cc add_line_counts): its lines count only
 * where a line has no block of its own.  Which block that is, by GCC's
 * steps: blocks in chain order, a call's split-off piece right after its
 * block, an edge's block placed as split_edge_bb_loc places it.  Returns
 * the block whose last piece is last, or NULL when an edge's block is
 * (marked in edge_lines) or there is no block. */
static basic_block last_gcov_block(function *fun)
{
    auto_vec<int> chain; /* block index, or -(edge_lines index + 1) */
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    chain.safe_push(bb->index);
    hash_set<edge> split;
    FOR_EACH_BB_FN(bb, fun)
    {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        for (unsigned k = 0; k < edge_lines.length(); k++) {
            if (edge_lines[k].e != e || !edge_lines[k].split)
                continue;
            int at = -1; /* dest's place in the chain (the exit: past the end) */
            for (unsigned i = 0; i < chain.length() && at < 0; i++)
                if (chain[i] == e->dest->index)
                    at = (int)i;
            if (e->dest == EXIT_BLOCK_PTR_FOR_FN(fun))
                at = (int)chain.length();
            int after = -1;
            if (at > 0)
                after = falls_into(fun, chain[at - 1], e->dest, split) ? bb->index : chain[at - 1];
            split.add(e);
            int pos = -1;
            for (unsigned i = 0; i < chain.length() && pos < 0; i++)
                if (chain[i] == after)
                    pos = (int)i;
            if (pos >= 0)
                chain.safe_insert(pos + 1, -(int)k - 1);
        }
    }
    if (chain.is_empty())
        return NULL;
    if (chain.last() < 0) {
        edge_lines[-chain.last() - 1].last = true;
        return NULL;
    }
    return BASIC_BLOCK_FOR_FN(fun, chain.last());
}

/* Whether the statement whose `# DEBUG BEGIN_STMT` is at GSI has code at
   -O0 though only the marker shows its line here (with -g above -O0 a
   marker stands at each statement's place): its code lost its line
   (main's `return 0;`: `return 0` without a location follows) or was
   folded away but set a variable (`int n = 2;`: `# DEBUG n => 2`
   follows) or called a function the early inliner inlined (`# DEBUG
   INLINE_ENTRY` follows).  Not when another statement's marker follows:
   `do {`, `for (;;)`, a declaration without a value, which have no code
   at -O0 either. */
static bool has_code(gimple_stmt_iterator gsi)
{
    gsi_next(&gsi);
    while (!gsi_end_p(gsi) && is_marker(gsi_stmt(gsi)))
        gsi_next(&gsi);
    return !gsi_end_p(gsi) && !gimple_debug_begin_stmt_p(gsi_stmt(gsi));
}

void pi_lines_record(function *fun, basic_block first, const vec<int> &site_of)
{
    edge_lines.truncate(0);
    hash_set<tree> split, opened; /* (opened: the inlined headers given their function's line) */
    auto_vec<debug_line> debug_lines;
    split_functions(split);
    loc_set seen;
    hash_map<int_hash<int, -1, -2>, unsigned> slot; /* bb index -> index into lists */
    auto_delete_vec<line_list> lists;
    tree opens = pi_split_part(fun->decl) ? part_opens(fun, first) : NULL_TREE;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        if ((unsigned)bb->index >= site_of.length() || site_of[bb->index] < 0)
            continue;
        line_list *l = new line_list;
        slot.put(bb->index, lists.length());
        lists.safe_push(l);
        if (bb == first && !pi_split_part(fun->decl)) {
            location_t loc = DECL_SOURCE_LOCATION(fun->decl);
            if (!RESERVED_LOCATION_P(loc)) {
                seen.add(loc);
                expanded_location x = expand_location(loc);
                l->add(x.file, x.line);
            }
        }
        gimple *last = last_real(bb);
        tree header = NULL_TREE; /* the inlined header of a split function being recorded */
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (gimple_debug_begin_stmt_p(g) && !RESERVED_LOCATION_P(gimple_location(g)) && has_code(gsi)) {
                expanded_location x = expand_location(gimple_location(g));
                if (x.file) {
                    debug_line d = {lists.length() - 1, l->ends, {pi_unit_file(x.file), (uint32_t)(x.line ? x.line : 1)}};
                    debug_lines.safe_push(d);
                }
            }
            if (lines_skip(g))
                continue;
            tree h = split_header(g, split);
            if (h != header) {
                bool open = h && !opened.add(h);
                location_t call = open ? BLOCK_SOURCE_LOCATION(h) : UNKNOWN_LOCATION;
                if (!RESERVED_LOCATION_P(call)) { /* the call's line, in the caller's gcov block */
                    seen.add(call);
                    expanded_location x = expand_location(call);
                    l->add(x.file, x.line);
                }
                if (!l->streamed_line.is_empty())
                    l->end_block(); /* (gcov's caller is cut after the call) */
                header = h;
                if (open) {
                    expanded_location x = expand_location(DECL_SOURCE_LOCATION(block_ultimate_origin(h)));
                    l->add(x.file, x.line);
                }
            }
            location_t loc = gimple_location(g);
            if (!RESERVED_LOCATION_P(loc)) {
                seen.add(loc);
                expanded_location x = expand_location(loc);
                l->add(x.file, x.line);
            }
            add_calls_lines(l, g, opens); /* (a call of a split part has no line) */
            if (g != last && stmt_can_terminate_bb_p(g))
                l->end_block();
        }
        bool fake = ends_with_fake_exit(bb) || EDGE_COUNT(bb->succs) == 0;
        location_t loc;
        if (single_succ_p(bb) && !fake && (loc = single_succ_edge(bb)->goto_locus) &&
            !RESERVED_LOCATION_P(loc) && !seen.contains(loc)) {
            expanded_location x = expand_location(loc);
            l->add(x.file, x.line);
        }
        /* the gcov blocks on bb's edges */
        if (EDGE_COUNT(bb->succs) + fake <= 1)
            continue;
        gimple *located = NULL;
        for (gimple_stmt_iterator gsi = gsi_last_bb(bb); !gsi_end_p(gsi) && !located; gsi_prev(&gsi))
            if (!is_gimple_debug(gsi_stmt(gsi)) && !RESERVED_LOCATION_P(gimple_location(gsi_stmt(gsi))))
                located = gsi_stmt(gsi);
        if (!located)
            continue;
        expanded_location lx = expand_location(gimple_location(located));
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        {
            if (RESERVED_LOCATION_P(e->goto_locus))
                continue;
            expanded_location gx = expand_location(e->goto_locus);
            if (gx.line == lx.line && gx.file && lx.file && !strcmp(gx.file, lx.file))
                continue;
            edge_line el = {e, {0, 0}, true, false};
            if (!seen.contains(e->goto_locus) && gx.file) {
                el.line.file = pi_unit_file(gx.file);
                el.line.line = gx.line ? gx.line : 1;
            }
            edge_lines.safe_push(el);
        }
    }
    /* lines the early optimisations folded into PHI arguments (count-at=
       late: `return 10;` a constant on the edge into the return block):
       such a line runs as often as its argument's edge, so it goes to the
       edge's source block when that has one way out (in a run of its own,
       so that it does not move where the block is listed), else to the edge
       (pi_edge_line's PHI: not a gcov block between the edge's ends for the
       other lines, PI_ARC_PHI); only a line no statement of
       the function is on: gcov counts a line the statements still show by
       its statements' blocks alone (a `for` line's `n = 1` folded into the
       loop's PHI is not counted again on the edge), nor a goto's line that
       a block or an edge's block has (Lua's luaD_precall: two `return
       NULL;` merged into one PHI argument at the second's line, which an
       edge's goto also has: gcov counts the edge) */
    hash_set<int_hash<uint64_t, 0, UINT64_MAX>> stmt_lines; /* (file << 32 | line) */
    for (loc_set::iterator it = seen.begin(); it != seen.end(); ++it) {
        expanded_location x = expand_location(*it);
        if (x.file)
            stmt_lines.add((uint64_t)pi_unit_file(x.file) << 32 | (x.line ? x.line : 1));
    }
    for (unsigned k = 0; k < lists.length(); k++)
        for (unsigned i = 0; i < lists[k]->v.length(); i++)
            if (lists[k]->v[i].file && !(i && lists[k]->is_via(i - 1)))
                stmt_lines.add((uint64_t)lists[k]->v[i].file << 32 | lists[k]->v[i].line);
    for (unsigned i = 0; i < edge_lines.length(); i++)
        if (edge_lines[i].line.file)
            stmt_lines.add((uint64_t)edge_lines[i].line.file << 32 | edge_lines[i].line.line);
    hash_set<int_hash<uint64_t, 0, UINT64_MAX>> phi_lines, debug_keys;
    /* (a line a debug statement marks where its statement was is counted
       there, not on the PHI argument's edge: `int s = 0;` runs on every
       call, its constant flows on one edge only) */
    for (unsigned i = 0; i < debug_lines.length(); i++)
        debug_keys.add((uint64_t)debug_lines[i].line.file << 32 | debug_lines[i].line.line);
    FOR_EACH_BB_FN(bb, fun)
    for (gphi_iterator pi = gsi_start_phis(bb); !gsi_end_p(pi); gsi_next(&pi)) {
        gphi *phi = pi.phi();
        for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
            location_t loc = gimple_phi_arg_location(phi, i);
            edge e = gimple_phi_arg_edge(phi, i);
            unsigned *k = slot.get(e->src->index);
            if (RESERVED_LOCATION_P(LOCATION_LOCUS(loc)) || !k)
                continue;
            expanded_location x = expand_location(loc);
            if (!x.file)
                continue;
            uint64_t key = (uint64_t)pi_unit_file(x.file) << 32 | (x.line ? x.line : 1);
            if (stmt_lines.contains(key) || debug_keys.contains(key) || merged_return_arg(phi, i))
                continue;
            phi_lines.add(key);
            auto_vec<edge> own;
            if (merged_return_forwarder(phi, i, &own)) {
                /* the line on its own edges into the forwarder alone */
                for (unsigned j = 0; j < own.length(); j++) {
                    edge o = own[j];
                    unsigned *ko = slot.get(o->src->index);
                    if (!ko)
                        continue;
                    bool ofake = ends_with_fake_exit(o->src) || EDGE_COUNT(o->src->succs) == 0;
                    if (EDGE_COUNT(o->src->succs) + ofake <= 1)
                        lists[*ko]->add_run(x.file, x.line);
                    else
                        phi_edge_line(o, x.file, x.line);
                }
                continue;
            }
            bool fake = ends_with_fake_exit(e->src) || EDGE_COUNT(e->src->succs) == 0;
            if (EDGE_COUNT(e->src->succs) + fake <= 1) {
                lists[*k]->add_run(x.file, x.line);
                continue;
            }
            phi_edge_line(e, x.file, x.line);
        }
    }
    /* the lines only a debug statement shows (has_code), in the gcov
       block of the marker: not a line that has code, a goto or a PHI
       argument (gcov of a -g build counts a loop's latch line by such a
       marker outside the loop too) */
    for (unsigned i = 0; i < debug_lines.length(); i++) {
        uint64_t key = (uint64_t)debug_lines[i].line.file << 32 | debug_lines[i].line.line;
        if (!stmt_lines.contains(key) && !phi_lines.contains(key))
            lists[debug_lines[i].list]->add_run_in(debug_lines[i].piece, debug_lines[i].line);
    }
    /* GCC's last block, which gcov lists under no line */
    basic_block last_bb = last_gcov_block(fun);
    /* into the unit, site by site (a site's lines are consecutive) */
    FOR_EACH_BB_FN(bb, fun)
    if (unsigned *k = slot.get(bb->index)) {
        line_list *l = lists[*k];
        /* (a trailing end stays: the piece after the call is a gcov
           block without lines, which runs the block's count less what
           did not return, and is GCC's last block when bb's is last) */
        if (bb == last_bb && !l->v.is_empty())
            l->push_mark(PI_LINE_LAST);
        for (unsigned i = 0; i < l->v.length(); i++)
            pi_unit_add_line(site_of[bb->index], l->v[i].file, l->v[i].line);
    }
}

bool pi_edge_line(edge e, uint32_t *file, uint32_t *line, bool *last, bool *phi)
{
    for (unsigned i = 0; i < edge_lines.length(); i++)
        if (edge_lines[i].e == e) {
            *file = edge_lines[i].line.file;
            *line = edge_lines[i].line.line;
            *last = edge_lines[i].last;
            *phi = !edge_lines[i].split;
            return true;
        }
    *file = *line = 0;
    *last = *phi = false;
    return false;
}
