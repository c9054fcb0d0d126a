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
 * (an -O0 build, which gcov users compare with, has none); a statement
 * that may not return (stmt_can_terminate_bb_p: a call, a volatile asm)
 * and is not the block's last ends a gcov block there (GCC splits the
 * block after it, gimple_flow_call_edges_add): a line 0 in the list; and
 * the line of the goto that the CFG replaced by the block's only edge,
 * unless a statement already had that location.  An edge out of a block
 * with several (a fake one counted) whose goto has a line other than the
 * block's last statement's is a gcov block of its own, whose line is that
 * goto's (none if a statement had the goto's location): pi_edge_line
 * says so, for the arc (arcs.cc, PI_ARC_BLOCK).
 */
#include "plugin.h"

typedef hash_set<int_hash<location_t, UNKNOWN_LOCATION, BUILTINS_LOCATION>> loc_set;

struct edge_line {
    edge e;
    pi_line line;
};
static vec<edge_line> edge_lines; /* of the function last recorded */

static bool lines_skip(gimple *g)
{
    unsigned id;
    int what;
    return is_gimple_debug(g) || pi_is_marker_call(g, &id, &what);
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

    void add(const char *file, unsigned line)
    {
        if (!file)
            return;
        line = line ? line : 1; /* (profile.cc: MAX (1, line)) */
        for (unsigned i = 0; i < streamed_line.length(); i++)
            if (streamed_line[i] == line && !strcmp(streamed_file[i], file))
                return;
        streamed_file.safe_push(file);
        streamed_line.safe_push(line);
        pi_line l = {pi_unit_file(file), line};
        v.safe_push(l);
    }
    void end_block(void)
    {
        pi_line l = {0, 0};
        v.safe_push(l);
        streamed_file.truncate(0);
        streamed_line.truncate(0);
    }
};

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
    edge_line el = {e, {pi_unit_file(file), line ? line : 1}};
    edge_lines.safe_push(el);
}

void pi_lines_record(function *fun, basic_block first, const vec<int> &site_of)
{
    edge_lines.truncate(0);
    loc_set seen;
    hash_map<int_hash<int, -1, -2>, unsigned> slot; /* bb index -> index into lists */
    auto_delete_vec<line_list> lists;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        if ((unsigned)bb->index >= site_of.length() || site_of[bb->index] < 0)
            continue;
        line_list *l = new line_list;
        slot.put(bb->index, lists.length());
        lists.safe_push(l);
        if (bb == first) {
            location_t loc = DECL_SOURCE_LOCATION(fun->decl);
            if (!RESERVED_LOCATION_P(loc)) {
                seen.add(loc);
                expanded_location x = expand_location(loc);
                l->add(x.file, x.line);
            }
        }
        gimple *last = last_real(bb);
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (lines_skip(g))
                continue;
            location_t loc = gimple_location(g);
            if (!RESERVED_LOCATION_P(loc)) {
                seen.add(loc);
                expanded_location x = expand_location(loc);
                l->add(x.file, x.line);
            }
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
            edge_line el = {e, {0, 0}};
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
       edge's source block when that has one way out, else to the edge's own
       gcov block (as a goto's line does above); only a location no statement
       holds, so that a line the statements still show is not counted twice */
    loc_set stmt_locus; /* (the statements' locations without their inline blocks) */
    for (loc_set::iterator it = seen.begin(); it != seen.end(); ++it)
        if (!RESERVED_LOCATION_P(LOCATION_LOCUS(*it)))
            stmt_locus.add(LOCATION_LOCUS(*it));
    FOR_EACH_BB_FN(bb, fun)
    for (gphi_iterator pi = gsi_start_phis(bb); !gsi_end_p(pi); gsi_next(&pi)) {
        gphi *phi = pi.phi();
        for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
            location_t loc = gimple_phi_arg_location(phi, i);
            edge e = gimple_phi_arg_edge(phi, i);
            unsigned *k = slot.get(e->src->index);
            if (RESERVED_LOCATION_P(LOCATION_LOCUS(loc)) || stmt_locus.contains(LOCATION_LOCUS(loc)) || !k)
                continue;
            expanded_location x = expand_location(loc);
            if (!x.file)
                continue;
            bool fake = ends_with_fake_exit(e->src) || EDGE_COUNT(e->src->succs) == 0;
            if (EDGE_COUNT(e->src->succs) + fake <= 1) {
                lists[*k]->add(x.file, x.line);
                continue;
            }
            phi_edge_line(e, x.file, x.line);
        }
    }
    /* into the unit, site by site (a site's lines are consecutive) */
    FOR_EACH_BB_FN(bb, fun)
    if (unsigned *k = slot.get(bb->index)) {
        line_list *l = lists[*k];
        while (!l->v.is_empty() && !l->v.last().line)
            l->v.pop(); /* (a trailing end: nothing follows) */
        for (unsigned i = 0; i < l->v.length(); i++)
            pi_unit_add_line(site_of[bb->index], l->v[i].file, l->v[i].line);
    }
}

bool pi_edge_line(edge e, uint32_t *file, uint32_t *line)
{
    for (unsigned i = 0; i < edge_lines.length(); i++)
        if (edge_lines[i].e == e) {
            *file = edge_lines[i].line.file;
            *line = edge_lines[i].line.line;
            return true;
        }
    *file = *line = 0;
    return false;
}
