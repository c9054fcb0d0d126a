/* pass-inlsize.cc — the inliner sees counted functions at their
 * uninstrumented size (docs/design.md, "The inliner is told").
 *
 *   gcc -O2 -fplugin=perfinst.so -fplugin-arg-perfinst-all=count -c x.c
 *
 *     static int get(struct s *p)        its summary's size    after this pass
 *     {   return p->v;  }                S + 4 a counted       S: the size -O2's
 *     (a site marker, a counter load,    block: too big for    inliner sees, so it
 *      add and store in its one block)   the early inliner     is inlined as at -O2
 *
 * No code changes: only the size and time GCC's summaries say.
 *
 * The count pass runs before inlining, so every counted block carries a
 * site marker (an asm: 1 size unit) and a counter update (load, add,
 * store: 3 more), and GCC's function summaries (ipa-fnsummary), from which
 * both inliners take a callee's size and time, include them.  A small
 * function then looks 3.5-4.6 times as big as it is, stays a call in the
 * clean copy too (the split comes after inlining), and PERFINST_MODE=off
 * pays both the call and an entry test for it.
 *
 * Right after GCC computes a summary, this file takes the counters' share
 * out of it:
 *
 *   - "perfinst_inlsize" (a GIMPLE pass after every "local-fnsummary"):
 *     the summaries the early inliner reads, for the current function;
 *   - "perfinst_inlsize_ipa" (an IPA pass after "fnsummary", so
 *     before "inline" runs): every function's summary, recomputed by
 *     GCC at the start of IPA; a virtual clone (ipa-cp, ipa-sra) made in
 *     between gets the fraction of the function it was cloned from, also
 *     where that function is no longer a definition, only the holder of
 *     the body of clones that took all its calls (HarfBuzz's hb-shape:
 *     1.365x plain's instructions counted while such clones kept their
 *     counters' size, 1.202x since; tests/count/t-inlsize-clone.sh).
 *
 * C (size) and Ct (time: each statement's cost times its block's
 * frequency) are what estimate_num_insns gives the counter statements
 * (loads and stores of __perfinst_ctr, the add between them), the site
 * markers and the indirect calls' inline caches (the pointer's
 * conversion and the tests of the slot, pass-count.cc add_icall_cache);
 * every entry of the summary's size/time table that runs where the
 * function is inlined is scaled by (T - C) / T, T being those entries'
 * total, so the counters' cost is removed whatever the predicates the
 * entries stand for; the entries that run only "if not inlined" (the
 * overhead GCC charges a call that stays a call) hold no counter and keep
 * their size and time (body_entry).  Calls (probes)
 * are summarised on their edges and stay, but the caches' runtime call
 * (__perfinst_icall_miss2), whose edge is given no size and no time: a
 * function full of indirect calls (gawk's interpreter) looked 11-18 %
 * bigger without that, and its unit's growth limit kept hot calls out of
 * line in both copies (tests/count/t-icall-size.sh).
 *
 * Only estimates change: the bodies, and the IPA analyses that make code
 * correct (pure/const, mod/ref: computed from the bodies, counters
 * included), are untouched, so a counter is never moved or dropped.
 *
 * With -flto the IPA inliner runs in lto1 on summaries streamed before
 * this pass could run: there, and for all=sample, the inline limits are
 * scaled instead (perfinst.cc, compensate_inliner).
 */
#include "plugin.h"
#include "alloc-pool.h"
#include "symbol-summary.h"
#include "tree-vrp.h"
#include "ipa-prop.h"
#include "ipa-fnsummary.h"
#include "tree-inline.h"

bool pi_inlsize_active; /* set by plugin_init when summaries are corrected */

static bool is_counter_ref(tree t)
{
    if (!t)
        return false;
    tree b = get_base_address(t);
    return b && TREE_CODE(b) == VAR_DECL && DECL_THREAD_LOCAL_P(b) && DECL_NAME(b) &&
           strncmp(IDENTIFIER_POINTER(DECL_NAME(b)), "__perfinst_ctr", 14) == 0;
}

/* A temporary of an indirect call's inline cache (pass-count.cc
 * add_icall_cache: "pi_icall", as an SSA name's identifier or, made
 * before the SSA form, its variable's "pi_icall.N"). */
static bool is_icall_tmp(tree t)
{
    if (!t || TREE_CODE(t) != SSA_NAME || !SSA_NAME_IDENTIFIER(t))
        return false;
    const char *n = IDENTIFIER_POINTER(SSA_NAME_IDENTIFIER(t));
    return strncmp(n, "pi_icall", 8) == 0 && (n[8] == 0 || n[8] == '.');
}

/* A statement of a counter update, a site marker, or an indirect call's
 * inline cache (the pointer's conversion, the tests of the slot). */
static bool is_counter_stmt(gimple *g)
{
    if (gimple_code(g) == GIMPLE_ASM)
        return strncmp(gimple_asm_string(as_a<gasm *>(g)), PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) == 0 ||
               pi_is_icall_asm(g);
    if (gimple_code(g) == GIMPLE_COND)
        return is_icall_tmp(gimple_cond_lhs(g)) || is_icall_tmp(gimple_cond_rhs(g));
    if (!is_gimple_assign(g))
        return false;
    if (is_icall_tmp(gimple_assign_lhs(g)))
        return true;
    if (gimple_store_p(g) && is_counter_ref(gimple_assign_lhs(g)))
        return true;
    if (gimple_assign_load_p(g) && is_counter_ref(gimple_assign_rhs1(g)))
        return true;
    /* the add: an SSA name whose only use is a counter store */
    tree lhs = gimple_assign_lhs(g);
    if (TREE_CODE(lhs) != SSA_NAME || gimple_assign_rhs_code(g) != PLUS_EXPR)
        return false;
    use_operand_p use;
    gimple *user;
    return single_imm_use(lhs, &use, &user) && gimple_store_p(user) && is_gimple_assign(user) &&
           is_counter_ref(gimple_assign_lhs(user));
}

static bool is_icall_miss(tree decl)
{
    return decl && DECL_NAME(decl) && strcmp(IDENTIFIER_POINTER(DECL_NAME(decl)), "__perfinst_icall_miss2") == 0;
}

/* The counters' size (in estimate_num_insns units) and time of FN. */
static bool counter_cost(function *fn, int *size, sreal *time)
{
    *size = 0;
    *time = 0;
    if (!fn || !fn->cfg)
        return false;
    profile_count entry = ENTRY_BLOCK_PTR_FOR_FN(fn)->count;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    {
        sreal freq = bb->count.to_sreal_scale(entry);
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (!is_counter_stmt(g))
                continue;
            *size += estimate_num_insns(g, &eni_size_weights);
            *time += (sreal)estimate_num_insns(g, &eni_time_weights) * freq;
        }
    }
    return *size > 0;
}

/* An entry of the table that can run where the function is inlined: the
 * counters are in those.  The others (executed only "if not inlined": the
 * prologue, epilogue and call overhead GCC charges a function that stays a
 * call, --param uninlined-function-insns/-time) hold no counter; scaled
 * with the rest they made an inlined call look cheaper to leave out of
 * line than -O2 sees it (Lua's luaH_getshortstr: overhead 3 -> 1.5, its
 * inlined size 11 -> 16, not inlined into luaH_get where -O2 inlines it;
 * bench/RESULTS.md, 2026-11-29 23:45). */
static bool body_entry(const size_time_entry *e)
{
    /* where the plugin doubled the inline limits (clean-copies=final, the
       default, all, loops: perfinst.cc, compensate_inliner) every entry is
       scaled, as the limits were tuned with (SQLite's off mode, 2026-11-22
       offmode2; tests/count/t-icall-size.sh: -O2's size up to rounding) */
    if (pi_inline_limits_scaled)
        return true;
    clause_t inlined = ~(clause_t)((1u << ipa_predicate::false_condition) |
                                   (1u << ipa_predicate::not_inlined_condition));
    return e->exec_predicate.evaluate(inlined);
}

/* The fractions of the summary's table (its entries that run inlined) that
 * are counters. */
struct inl_frac {
    sreal size, time;
};

static bool fractions(cgraph_node *node, inl_frac *f)
{
    ipa_fn_summary *s = ipa_fn_summaries ? ipa_fn_summaries->get(node) : NULL;
    int c;
    sreal ct;
    if (!s || !counter_cost(DECL_STRUCT_FUNCTION(node->decl), &c, &ct))
        return false;
    int64_t tsize = 0;
    sreal ttime = 0;
    size_time_entry *e;
    for (unsigned i = 0; s->size_time_table.iterate(i, &e); i++)
        if (body_entry(e)) {
            tsize += e->size;
            ttime += e->time;
        }
    if (tsize <= 0)
        return false;
    /* table sizes are in units of 1/size_scale */
    sreal cs = (sreal)(c * ipa_fn_summary::size_scale);
    f->size = cs / (sreal)tsize;
    if (f->size > 1)
        f->size = 1;
    f->time = ttime > 0 ? ct / ttime : (sreal)0;
    if (f->time > 1)
        f->time = 1;
    return true;
}

static void apply(cgraph_node *node, const inl_frac &f)
{
    ipa_fn_summary *s = ipa_fn_summaries->get(node);
    ipa_size_summary *ss = ipa_size_summaries ? ipa_size_summaries->get(node) : NULL;
    if (!s || !ss)
        return;
    /* the overall size is summed again from the call edges' summaries:
       leave alone a function one of whose edges has none (not analysed,
       e.g. optimize(0)) */
    for (cgraph_edge *e = node->callees; e; e = e->next_callee)
        if (!e->inline_failed || !ipa_call_summaries->get(e))
            return;
    for (cgraph_edge *e = node->indirect_calls; e; e = e->next_callee)
        if (!ipa_call_summaries->get(e))
            return;
    /* the inline caches' runtime calls, summarised on their edges */
    for (cgraph_edge *e = node->callees; e; e = e->next_callee)
        if (is_icall_miss(e->callee->decl)) {
            ipa_call_summary *es = ipa_call_summaries->get(e);
            es->call_stmt_size = 0;
            es->call_stmt_time = 0;
        }
    int old = ss->size;
    size_time_entry *e;
    sreal keep_size = (sreal)1 - f.size, keep_time = (sreal)1 - f.time;
    for (unsigned i = 0; s->size_time_table.iterate(i, &e); i++)
        if (body_entry(e)) {
            e->size = ((sreal)e->size * keep_size).to_int();
            e->time = e->time * keep_time;
        }
    ipa_update_overall_fn_summary(node);
    ss->self_size -= old - ss->size;
    if (ss->self_size < 0)
        ss->self_size = 0;
    if (dump_file)
        fprintf(dump_file, "perfinst: %s: size %d -> %d without its counters\n", node->dump_name(), old,
                ss->size);
}

/* ---- after every local-fnsummary: the current function -------------------- */

static unsigned int inlsize_execute(function *fun)
{
    cgraph_node *node = cgraph_node::get(fun->decl);
    inl_frac f;
    if (node && !node->inlined_to && fractions(node, &f))
        apply(node, f);
    return 0;
}

static bool inlsize_gate(function *fun) { return pi_inlsize_active && !seen_error() && ipa_fn_summaries; }
PI_GIMPLE_PASS_CLONABLE(inlsize, PROP_cfg)

/* ---- after "fnsummary": every function, before the IPA inliner ----------- */

static unsigned int inlsize_ipa_execute(function *)
{
    hash_map<cgraph_node *, inl_frac> fr;
    cgraph_node *node;
    /* every function: a clone's original may no longer be a definition
       (ipa-sra's clone of a function whose callers all call the clone;
       the original stays only to hold the body) */
    FOR_EACH_FUNCTION(node)
    {
        inl_frac f;
        if (!node->alias && !node->inlined_to && !node->clone_of && gimple_has_body_p(node->decl) &&
            fractions(node, &f))
            fr.put(node, f);
    }
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        if (node->alias || node->inlined_to)
            continue;
        cgraph_node *o = node;
        while (o->clone_of)
            o = o->clone_of;
        inl_frac *f = fr.get(o);
        if (f)
            apply(node, *f);
    }
    return 0;
}

/* An IPA_PASS (with no summaries of its own) only because GCC positions a
   new pass relative to one of the same type. */
static bool inlsize_ipa_gate(function *fun)
{
    return pi_inlsize_active && !seen_error() && ipa_fn_summaries && !in_lto_p;
}
PI_IPA_PASS(inlsize_ipa)
