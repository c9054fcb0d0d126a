/* pass-loopmarks.cc — the site markers of a branch-free loop out of GCC's
 * loop distribution's and vectorizer's way.
 *
 * A block's site marker is an empty volatile asm (pass-count.cc
 * pi_site_marker; pass-ranges.cc makes it the label that starts the
 * block's code range).  Loop distribution and the vectorizer refuse a loop
 * that holds an asm, so a loop -O2 makes a memset, a memcpy or vector code
 * stayed a scalar loop in a counting body — and in f, made of it
 * (clean-copies=final): cmark's `for (i = 0; i <= 1000; i++)
 * e->backticks[i] = 0;`, 6.0 M instructions in -O2's code, 48 M counted
 * and in the off mode (bench/RESULTS.md 2026-12-06 17:40).
 *
 * So right before "ldist" (loops_off) the markers of every innermost loop
 * of at most two blocks with no call and no other asm (a loop without a
 * branch but its exit's: its blocks run as often, give or take one; a
 * loop's counters are in registers by then, pi_promote_loop_counters, or
 * GCC's store motion's) are taken out and kept by loop number, and right
 * after "vect" (loops_on) they are put back at the start of the loop's
 * header, the first last: the loop's code, vectorised or not, is then in
 * the range of its first statement's site, the ranges of the others
 * empty, and the data model and the plan weigh its references and bytes
 * by that site's count, as before.  A loop
 * distribution replaced by a call (the memset) has no header: its markers
 * are dropped, and that call is in the range before it.  The counts are
 * the counters', unchanged.
 *
 * Only in a function kept whole until expansion (pi_kept_one_body:
 * clean-copies=final, none, loops), not with clean-copies=late, whose copy
 * of a vectorised body made GCC fail in expand (at -O3), nor in the
 * counting copies of clean-copies=all, which the training build of the
 * rebuild loop uses: its plan is made from the code the training build
 * counted. */
#include "plugin.h"
#include "cfgloop.h"
#include "tree-ssa.h"

struct loop_mark {
    char *text; /* (malloc'd: out of the IL a statement would be GCC's
                   garbage, collected between passes) */
    location_t loc;
};

struct loop_marks {
    int loop; /* its number */
    auto_vec<loop_mark> markers;
    ~loop_marks()
    {
        for (loop_mark &k : markers)
            free(k.text);
    }
};

/* the function whose markers are out (one at a time: the passes between
   work on one function) */
static tree marks_fn;
static vec<loop_marks *> marks;

static void forget(void)
{
    for (loop_marks *m : marks)
        delete m;
    marks.release();
    marks_fn = NULL_TREE;
}

static bool loopmarks_off_gate(function *fun)
{
    return pi_counter_decl() && !seen_error() && pi_opt.clean_copies != PI_CLEAN_LATE &&
           pi_opt.clean_copies != PI_CLEAN_ALL && pi_kept_one_body(fun->decl) && loops_for_fn(fun);
}

static unsigned int loopmarks_off_execute(function *fun)
{
    forget();
    for (auto loop : loops_list(fun, LI_ONLY_INNERMOST)) {
        if (loop->num_nodes > 2)
            continue;
        basic_block *body = get_loop_body(loop);
        auto_vec<gimple *> found;
        bool ok = true;
        for (unsigned i = 0; ok && i < loop->num_nodes; i++)
            for (gimple_stmt_iterator gsi = gsi_start_bb(body[i]); ok && !gsi_end_p(gsi); gsi_next(&gsi)) {
                gimple *g = gsi_stmt(gsi);
                if (pi_is_site_marker(g) && !strchr(gimple_asm_string(as_a<gasm *>(g)), '\n'))
                    found.safe_push(g);
                else if ((is_gimple_call(g) && !gimple_call_internal_p(g)) || gimple_code(g) == GIMPLE_ASM)
                    ok = false;
            }
        free(body);
        if (!ok || found.is_empty())
            continue;
        loop_marks *m = new loop_marks;
        m->loop = loop->num;
        for (gimple *g : found) {
            m->markers.safe_push({xstrdup(gimple_asm_string(as_a<gasm *>(g))), gimple_location(g)});
            gimple_stmt_iterator gsi = gsi_for_stmt(g);
            unlink_stmt_vdef(g);
            gsi_remove(&gsi, true);
            release_defs(g);
        }
        marks.safe_push(m);
    }
    if (marks.is_empty())
        return 0;
    marks_fn = fun->decl;
    return TODO_update_ssa_only_virtuals;
}

static bool loopmarks_on_gate(function *fun) { return marks_fn && marks_fn == fun->decl; }

static unsigned int loopmarks_on_execute(function *fun)
{
    for (loop_marks *m : marks) {
        class loop *loop = get_loop(fun, m->loop);
        if (!loop || !loop->header)
            continue;
        /* the first last: its range holds the loop's code (the loop's
           first statement's site: its body's, where the exit's test,
           copied before the loop, runs once more) */
        gimple_stmt_iterator gsi = gsi_after_labels(loop->header);
        for (unsigned i = m->markers.length(); i-- > 0;) {
            gsi_insert_before(&gsi, pi_volatile_asm(m->markers[i].text, m->markers[i].loc), GSI_SAME_STMT);
        }
    }
    forget();
    return TODO_update_ssa_only_virtuals;
}

PI_GIMPLE_PASS(loopmarks_off, PROP_cfg | PROP_ssa)
PI_GIMPLE_PASS(loopmarks_on, PROP_cfg | PROP_ssa)
