/* pass-copyprof.cc — a profile per inlined copy (docs/layout.md "Inlined
 * copies"; experimental).
 *
 * The training build counts before the IPA inliner: a function g that
 * IPA inlines into f1 and f2 carries g's counter updates into both, and
 * the profile sums them.  The rebuild then gives each inlined copy g's
 * counts scaled by the call's share of g's entries: a path of g that ran
 * only through f1 (all of f1's 28 calls, 28 of g's 10,000 entries) gets
 * 0.28 runs in f1's copy, rounds to 0, and goes to f1's cold part.
 *
 *   training (-fplugin-arg-perfinst-copy-map=FILE, with all=count):
 *     right after IPA (before "adjust_alignment"), every counter update of g found
 *     in f inside an inlined body of g gets a twin: the same add to a
 *     counter of a pool reserved past the unit's own (one per f, chain of
 *     inlined calls and counter), and FILE a line
 *       UNIT COPY-COUNTER CALLEE COUNTER FN CHAIN
 *     (CHAIN: the inlined calls from f's body inward to g's,
 *     "h@LINE:COL>g@LINE:COL", each callee with its call's place);
 *   pmopt plan --copy-map=FILE solves g's flow on each copy's counters
 *     and writes `copy-profile fn=F src=S callee=G chain=C counts=...`
 *     (g's block counts in site order, as branch-profile's);
 *   rebuild (the feedback has copy-profile records): where g's profile is
 *     applied, each statement's place (file, line, column) names the block
 *     it is in (pi_copyprof_note_sites); right after IPA a block of f
 *     whose statement comes from g through chain C takes the copy's count
 *     of that block, scaled by the copy's entry block's count now over the
 *     copy's entries (IPA leaves f's body at a scale of its own), at least
 *     1 where the copy ran; a body training did not inline there, inside a
 *     copy whose call of it never ran, and blocks without a place that only
 *     lead into or come from such zeros get zeros; a block whose successors
 *     all took theirs (each entered from it alone) shares its edges in
 *     their proportion, and an edge to one that never ran is never taken.
 *     copy-profile=raise: only counts above the scaled ones, nothing else.
 */
#include "plugin.h"
#include "pifeedback.h"
#include <map>
#include <string>

/* ---- the chain of inlined calls a statement is in ------------------------- */

struct level {
    tree fn;       /* the inlined function */
    location_t at; /* its call's place in its caller */
};

/* innermost first */
static void inline_levels(gimple *g, vec<level> &out)
{
    out.truncate(0);
    for (tree b = gimple_block(g); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (inlined_function_outer_scope_p(b)) {
            tree o = block_ultimate_origin(b);
            if (o && TREE_CODE(o) == FUNCTION_DECL)
                out.safe_push({o, BLOCK_SOURCE_LOCATION(b)});
        }
}

/* levels [from, end) outermost first: "h@12:5>g@40:9" */
static std::string chain_of(const vec<level> &lv, unsigned from)
{
    std::string s;
    for (int i = (int)lv.length() - 1; i >= (int)from; i--) {
        expanded_location x = expand_location(lv[i].at);
        char b[64];
        snprintf(b, sizeof b, "@%d:%d", x.line, x.column);
        if (!s.empty())
            s += '>';
        s += pi_asm_name(lv[i].fn);
        s += b;
    }
    return s;
}

/* f.count.N (the counting copy, pass-countfn.cc) is f */
static std::string own_name(tree decl)
{
    std::string s = pi_asm_name(decl);
    size_t p = s.rfind(".count.");
    if (p != std::string::npos && p > 0 && s.find_first_not_of("0123456789", p + 7) == std::string::npos)
        s.resize(p);
    return s;
}

/* ---- training: a twin update per inlined copy ------------------------------ */

static unsigned pool_first, pool_n, pool_used;
static FILE *map_out;

/* From pi_unit_finish, before the counters are sized. */
void pi_copyprof_reserve(void)
{
    if (!pi_opt.copy_map || !pi_opt.all_count || (flag_pic && !flag_pie))
        return;
    pool_first = pi_unit_ncounters();
    pool_n = MAX(256u, 2 * pool_first);
    pi_unit_add_counters(pool_n);
}

static void add_twin(gimple *after, HOST_WIDE_INT add, unsigned k, tree ctr)
{
    char text[384];
    pi_counter_update_text(text, sizeof text, add, ctr, k);
    gimple_stmt_iterator gsi = gsi_for_stmt(after);
    gsi_insert_after(&gsi, pi_volatile_asm(text, gimple_location(after)), GSI_NEW_STMT);
}

/* NAME, a function the unit counts, is FN or a part of it (FN.part.N) */
static bool same_origin(tree fn, const char *name)
{
    const char *o = pi_asm_name(fn);
    size_t n = strlen(o);
    return strncmp(o, name, n) == 0 && (name[n] == 0 || name[n] == '.');
}

/* The levels of an inlined body of OWNER around G: G's own, or (a counter
 * update GCC made with no block) those of the statements beside it, in its
 * block or the one block before or after it.  *AT: OWNER's level. */
static bool owner_levels(gimple *g, const char *owner, vec<level> &lv, unsigned *at)
{
    basic_block b = gimple_bb(g);
    basic_block look[3] = {b, single_succ_p(b) ? single_succ(b) : NULL, single_pred_p(b) ? single_pred(b) : NULL};
    for (int w = -1; w < 3; w++) {
        if (w >= 0 && !look[w])
            continue;
        gimple_stmt_iterator gsi = w < 0 ? gsi_for_stmt(g) : gsi_start_bb(look[w]);
        for (; !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *s = gsi_stmt(gsi);
            if (gimple_block(s)) {
                inline_levels(s, lv);
                for (unsigned i = 0; i < lv.length(); i++)
                    if (same_origin(lv[i].fn, owner)) {
                        /* a part's inlined body names g as its origin too:
                           g's own level is the outermost of g's run */
                        if (!strchr(owner, '.'))
                            while (i + 1 < lv.length() && lv[i + 1].fn == lv[i].fn)
                                i++;
                        *at = i;
                        return true;
                    }
            }
            if (w < 0)
                break;
        }
    }
    return false;
}

static void twin_updates(function *fun)
{
    tree ctr = pi_counter_decl();
    if (!ctr || !pool_n)
        return;
    if (!map_out) {
        map_out = fopen(pi_opt.copy_map, "a");
        if (!map_out) {
            error("perfinst: copy map %qs: %m", pi_opt.copy_map);
            pool_n = 0;
            return;
        }
    }
    std::string fn = own_name(fun->decl);
    std::map<std::string, unsigned> slots;
    auto_vec<level> lv;
    auto_vec<std::pair<gimple *, std::pair<HOST_WIDE_INT, unsigned>>> twins;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        HOST_WIDE_INT add, off, k;
        if (pi_counter_asm_parse(g, ctr, &add, &off))
            k = off / 8;
        else if (is_gimple_assign(g) && gimple_assign_single_p(g) && gimple_vdef(g) &&
                 (k = pi_counter_index(gimple_assign_lhs(g), ctr)) >= 0 && pi_counter_update_add(g, ctr, &add))
            ;
        else
            continue;
        if ((unsigned)k >= pool_first)
            continue;
        int owner = pi_unit_counter_func((unsigned)k);
        if (owner < 0)
            continue;
        const char *gname = pi_unit_func_name((unsigned)owner);
        unsigned i;
        if (!owner_levels(g, gname, lv, &i))
            continue; /* f's own, or no inlined body of its owner around it */
        std::string chain = chain_of(lv, i);
        char kb[24];
        snprintf(kb, sizeof kb, "|%u", (unsigned)k);
        std::string key = chain + kb;
        auto it = slots.find(key);
        unsigned twin;
        if (it != slots.end())
            twin = it->second;
        else {
            if (pool_used == pool_n)
                continue;
            twin = pool_first + pool_used++;
            slots[key] = twin;
            fprintf(map_out, "%016llx %u %s %u %s %s\n", (unsigned long long)pi_unit_id(), twin, gname,
                    (unsigned)k, fn.c_str(), chain.c_str());
            fflush(map_out);
        }
        twins.safe_push({g, {add, twin}});
    }
    for (unsigned i = 0; i < twins.length(); i++)
        add_twin(twins[i].first, twins[i].second.first, twins[i].second.second, ctr);
}

/* ---- rebuild: the copies' counts ------------------------------------------- */

static bool recs_read;
struct copy_prof {
    const char *callee; /* the function whose blocks these are (g, or a part g.part.N) */
    vec<uint64_t> *counts;
};
static std::map<std::string, vec<copy_prof> *> *profiles; /* FN|CHAIN -> the copies' block counts */
static std::map<std::string, int> *places;              /* CALLEE|FILE:LINE:COL -> block, -1 several */

static void read_recs(void)
{
    if (recs_read)
        return;
    recs_read = true;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_COPY_PROFILE, &iter))) {
        const char *fn = pifb_get(r, "fn"), *callee = pifb_get(r, "callee"), *chain = pifb_get(r, "chain");
        if (!fn || !callee || !chain || !pifb_get(r, "counts")) {
            warning(OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u (%qs): without %<fn=%>, %<callee=%>, %<chain=%> or %<counts=%>; ignored",
                    pi_feedback_path(), r->line, r->number, r->kind);
            continue;
        }
        if (!pi_feedback_for_unit(r))
            continue;
        vec<uint64_t> *v = new vec<uint64_t>();
        v->create(0);
        if (!pi_feedback_parse_list(pifb_get(r, "counts"), *v)) {
            warning(OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u (%qs): %<counts=%> is not a list of counts; ignored",
                    pi_feedback_path(), r->line, r->number, r->kind);
            v->release();
            delete v;
            continue;
        }
        if (!profiles)
            profiles = new std::map<std::string, vec<copy_prof> *>;
        vec<copy_prof> *&l = (*profiles)[std::string(fn) + "|" + chain];
        if (!l) {
            l = new vec<copy_prof>();
            l->create(0);
        }
        l->safe_push({xstrdup(callee), v});
    }
}

static std::string place_key(const char *callee, location_t loc)
{
    expanded_location x = expand_location(loc);
    char b[48];
    snprintf(b, sizeof b, ":%d:%d", x.line, x.column);
    return std::string(callee) + "|" + (x.file ? x.file : "") + b;
}

/* pass-feedback.cc, where FUN's profile is applied: each statement's place
 * names its block (the profile's site index). */
void pi_copyprof_note_sites(function *fun, const vec<basic_block> &order)
{
    read_recs();
    if (!profiles)
        return;
    if (!places)
        places = new std::map<std::string, int>;
    const char *g = pi_asm_name(fun->decl);
    for (unsigned i = 0; i < order.length(); i++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(order[i]); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *s = gsi_stmt(gsi);
            if (is_gimple_debug(s) || LOCATION_LOCUS(gimple_location(s)) == UNKNOWN_LOCATION)
                continue;
            std::string k = place_key(g, gimple_location(s));
            auto it = places->find(k);
            if (it == places->end())
                (*places)[k] = (int)i;
            else if (it->second != (int)i)
                it->second = -1;
        }
}

static profile_count count_of(uint64_t n)
{
    if (n == 0)
        return profile_count::zero();
    if (n > (uint64_t)profile_count::max_count)
        n = profile_count::max_count;
    return profile_count::from_gcov_type((gcov_type)n).guessed_local();
}

/* The count, in FN's copy of the function at level I of LV, of the block
 * its statement at LOC is in: false when no copy-profile names it. */
static bool copy_count(const std::string &fn, const vec<level> &lv, unsigned i, location_t loc, uint64_t *c,
                       const copy_prof **which = NULL, int *site = NULL)
{
    auto p = profiles->find(fn + "|" + chain_of(lv, i));
    if (p == profiles->end())
        return false;
    for (unsigned j = 0; j < p->second->length(); j++) {
        const copy_prof &cp = (*p->second)[j];
        auto pl = places->find(place_key(cp.callee, loc));
        if (pl == places->end() || pl->second < 0 || (unsigned)pl->second >= cp.counts->length())
            continue;
        *c = (*cp.counts)[pl->second];
        if (which)
            *which = &cp, *site = pl->second;
        return true;
    }
    return false;
}

static void apply_copies(function *fun)
{
    read_recs();
    if (!profiles || !places)
        return;
    std::string fn = pi_asm_name(fun->decl);
    auto_vec<level> lv;
    hash_map<int_hash<int, -1, -2>, uint64_t> got; /* block index -> count */
    /* the copies' counts are the training run's; FN's body is at the scale
       IPA left it (its loops' guessed iterations capped): each copy scaled
       by its entry block's count now against the copy's entries */
    struct hit {
        basic_block bb;
        const copy_prof *cp; /* NULL: a zero */
        int site;
        uint64_t raw;
    };
    auto_vec<hit> hits;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        bool found = false;
        hit best = {bb, NULL, 0, 0};
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *s = gsi_stmt(gsi);
            if (is_gimple_debug(s) || LOCATION_LOCUS(gimple_location(s)) == UNKNOWN_LOCATION)
                continue;
            inline_levels(s, lv);
            for (unsigned i = 0; i < lv.length(); i++) {
                uint64_t c;
                const copy_prof *cp = NULL;
                int site = 0;
                if (copy_count(fn, lv, i, gimple_location(s), &c, &cp, &site) ||
                    /* a body the training build did not inline here, inside
                       a copy whose call of it never ran: never ran either */
                    (i + 1 < lv.length() && copy_count(fn, lv, i + 1, lv[i].at, &c) && c == 0)) {
                    if (!found || c > best.raw)
                        best = {bb, c ? cp : NULL, site, c};
                    found = true;
                    break;
                }
            }
        }
        if (found)
            hits.safe_push(best);
    }
    if (hits.is_empty())
        return;
    /* each copy's entry: its hit at the lowest site that ran */
    std::map<const copy_prof *, unsigned> entry;
    for (unsigned i = 0; i < hits.length(); i++) {
        if (!hits[i].cp || !hits[i].raw)
            continue;
        auto e = entry.find(hits[i].cp);
        if (e == entry.end())
            entry[hits[i].cp] = i;
        else if (hits[i].site < hits[e->second].site)
            e->second = i;
    }
    for (unsigned i = 0; i < hits.length(); i++) {
        if (!hits[i].cp)
            continue;
        unsigned e = entry[hits[i].cp];
        const hit &h = hits[hits[i].site == hits[e].site ? i : e]; /* (a copy of the entry block: its own) */
        profile_count now = h.bb->count;
        double r = now.initialized_p() && now.nonzero_p() ? (double)now.to_gcov_type() / (double)h.raw : 0;
        uint64_t v = r > 0 ? (uint64_t)((double)hits[i].raw * r + 0.5) : 0;
        got.put(hits[i].bb->index, MAX(v, (uint64_t)1));
    }
    if (pi_opt.copy_raise) {
        /* copy-profile=raise: only where the copy ran more than the
           scaled counts say */
        unsigned n = 0;
        FOR_EACH_BB_FN(bb, fun)
        if (uint64_t *c = got.get(bb->index)) {
            profile_count now = bb->count;
            if (!now.initialized_p() || !now.nonzero_p() || (uint64_t)now.to_gcov_type() < *c) {
                bb->count = count_of(*c);
                n++;
            }
        }
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(fun->decl),
                   "perfinst: copy profile of %qs: %u blocks of inlined copies raised to the count of their copy",
                   fn.c_str(), n);
        return;
    }
    for (unsigned i = 0; i < hits.length(); i++)
        if (!hits[i].cp)
            got.put(hits[i].bb->index, 0);
    /* a block without a place of its own that leads only into blocks that
       never ran, or is entered only from them, never ran */
    for (bool more = true; more;) {
        more = false;
        FOR_EACH_BB_FN(bb, fun)
        {
            if (got.get(bb->index))
                continue;
            bool placed = false;
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi) && !placed; gsi_next(&gsi))
                placed = !is_gimple_debug(gsi_stmt(gsi)) && gimple_code(gsi_stmt(gsi)) != GIMPLE_LABEL &&
                         gimple_code(gsi_stmt(gsi)) != GIMPLE_GOTO;
            if (placed)
                continue;
            bool out0 = EDGE_COUNT(bb->succs) > 0, in0 = EDGE_COUNT(bb->preds) > 0;
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, bb->succs)
            {
                uint64_t *c = got.get(e->dest->index);
                out0 &= c && *c == 0;
            }
            FOR_EACH_EDGE(e, ei, bb->preds)
            {
                uint64_t *c = got.get(e->src->index);
                in0 &= c && *c == 0;
            }
            if (out0 || in0) {
                got.put(bb->index, 0);
                more = true;
            }
        }
    }
    unsigned changed = 0, n = 0;
    FOR_EACH_BB_FN(bb, fun)
    if (uint64_t *c = got.get(bb->index)) {
        profile_count was = bb->count;
        bb->count = count_of(*c);
        changed += !(was == bb->count);
        n++;
    }
    if (pi_opt.verbose)
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: copy profile of %qs: %u blocks of inlined copies take the count of their copy (%u changed)",
               fn.c_str(), n, changed);

    /* a block whose successors all took a copy's count, each entered from
       it alone: its edges in their proportion; else its edges to such a
       successor that never ran never taken, the others' shares scaled up */
    FOR_EACH_BB_FN(bb, fun)
    {
        if (EDGE_COUNT(bb->succs) < 2)
            continue;
        uint64_t sum = 0;
        unsigned known = 0, zero = 0;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        {
            uint64_t *c = got.get(e->dest->index);
            if (c && single_pred_p(e->dest) && !(e->flags & (EDGE_EH | EDGE_ABNORMAL))) {
                known++;
                zero += *c == 0;
                sum += *c;
            }
        }
        if (known == EDGE_COUNT(bb->succs) && sum) {
            FOR_EACH_EDGE(e, ei, bb->succs)
            e->probability = profile_probability::probability_in_gcov_type((gcov_type)*got.get(e->dest->index),
                                                                             (gcov_type)sum);
        } else if (zero && zero < EDGE_COUNT(bb->succs)) {
            profile_probability left = profile_probability::never();
            FOR_EACH_EDGE(e, ei, bb->succs)
            {
                uint64_t *c = got.get(e->dest->index);
                if (!(c && *c == 0 && single_pred_p(e->dest)))
                    left += e->probability;
            }
            if (!(left > profile_probability::never()))
                continue;
            FOR_EACH_EDGE(e, ei, bb->succs)
            {
                uint64_t *c = got.get(e->dest->index);
                if (c && *c == 0 && single_pred_p(e->dest))
                    e->probability = profile_probability::never();
                else
                    e->probability = e->probability / left;
            }
        }
    }
}

static bool copyprof_gate(function *)
{
    return !seen_error() && ((pi_opt.copy_map && pi_opt.all_count) || pi_opt.feedback);
}

static unsigned int copyprof_execute(function *fun)
{
    if (pi_opt.copy_map && pi_opt.all_count)
        twin_updates(fun);
    else if (pi_opt.feedback)
        apply_copies(fun);
    return 0;
}
PI_GIMPLE_PASS(copyprof, PROP_cfg)
