/* pass-promote.cc — the rebuild loop promotes indirect calls with a
 * dominant target to speculative direct calls (docs/layout.md "Promoted
 * indirect calls"; the training run's ICALL records, runtime/icall.c).
 *
 *   gcc -O2 -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=prog.fb -c x.c
 *
 * Applies the recommendations (written by optimizer/plan/plan-promote.c)
 *
 *   promote-call fn=NAME src=FILE checksum=0x... block=B call=K target=T
 *                target-file=F calls=C total=N
 *       the K-th call through a pointer (0, 1, ...) in block B (the
 *       position of the block in pass-count's numbering) of function NAME
 *       went to T in C of its N calls in training.
 *
 *     before                             after (GCC's speculative call)
 *     s += o->fn(i);                     p = o->fn;
 *                                        if (p == twice)
 *                                            s += twice(i);   <- may be inlined
 *                                        else
 *                                            s += p(i);       <- the fallback
 *
 * Two steps, because the call is named by the CFG pass-count numbers but a
 * speculative call is a call-graph edge that only the IPA passes keep:
 *
 *   "perfinst_promote_find" (GIMPLE, right after "cfg", beside the branch
 *   profile's pass): in a function whose CFG checksum matches, finds the
 *   call statement (block B, the K-th call without a known callee, as
 *   pass-count counts them) and remembers its source position (the
 *   location's locus) with the target;
 *
 *   "perfinst_promote" (IPA, before "cp", where ipa-devirt makes its own
 *   speculations): every indirect call edge whose statement is at a
 *   remembered position (the original, and copies the early inliner made)
 *   and that may be hot (an edge with a count of zero, not
 *   cgraph_edge::maybe_hot_p, or in a caller the plan calls cold, i.e.
 *   never run in training: left alone and counted) becomes
 *   speculative: cgraph_edge::make_speculative(target node, the
 *   edge's count x C/N), and the caller's function summary is updated
 *   (ipa_update_overall_fn_summary, as ipa-profile.cc does).  ipa-inline
 *   then inlines the direct call when it pays, or takes the speculation
 *   back when it does not; the inline transform expands what is left into
 *   the compare, the direct call and the indirect fallback (gimple_ic), so
 *   behaviour never changes whatever the pointer holds.
 *
 * Targets are looked up by assembler name among this unit's functions: a
 * name that is missing (a static function of another unit, a library
 * function), a declaration without a body here, a static of the same name
 * declared in another file (target-file=), a target whose number of
 * parameters differs from the call's arguments, or a caller whose checksum
 * changed are skipped and counted; one note per unit gives the counts.
 * With -flto the IPA passes run in lto1, which has not seen the calls: no
 * promotion (counted as gone before IPA, with a note).
 */
#include "plugin.h"
#include "pifeedback.h"
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "tree-vrp.h"
#include "ipa-prop.h"
#include "ipa-fnsummary.h"

struct promotion {
    location_t locus;      /* LOCATION_LOCUS of the call statement */
    const struct pifb_rec *rec;
    const char *target;
    uint64_t calls, total;
    unsigned edges;        /* call edges made speculative */
    unsigned cold;         /* call edges left alone: not maybe-hot (a copy in a cold caller) */
    const char *why;       /* the reason it was skipped, or NULL */
};

static vec<promotion> proms;
static struct {
    unsigned recs;         /* recommendations for this unit's source */
    unsigned seen;         /* of those, whose function was compiled */
    unsigned stale, nosite, malformed;
    bool reported;
} ps;

static void warn_rec(const struct pifb_rec *r, const char *what)
{
    warning(OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u (%qs): %s; ignored", pi_feedback_path(),
            r->line, r->number, r->kind, what);
}

/* A call pass-count records as a call site without callee (add_call_sites,
 * add_icall_probe): not internal, not a marker, no known function. */
static bool is_indirect_call(gimple *g)
{
    unsigned id;
    int what;
    if (!is_gimple_call(g) || gimple_call_internal_p(g) || pi_is_marker_call(g, &id, &what))
        return false;
    return gimple_call_fndecl(g) == NULL_TREE;
}

/* The recommendations for FUN taken at this point: right after `cfg`
 * (LATE false: the pass below) or after the early inliner (at=late:
 * pass-feedback.cc's perfinst_fblate, for each function). */
static void promote_find(function *fun, bool late)
{
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl));
    auto_vec<const struct pifb_rec *> recs;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_PROMOTE_CALL, &iter))) {
        const char *name = pifb_get(r, "fn");
        if (name && strcmp(name, fn) == 0 && pi_feedback_for_unit(r) && pi_feedback_point(r) == (int)late)
            recs.safe_push(r);
    }
    if (recs.is_empty())
        return;

    pi_cfg_split_markers(fun); /* the blocks pass-count numbers */
    basic_block entry = pi_cfg_entry(fun);
    auto_sbitmap in(last_basic_block_for_fn(fun));
    bitmap_clear(in);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) bitmap_set_bit(in, bb->index);
    auto_vec<basic_block> order;
    pi_cfg_order(fun, entry, in, order);
    uint64_t cfg = pi_cfg_checksum(order);

    for (unsigned i = 0; i < recs.length(); i++) {
        r = recs[i];
        ps.seen++;
        uint64_t want, block, k, calls, total;
        const char *target = pifb_get(r, "target");
        if (pifb_get_u64(r, "checksum", &want) || pifb_get_u64(r, "block", &block) ||
            pifb_get_u64(r, "call", &k) || pifb_get_u64(r, "calls", &calls) ||
            pifb_get_u64(r, "total", &total) || !target || !*target || calls > total || !total) {
            warn_rec(r, "malformed (it needs checksum=, block=, call=, target=, calls= and total=, "
                        "calls at most total)");
            ps.malformed++;
            continue;
        }
        if (want != cfg) {
            ps.stale++;
            if (pi_opt.verbose)
                inform(DECL_SOURCE_LOCATION(fun->decl),
                       "perfinst: %s: recommendation %u: %qs changed since training (CFG "
                       "checksum %s): its call is not promoted", pi_feedback_path(), r->number, fn,
                       late ? "after the early inliner" : "at cfg");
            continue;
        }
        gimple *call = NULL;
        if (block < order.length()) {
            uint64_t n = 0;
            for (gimple_stmt_iterator gsi = gsi_start_bb(order[block]); !gsi_end_p(gsi); gsi_next(&gsi))
                if (is_indirect_call(gsi_stmt(gsi)) && n++ == k) {
                    call = gsi_stmt(gsi);
                    break;
                }
        }
        if (!call) {
            ps.nosite++;
            warning_at(DECL_SOURCE_LOCATION(fun->decl), OPT_Wmissing_profile,
                       "perfinst: %s:%u: recommendation %u: %qs has no call %llu through a "
                       "pointer in block %llu; not promoted", pi_feedback_path(), r->line,
                       r->number, fn, (unsigned long long)k, (unsigned long long)block);
            continue;
        }
        promotion p;
        memset(&p, 0, sizeof p);
        p.locus = LOCATION_LOCUS(gimple_location(call));
        p.rec = r;
        p.target = target;
        p.calls = calls;
        p.total = total;
        for (unsigned j = 0; j < proms.length(); j++)
            if (proms[j].locus == p.locus && p.locus != UNKNOWN_LOCATION)
                p.why = "another promoted call has the same source position";
        if (p.locus == UNKNOWN_LOCATION)
            p.why = "the call has no source position";
        proms.safe_push(p);
    }
}

static unsigned int promote_find_execute(function *fun)
{
    promote_find(fun, false);
    return 0;
}

void pi_promote_find_late(function *fun)
{
    promote_find(fun, true);
}

/* Did the plan find that FN (or the function it was split or cloned from:
 * the name up to the first dot) never ran: a function-tier cold? */
static bool never_ran(cgraph_node *fn)
{
    const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl));
    const char *dot = strchr(name, '.');
    size_t len = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_FUNCTION_TIER, &iter))) {
        const char *f = pifb_get(r, "fn"), *t = pifb_get(r, "tier");
        if (f && t && strlen(f) == len && strncmp(f, name, len) == 0 && strcmp(t, "cold") == 0 &&
            pi_feedback_for_unit(r))
            return true;
    }
    return false;
}

/* The function named by the recommendation, or NULL with *why set. */
static cgraph_node *target_node(const promotion &p, gimple *call, const char **why)
{
    cgraph_node *n2 = cgraph_node::get_for_asmname(get_identifier(p.target));
    if (!n2) {
        *why = "no function of that name in this unit";
        return NULL;
    }
    n2 = n2->ultimate_alias_target();
    if (!n2 || !n2->definition) {
        *why = "the target has no body in this unit";
        return NULL;
    }
    const char *tf = pifb_get(p.rec, "target-file");
    if (!TREE_PUBLIC(n2->decl) && tf && *tf && strcmp(lbasename(tf), lbasename(DECL_SOURCE_FILE(n2->decl)))) {
        *why = "a static function of that name from another file";
        return NULL;
    }
    tree args = TYPE_ARG_TYPES(TREE_TYPE(n2->decl));
    if (args || !prototype_p(TREE_TYPE(n2->decl))) {
        unsigned nparams = 0;
        bool varargs = true;
        for (tree a = args; a; a = TREE_CHAIN(a)) {
            if (TREE_VALUE(a) == void_type_node) {
                varargs = false;
                break;
            }
            nparams++;
        }
        if (args && (varargs ? gimple_call_num_args(call) < nparams : gimple_call_num_args(call) != nparams)) {
            *why = "the target's parameters do not match the call's arguments";
            return NULL;
        }
    }
    if (n2->get_availability() <= AVAIL_INTERPOSABLE) {
        if (n2->can_be_discarded_p()) {
            *why = "the target may be replaced at link time";
            return NULL;
        }
        /* as ipa-profile.cc: the local alias of the body the profile saw */
        cgraph_node *alias = dyn_cast<cgraph_node *>(n2->noninterposable_alias());
        if (alias)
            n2 = alias;
    }
    return n2;
}

static unsigned int promote_execute(function *)
{
    if (proms.is_empty())
        return 0;
    cgraph_node *n;
    FOR_EACH_DEFINED_FUNCTION(n)
    {
        if (!n->has_gimple_body_p() || n->inlined_to)
            continue;
        bool update = false;
        cgraph_edge *next;
        for (cgraph_edge *e = n->indirect_calls; e; e = next) {
            next = e->next_callee;
            if (!e->call_stmt || e->speculative)
                continue;
            location_t locus = LOCATION_LOCUS(gimple_location(e->call_stmt));
            if (locus == UNKNOWN_LOCATION)
                continue;
            for (unsigned j = 0; j < proms.length(); j++) {
                promotion &p = proms[j];
                if (p.locus != locus || (p.why && !p.edges))
                    continue;
                /* a copy the early inliner put in a caller that never ran
                   (zero count from the branch profile): only code growth */
                if ((e->count.initialized_p() && !e->count.nonzero_p()) || !e->maybe_hot_p() ||
                    never_ran(n)) {
                    p.cold++;
                    break;
                }
                const char *why = NULL;
                cgraph_node *n2 = target_node(p, e->call_stmt, &why);
                if (!n2) {
                    p.why = why;
                    break;
                }
                profile_probability prob =
                    profile_probability::probability_in_gcov_type((gcov_type)p.calls, (gcov_type)p.total);
                e->make_speculative(n2, e->count.apply_probability(prob));
                p.edges++;
                update = true;
                if (dump_file)
                    fprintf(dump_file, "perfinst: promoted the indirect call in %s to %s (%llu of %llu)\n",
                            n->dump_name(), n2->dump_name(), (unsigned long long)p.calls,
                            (unsigned long long)p.total);
                break;
            }
        }
        if (update && ipa_fn_summaries)
            ipa_update_overall_fn_summary(n);
    }
    return 0;
}

/* One note per unit: how many promotions applied, and why the others did
 * not (docs/layout.md "Promoted indirect calls"). */
void pi_promote_report(void)
{
    if (ps.reported || !pi_feedback_path())
        return;
    ps.reported = true;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_PROMOTE_CALL, &iter)))
        if (pi_feedback_for_unit(r))
            ps.recs++;
    if (!ps.recs)
        return;
    unsigned applied = 0, edges = 0, cold = 0, notarget = 0, lost = 0;
    for (unsigned j = 0; j < proms.length(); j++) {
        const promotion &p = proms[j];
        cold += p.cold;
        if (p.edges) {
            applied++;
            edges += p.edges;
        } else if (p.why) {
            notarget++;
            warning_at(UNKNOWN_LOCATION, OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u: the call in %qs "
                       "to %qs is not promoted: %s", pi_feedback_path(), p.rec->line, p.rec->number,
                    pifb_get(p.rec, "fn"), p.target, p.why);
        } else if (!p.cold) {
            lost++; /* optimised away before IPA: folded, or the function removed */
        }
    }
    unsigned absent = ps.recs - ps.seen; /* functions not compiled here */
    unsigned skipped = ps.recs - applied;
    inform(UNKNOWN_LOCATION,
           "perfinst: %s: %u call promotions applied (%u call edges, %u cold ones left "
           "indirect), %u skipped (%u stale, %u target not usable, %u site not found, %u "
           "malformed, %u gone before IPA, %u function not in the unit) in %s",
           pi_feedback_path(), applied, edges, cold, skipped, ps.stale, notarget, ps.nosite,
           ps.malformed, lost, absent, main_input_filename ? main_input_filename : "this unit");
    if (lost && flag_generate_lto)
        inform(UNKNOWN_LOCATION, "perfinst: %<-flto%>: the IPA passes run at link time (lto1), "
               "where promote-call is not applied");
}

static bool promote_find_gate(function *fun) { return pi_feedback_path() && !seen_error(); }
PI_GIMPLE_PASS(promote_find, PROP_cfg)

/* an IPA_PASS: GCC inserts a pass only next to one of its own type */
static bool promote_gate(function *fun) { return optimize && !proms.is_empty() && !seen_error(); }
PI_IPA_PASS(promote)
