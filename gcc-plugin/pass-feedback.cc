/* pass-feedback.cc — the rebuild loop: apply a `pmopt plan` profile to
 * GCC's CFG (seed 004 M22 "hot-path repackaging"; seed 000's branch
 * marking fed back to layout).  docs/layout.md explains the loop.
 *
 *   gcc -O2 -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=prog.fb -c x.c
 *
 * Applies two kinds of recommendations (docs/layout.md has their keys):
 *
 *   branch-profile fn=NAME src=FILE checksum=0x... sites=N first=K
 *                  counts=c,c,... edges=e,e,...
 *       the training run's block counts (and the successor counts of
 *       blocks with several successors) of one function, keyed by its
 *       assembler name, its unit's source and its CFG checksum;
 *   function-tier fn=NAME src=FILE tier=hot|cold
 *       the function's section: .text.hot or .text.unlikely.
 *
 * Runs right after "cfg", before pass-count, on the CFG pass-count
 * numbers (pi_cfg_entry, pi_cfg_order, pi_cfg_checksum: the same code),
 * so a site index of the profile is a block here.  A function whose
 * checksum differs is stale: left to GCC's static guesses, and counted.
 *
 *     before (GCC's guess)                after (the profile: 95% taken)
 *     bb 2 [count 1000]                   bb 2 [count 1000]
 *       if (x < 950) goto 3; else goto 4;   if (x < 950) goto 3 (95%); else 4 (5%)
 *     bb 3 [guessed 50%]                  bb 3 [count 950]  -> falls through
 *     bb 4 [guessed 50%]                  bb 4 [count 50]   -> or .text.unlikely if 0
 *
 * How GCC is told: every block's count (profile_count, GUESSED_LOCAL
 * quality: local to the function, as GCC's own estimate is, so the
 * inliner scales it as it scales guesses), never-executed blocks of an
 * executed function precisely zero (as GCC's own "unlikely" analysis marks
 * them: the hot/cold partitioning of -freorder-blocks-and-partition moves
 * them to .text.unlikely), edge probabilities from the edge counts, and
 * the function's profile status PROFILE_GUESSED, which makes GCC's static
 * estimator (pass "profile_estimate") leave the function alone.  bb-reorder
 * then lays out the most frequent successor as the fall-through.  A
 * function-tier sets the call-graph node's frequency (hot: .text.hot,
 * cold: .text.unlikely), here and again before expansion (IPA passes may
 * recompute it).
 */
#include "plugin.h"
#include "pifeedback.h"

struct fb_stats {
    unsigned matched, stale, malformed;
    uint64_t w_matched, w_stale;
    bool reported;
};
static struct fb_stats st;

static bool same_src(const struct pifb_rec *r)
{
    const char *src = pifb_get(r, "src");
    return !src || !main_input_filename || strcmp(src, main_input_filename) == 0;
}

static bool rec_for(const struct pifb_rec *r, const char *fn)
{
    const char *name = pifb_get(r, "fn");
    return name && strcmp(name, fn) == 0 && same_src(r);
}

/* "1,2,3" into out (appending); false when malformed. */
static bool parse_list(const char *s, vec<uint64_t> &out)
{
    if (!s)
        return false;
    if (!*s)
        return true;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || *s == '-')
            return false;
        out.safe_push(v);
        if (!*end)
            return true;
        if (*end != ',')
            return false;
        s = end + 1;
    }
}

static void warn_rec(const struct pifb_rec *r, const char *what)
{
    warning(0, "perfinst: %s:%u: recommendation %u (%qs): %s; ignored", pi_feedback_path(),
            r->line, r->number, r->kind, what);
}

/* The function's successor lists as pass-count records them: edges to
 * blocks of the function, in edge order. */
static unsigned nsucc_in(basic_block bb)
{
    unsigned n = 0;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (e->dest != EXIT_BLOCK_PTR_FOR_FN(cfun))
        n++;
    return n;
}

static profile_count count_of(uint64_t n)
{
    if (n == 0)
        return profile_count::zero();
    if (n > (uint64_t)profile_count::max_count)
        n = profile_count::max_count;
    return profile_count::from_gcov_type((gcov_type)n).guessed_local();
}

static void apply(function *fun, const vec<basic_block> &order, const vec<uint64_t> &counts,
                  const vec<uint64_t> &edges)
{
    uint64_t maxc = 0;
    unsigned k = 0;
    for (unsigned i = 0; i < order.length(); i++) {
        basic_block bb = order[i];
        uint64_t n = counts[i];
        bb->count = count_of(n);
        maxc = MAX(maxc, n);
        unsigned ns = nsucc_in(bb);
        unsigned nall = EDGE_COUNT(bb->succs);
        /* each edge's count: listed (several successors), the block's
           count (one), what is left (an edge to the exit) */
        uint64_t listed = 0;
        auto_vec<uint64_t, 8> ec;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        {
            uint64_t c;
            if (e->dest == EXIT_BLOCK_PTR_FOR_FN(fun))
                c = UINT64_MAX; /* below */
            else if (ns >= 2)
                c = edges[k++];
            else
                c = n;
            if (c != UINT64_MAX) {
                c = MIN(c, n);
                listed += c;
            }
            ec.safe_push(c);
        }
        unsigned j = 0;
        FOR_EACH_EDGE(e, ei, bb->succs)
        {
            uint64_t c = ec[j++];
            if (c == UINT64_MAX)
                c = n > listed ? (n - listed) / (nall - ns) : 0;
            if (n)
                e->probability = profile_probability::probability_in_gcov_type((gcov_type)c, (gcov_type)n);
            else
                e->probability = profile_probability::guessed_always().apply_scale(1, nall);
        }
    }
    basic_block entry = ENTRY_BLOCK_PTR_FOR_FN(fun), exitb = EXIT_BLOCK_PTR_FOR_FN(fun);
    entry->count = order[0]->count;
    single_succ_edge(entry)->probability = profile_probability::always();
    profile_count out = profile_count::zero();
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, exitb->preds)
    out += e->count();
    exitb->count = out;
    fun->cfg->count_max = count_of(maxc);
    profile_status_for_fn(fun) = PROFILE_GUESSED;
}

static void set_tier(function *fun)
{
    cgraph_node *node = cgraph_node::get(fun->decl);
    if (!node)
        return;
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl));
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next("function-tier", &iter)))
        if (rec_for(r, fn)) {
            const char *t = pifb_get(r, "tier");
            if (t && strcmp(t, "hot") == 0)
                node->frequency = NODE_FREQUENCY_HOT;
            else if (t && strcmp(t, "cold") == 0)
                node->frequency = NODE_FREQUENCY_UNLIKELY_EXECUTED;
            else
                warn_rec(r, "tier must be hot or cold");
        }
}

/* The functions whose branch profile was applied, by assembler name, for
 * the block order pass (pass-blockorder.cc). */
static hash_set<nofree_string_hash> *applied;

static void note_applied(const char *fn)
{
    if (!applied)
        applied = new hash_set<nofree_string_hash>;
    applied->add(fn); /* an identifier's string: never freed */
}

/* Was a branch profile applied to DECL's function, or to the one it was
 * cloned or split from (foo.part.0, foo.constprop.0, foo.isra.0: the name
 * up to the first dot)? */
bool pi_feedback_applied(tree decl)
{
    if (!applied)
        return false;
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
    if (applied->contains(fn))
        return true;
    const char *dot = strchr(fn, '.');
    if (!dot || dot == fn)
        return false;
    char *base = xstrndup(fn, (size_t)(dot - fn));
    bool r = applied->contains(base);
    free(base);
    return r;
}

static unsigned int execute_feedback(function *fun)
{
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl));
    set_tier(fun);

    /* the function's chunks */
    auto_vec<const struct pifb_rec *> recs;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next("branch-profile", &iter)))
        if (rec_for(r, fn))
            recs.safe_push(r);
    if (recs.is_empty())
        return 0;

    pi_cfg_split_markers(fun); /* the count pass's blocks (statement directives) */
    basic_block entry = pi_cfg_entry(fun);
    auto_sbitmap in(last_basic_block_for_fn(fun));
    bitmap_clear(in);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) bitmap_set_bit(in, bb->index);
    auto_vec<basic_block> order;
    pi_cfg_order(fun, entry, in, order);
    uint64_t cfg = pi_cfg_checksum(order);

    uint64_t want, nsites, weight = 0;
    if (pifb_get_u64(recs[0], "checksum", &want) || pifb_get_u64(recs[0], "sites", &nsites)) {
        warn_rec(recs[0], "no checksum= or sites=");
        st.malformed++;
        return 0;
    }
    pifb_get_u64(recs[0], "weight", &weight);
    if (want != cfg || nsites != order.length()) {
        st.stale++;
        st.w_stale += weight;
        if (pi_opt.verbose) {
            char why[160];
            snprintf(why, sizeof why, "CFG checksum 0x%016llx, %u blocks; the profile's 0x%016llx, %llu blocks",
                     (unsigned long long)cfg, order.length(), (unsigned long long)want,
                     (unsigned long long)nsites);
            inform(DECL_SOURCE_LOCATION(fun->decl),
                   "perfinst: %s: the profile of %qs is stale (%s): GCC%'s estimate is kept",
                   pi_feedback_path(), fn, why);
        }
        return 0;
    }

    /* counts and edges by site, from the chunks (any order) */
    auto_vec<uint64_t> counts, edges;
    counts.safe_grow_cleared(order.length());
    auto_vec<unsigned> edge_first; /* per site: its first entry in edges */
    unsigned nedges = 0;
    for (unsigned i = 0; i < order.length(); i++) {
        edge_first.safe_push(nedges);
        unsigned ns = nsucc_in(order[i]);
        if (ns >= 2)
            nedges += ns;
    }
    edges.safe_grow_cleared(nedges);
    auto_sbitmap seen(order.length() + 1);
    bitmap_clear(seen);
    unsigned covered = 0;
    for (unsigned c = 0; c < recs.length(); c++) {
        r = recs[c];
        uint64_t first, sum;
        auto_vec<uint64_t> cs, es;
        if (pifb_get_u64(r, "first", &first) || !parse_list(pifb_get(r, "counts"), cs) ||
            !parse_list(pifb_get(r, "edges"), es) || pifb_get_u64(r, "checksum", &sum) || sum != want ||
            first > order.length() || cs.length() > order.length() - first) {
            warn_rec(r, "malformed (first=, counts=, edges= or checksum= do not fit the function)");
            st.malformed++;
            return 0;
        }
        unsigned want_edges = 0;
        for (unsigned i = 0; i < cs.length(); i++) {
            unsigned ns = nsucc_in(order[first + i]);
            want_edges += ns >= 2 ? ns : 0;
        }
        if (es.length() != want_edges) {
            warn_rec(r, "edges= has the wrong number of entries for these blocks");
            st.malformed++;
            return 0;
        }
        unsigned k = 0;
        for (unsigned i = 0; i < cs.length(); i++) {
            unsigned s = first + i;
            if (bitmap_bit_p(seen, s)) {
                warn_rec(r, "a block is given twice");
                st.malformed++;
                return 0;
            }
            bitmap_set_bit(seen, s);
            covered++;
            counts[s] = cs[i];
            unsigned ns = nsucc_in(order[s]);
            if (ns >= 2)
                for (unsigned j = 0; j < ns; j++)
                    edges[edge_first[s] + j] = es[k++];
        }
    }
    if (covered != order.length()) {
        warn_rec(recs[0], "the chunks do not cover every block of the function");
        st.malformed++;
        return 0;
    }
    apply(fun, order, counts, edges);
    note_applied(fn);
    st.matched++;
    st.w_matched += weight;
    return 0;
}

/* A note per unit: how much of the profile matched (docs/layout.md). */
void pi_feedback_report(void)
{
    if (st.reported || !pi_feedback_path() || (!pi_opt.verbose && !st.stale && !st.malformed))
        return;
    st.reported = true;
    uint64_t total = st.w_matched + st.w_stale;
    char pct[32];
    snprintf(pct, sizeof pct, "%.1f%%", total ? 100.0 * (double)st.w_matched / (double)total : 100.0);
    inform(UNKNOWN_LOCATION,
           "perfinst: %s: %u function profiles matched, %u stale, %u malformed in %s "
           "(%s of the profile%'s block executions matched)",
           pi_feedback_path(), st.matched, st.stale, st.malformed,
           main_input_filename ? main_input_filename : "this unit", pct);
}

const pass_data feedback_pass_data = {
    GIMPLE_PASS, "perfinst_feedback", OPTGROUP_NONE, TV_NONE, PROP_cfg, 0, 0, 0, 0,
};

class feedback_pass : public gimple_opt_pass {
public:
    feedback_pass(gcc::context *ctxt) : gimple_opt_pass(feedback_pass_data, ctxt) {}
    bool gate(function *) final override { return pi_feedback_path() && !seen_error(); }
    unsigned int execute(function *fun) final override { return execute_feedback(fun); }
};

opt_pass *pi_make_feedback_pass(gcc::context *ctxt)
{
    return new feedback_pass(ctxt);
}

/* Before expansion: the function-tier again (IPA may have recomputed the
 * node's frequency from its callers). */
const pass_data tier_pass_data = {
    GIMPLE_PASS, "perfinst_tier", OPTGROUP_NONE, TV_NONE, PROP_cfg, 0, 0, 0, 0,
};

class tier_pass : public gimple_opt_pass {
public:
    tier_pass(gcc::context *ctxt) : gimple_opt_pass(tier_pass_data, ctxt) {}
    bool gate(function *) final override { return pi_feedback_path() && !seen_error(); }
    unsigned int execute(function *fun) final override
    {
        set_tier(fun);
        return 0;
    }
};

opt_pass *pi_make_tier_pass(gcc::context *ctxt)
{
    return new tier_pass(ctxt);
}
