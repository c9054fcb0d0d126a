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
 * recompute it).  A cold function (it never ran in training) keeps its
 * frequency by default and gets the section .text.unlikely.NAME right
 * before "final": it is placed with the cold code but compiled as any
 * other function, since a workload unlike the training one may run it
 * (with cold-tier=size its frequency is set here, and GCC compiles it for
 * size, as -fprofile-use does with a function that never ran).
 */
#include "plugin.h"
#include "pifeedback.h"
#include "gcov-io.h" /* struct gcov_summary */
#include "profile.h" /* profile_info */
#include "predict.h" /* compute_function_frequency */
#include "cfganal.h" /* pre_and_rev_post_order_compute_fn */
#include "except.h" /* eh_status: cold_part_apart */
#include <string>

struct fb_stats {
    unsigned matched, stale, malformed;
    unsigned stale_late;       /* of stale: taken after the early inliner (at=late) */
    unsigned other_point;      /* of stale: taken at cfg, say the plan, but matching after the early inliner */
    uint64_t w_matched, w_stale;
    unsigned elsewhere;        /* functions of this unit profiled under another source key, same CFG */
    unsigned named[2], looked[2]; /* by name only; functions looked up (at cfg, after the early inliner) */
    const char *elsewhere_src; /* the first such key */
    bool reported;
};
static struct fb_stats st;

static bool rec_for(const struct pifb_rec *r, const char *fn)
{
    const char *name = pifb_get(r, "fn");
    return name && strcmp(name, fn) == 0 && pi_feedback_for_unit(r);
}

/* "1,2,3" into out (appending); false when malformed. */
bool pi_feedback_parse_list(const char *s, vec<uint64_t> &out)
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
    warning(OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u (%qs): %s; ignored", pi_feedback_path(),
            r->line, r->number, r->kind, what);
}

/* A block of the CFG the profile numbers: at the late point not one of
 * code counted before it was inlined here (a site marker's block), which
 * the count pass leaves out of a function it counts after the early
 * inliner (pass-count.cc) */
static bool in_cfg(basic_block bb, bool late)
{
    return bb != EXIT_BLOCK_PTR_FOR_FN(cfun) && !(late && pi_holds_site_marker(bb));
}

/* The function's successor lists as pass-count records them: edges to
 * blocks of its CFG, in edge order. */
static unsigned nsucc_in(basic_block bb, bool late)
{
    unsigned n = 0;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (in_cfg(e->dest, late))
        n++;
    return n;
}

/* feedback-quality=ipa (docs/layout.md "Profile quality"): the counts are
 * given as a read profile's are, PRECISE, so that count.ipa() is them and
 * IPA (the inliner's hot call sites, ipa-cp, ipa-split, hot/cold
 * decisions, loop iteration estimates) compares them across functions.
 * Those decisions measure a count against the program's hottest count
 * (profile_info->sum_max / hot-bb-count-fraction: get_hot_bb_threshold)
 * and the number of training runs (profile_info->runs): GCC reads both
 * from the .gcda summary, and dereferences profile_info as soon as one
 * count is IPA-quality.  We give it the plan file's: one run, and the
 * largest block count of every branch-profile (the whole program's, as
 * the gcda summary is).  Not with -fprofile-use or -fprofile-generate
 * (GCC's own profile_info and counts then): local quality, and a note. */
static struct gcov_summary fb_summary;
static int ipa_state; /* 0 not decided, 1 ipa, -1 local */

static uint64_t profile_max_count(void)
{
    uint64_t maxc = 0;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_BRANCH_PROFILE, &iter))) {
        const char *s = pifb_get(r, "counts");
        while (s && *s) {
            char *end;
            unsigned long long v = strtoull(s, &end, 10);
            if (end == s)
                break;
            maxc = MAX(maxc, (uint64_t)v);
            s = *end == ',' ? end + 1 : end;
            if (*end && *end != ',')
                break;
        }
    }
    return maxc;
}

static bool ipa_quality(void)
{
    if (ipa_state)
        return ipa_state > 0;
    ipa_state = -1;
    if (!pi_opt.feedback_quality)
        return false;
    if (flag_branch_probabilities || profile_arc_flag || flag_auto_profile || profile_info) {
        inform(UNKNOWN_LOCATION,
               "perfinst: %<-fplugin-arg-perfinst-feedback-quality=ipa%> is ignored with GCC%'s own "
               "profile (%<-fprofile-use%>, %<-fprofile-generate%>, %<-fauto-profile%>): local quality");
        return false;
    }
    uint64_t maxc = profile_max_count();
    fb_summary.runs = 1;
    fb_summary.sum_max = (gcov_type)MIN(MAX(maxc, (uint64_t)1), (uint64_t)profile_count::max_count);
    profile_info = &fb_summary;
    ipa_state = 1;
    return true;
}

/* Did this unit give GCC IPA-quality counts (pass-coldsplit.cc)? */
bool pi_feedback_ipa_quality(void)
{
    return ipa_state > 0;
}

/* feedback-counts=fine: with local quality every count is multiplied by
 * FINE_SCALE.  GCC's transformations derive the counts of the blocks they
 * make (a copied loop test, a threaded path, an unrolled body) as a count
 * times a probability, rounded to a whole number: a function entered 6
 * times in training has blocks whose derived count is 0.3, which rounds to
 * 0, and pass-coldsplit.cc then sends such a block, which did run, to the
 * cold part as one that never ran.  Local counts only compare with each
 * other, so a common factor changes no ratio GCC uses; an ipa-quality count
 * is the number of runs and stays so. */
#define FINE_SCALE 1024

static bool fine_counts(void)
{
    return pi_opt.feedback_counts == PI_FBCOUNTS_FINE;
}

static profile_count count_of(uint64_t n)
{
    if (n == 0)
        return profile_count::zero();
    if (ipa_state <= 0 && fine_counts())
        n = n > (uint64_t)profile_count::max_count / FINE_SCALE ? (uint64_t)profile_count::max_count
                                                                : n * FINE_SCALE;
    if (n > (uint64_t)profile_count::max_count)
        n = profile_count::max_count;
    if (ipa_state > 0)
        return profile_count::from_gcov_type((gcov_type)n);
    return profile_count::from_gcov_type((gcov_type)n).guessed_local();
}

/* The blocks the late profile leaves out (code counted before it was
 * inlined here: in_cfg): their counts from their predecessors' counts,
 * now the profile's, and GCC's own probabilities, in reverse post-order
 * (a predecessor not yet given its count, a loop's latch, is left out). */
static void fill_left_out(function *fun)
{
    int *rpo = XNEWVEC(int, n_basic_blocks_for_fn(fun));
    int n = pre_and_rev_post_order_compute_fn(fun, NULL, rpo, false);
    auto_sbitmap done(last_basic_block_for_fn(fun));
    bitmap_clear(done);
    for (int i = 0; i < n; i++) {
        basic_block bb = BASIC_BLOCK_FOR_FN(fun, rpo[i]);
        if (in_cfg(bb, true)) {
            bitmap_set_bit(done, bb->index);
            continue;
        }
        profile_count c = profile_count::zero(); /* (the sum takes its operands' quality) */
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->preds)
        if (e->src == ENTRY_BLOCK_PTR_FOR_FN(fun) || bitmap_bit_p(done, e->src->index))
            c += e->count();
        bb->count = c;
        bitmap_set_bit(done, bb->index);
    }
    free(rpo);
}

static void apply(function *fun, const vec<basic_block> &order, const vec<uint64_t> &counts,
                  const vec<uint64_t> &edges, bool late)
{
    uint64_t maxc = 0;
    unsigned k = 0;
    auto_vec<int> pos_of; /* a block's index in ORDER, or -1 (late: blocks out of the CFG) */
    if (late) {
        pos_of.safe_grow(last_basic_block_for_fn(fun));
        for (unsigned i = 0; i < pos_of.length(); i++)
            pos_of[i] = -1;
        for (unsigned i = 0; i < order.length(); i++)
            pos_of[order[i]->index] = i;
    }
    for (unsigned i = 0; i < order.length(); i++) {
        basic_block bb = order[i];
        uint64_t n = counts[i];
        bb->count = count_of(n);
        maxc = MAX(maxc, n);
        unsigned ns = nsucc_in(bb, late);
        unsigned nall = EDGE_COUNT(bb->succs);
        /* each edge's count: listed (several successors), the block's
           count (one), what is left (an edge to the exit or out of the
           CFG: into code counted before it was inlined here) */
        uint64_t listed = 0;
        auto_vec<uint64_t, 8> ec;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->succs)
        {
            uint64_t c;
            if (!in_cfg(e->dest, late))
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
        /* one successor in the CFG and others out of it (the loop's test
           going back into an inlined body counted before): the profile
           does not split the block's count between them, but the one in
           the CFG has it when this block is its only way in; else GCC's
           probabilities stay */
        unsigned nout = 0;
        bool to_exit = false;
        FOR_EACH_EDGE(e, ei, bb->succs)
        if (e->dest == EXIT_BLOCK_PTR_FOR_FN(fun))
            to_exit = true;
        else if (!in_cfg(e->dest, late))
            nout++;
        if (ns == 1 && nout) {
            unsigned j = 0;
            bool known = false;
            listed = 0;
            FOR_EACH_EDGE(e, ei, bb->succs)
            {
                if (ec[j] != UINT64_MAX && single_pred_p(e->dest) && !to_exit) {
                    ec[j] = MIN(counts[pos_of[e->dest->index]], n);
                    listed = ec[j];
                    known = true;
                }
                j++;
            }
            if (!known)
                continue;
        } else if (ns < 2 && nout)
            continue;
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
    if (late)
        fill_left_out(fun);
    single_succ_edge(entry)->probability = profile_probability::always();
    profile_count out = profile_count::zero();
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, exitb->preds)
    out += e->count();
    exitb->count = out;
    fun->cfg->count_max = count_of(maxc);
    /* GUESSED in both qualities: the static estimator ("profile_estimate")
       then leaves the function alone, where PROFILE_READ would make it
       predict again over the counts; with feedback-quality=ipa the
       function becomes PROFILE_READ right after it (perfinst_fbread) */
    profile_status_for_fn(fun) = PROFILE_GUESSED;
}

/* The function's tier: hot ones early (GCC optimizes them for speed and
 * puts them in .text.hot), cold ones early with cold-tier=size (the node's
 * frequency: compiled for size, in .text.unlikely) and otherwise LATE,
 * right before final: only the section, .text.unlikely.NAME, which
 * default_function_section would have chosen for an unlikely function
 * (the node's frequency would also make final's output templates choose
 * for size).  A section the program gave the function stays. */
static void wrap_function_section(void);

/* Does the cold tier's DECL (current_function_decl), which GCC split
 * (a never-run function keeps GCC's own guesses, which send its throws
 * and error paths to F.cold), need its cold part in a section of its own?
 * When it has exception regions: sharing one section with its hot part,
 * the cold part's exception table, whose call sites count from the cold
 * part's start, finds none of them (a C++ throw through it ended in
 * terminate).  Without them the two parts stay in one section, F.cold
 * right after F, as before: a section of its own for every cold part
 * moved Lua's hot code against libc's and raised lua/objects' I1 misses
 * 4× (bench/RESULTS.md 2026-12-05 17:38). */
static bool cold_part_apart(tree decl)
{
    return decl == current_function_decl && crtl->has_bb_partition && cfun &&
           (crtl->uses_eh_lsda || (cfun->eh && cfun->eh->region_tree));
}

static void set_cold_section(tree decl)
{
    if (lookup_attribute("section", DECL_ATTRIBUTES(decl)))
        return;
    const char *name = pi_asm_name(decl);
    set_decl_section_name(decl, ACONCAT((".text.unlikely.", name, NULL)));
    if (cold_part_apart(decl)) /* (cold_part_section) */
        wrap_function_section();
}

/* FN's origin: the name up to its first dot after the first character
 * (a copy), or NULL for a name without one */
static char *origin_of(const char *fn)
{
    const char *dot = strchr(fn, '.');
    return dot && dot != fn ? xstrndup(fn, (size_t)(dot - fn)) : NULL;
}

/* clone-tier=base: FN is a clone GCC made (F.constprop.N, F.isra.N,
 * F.part.N: a name with a dot after its first character) that the feedback
 * names nowhere, neither a tier nor a branch profile: the clone of a
 * function the training build did not clone.  Its tier is then F's (the
 * name up to the first dot), so that a clone of a function that never ran
 * lies with the cold tier, next to F's other never-run code, not among the
 * functions the list does not name after the ordered hot code.  The
 * origin's name (a copy) or NULL. */
static char *clone_origin(const char *fn)
{
    char *o = pi_opt.clone_tier_base ? origin_of(fn) : NULL;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while (o && (r = pi_feedback_next(PIFB_FUNCTION_TIER, &iter)))
        if (rec_for(r, fn))
            o = (free(o), nullptr);
    iter = 0;
    while (o && (r = pi_feedback_next(PIFB_BRANCH_PROFILE, &iter)))
        if (rec_for(r, fn))
            o = (free(o), nullptr);
    return o;
}

/* -flto: what the compile decided of a function, for lto1, which compiles
 * it (fblto, below). */
struct lto_facts {
    bool applied;  /* a branch profile applied (pi_feedback_applied) */
    int tier;      /* TIER_HOT, TIER_COLD, 0 */
    unsigned rank; /* order_rank */
    bool hot;      /* pi_feedback_hot_tier */
};

/* FN's tier in the feedback (`function-tier`): TIER_HOT, TIER_COLD or 0;
 * a clone the feedback does not name takes its origin's cold tier
 * (clone-tier=base), never its hot one.  WARN: say so of a bad tier. */
enum { TIER_HOT = 1, TIER_COLD = 2 };
static int tier_in_feedback(const char *fn, bool warn)
{
    char *origin = clone_origin(fn);
    int tier = 0;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_FUNCTION_TIER, &iter)))
        if (rec_for(r, origin ? origin : fn)) {
            const char *t = pifb_get(r, "tier");
            if (t && strcmp(t, "hot") == 0) {
                if (!origin)
                    tier = TIER_HOT;
            } else if (t && strcmp(t, "cold") == 0)
                tier = TIER_COLD;
            else if (warn && !origin)
                warn_rec(r, "tier must be hot or cold");
        }
    free(origin);
    return tier;
}

static const struct lto_facts *lto_facts_of(tree decl);

static bool set_tier(function *fun, bool late)
{
    cgraph_node *node = cgraph_node::get(fun->decl);
    if (!node)
        return false;
    int tier;
    if (in_lto_p) {
        const struct lto_facts *l = lto_facts_of(fun->decl);
        tier = l ? l->tier : 0;
    } else
        tier = tier_in_feedback(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), !late);
    if (tier == TIER_HOT && !late)
        node->frequency = NODE_FREQUENCY_HOT;
    else if (tier == TIER_COLD) {
        if (!late && pi_opt.cold_tier == PI_COLD_SIZE)
            node->frequency = NODE_FREQUENCY_UNLIKELY_EXECUTED;
        else if (late && pi_opt.cold_tier == PI_COLD_PLACE)
            set_cold_section(fun->decl);
    }
    return tier == TIER_COLD;
}

/* The function order (order-functions, the plan's order of the executed
 * functions): the rank of each name, 1 for the first; and per origin (a
 * name up to its first dot: F for F, F.part.0, F.isra.0, F.constprop.0)
 * the lowest rank of a name of that origin. */
static hash_map<nofree_string_hash, unsigned> *ranks, *origin_ranks;

static void read_ranks(void)
{
    ranks = new hash_map<nofree_string_hash, unsigned>;
    origin_ranks = new hash_map<nofree_string_hash, unsigned>;
    unsigned iter = 0, n = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next("order-functions", &iter))) {
        const char *s = pifb_get(r, "functions");
        while (s && *s) {
            const char *e = strchr(s, ',');
            size_t l = e ? (size_t)(e - s) : strlen(s);
            if (l) {
                char *name = xstrndup(s, l); /* kept: the map's key */
                bool existed;
                unsigned &slot = ranks->get_or_insert(name, &existed);
                if (!existed) {
                    slot = ++n;
                    char *o = origin_of(name), *key = o ? o : xstrdup(name);
                    unsigned &os = origin_ranks->get_or_insert(key, &existed);
                    if (!existed)
                        os = n; /* (the lowest: ranks rise) */
                    else
                        free(key);
                } else
                    free(name);
            }
            s = e ? e + 1 : NULL;
        }
    }
}

/* FN's rank, 0 for none.  clone-order=base: a function the list does not
 * name takes its origin's rank (F.isra.0 the rank of F: its section
 * .text.sorted.RANK.F.isra.0 sorts right after F's), else the lowest rank
 * of a name of the same origin (F kept whole by the rebuild, where the
 * training build's F.part.0 is ordered: F right before F.part.0) —
 * functions the rebuild made that the training build did not */
static unsigned order_rank(const char *fn)
{
    if (!ranks)
        read_ranks();
    unsigned *r = ranks->get(fn);
    if (r || pi_opt.clone_order_own)
        return r ? *r : 0;
    char *o = origin_of(fn);
    if (o)
        r = ranks->get(o);
    if (!r)
        r = origin_ranks->get(o ? o : fn);
    free(o);
    return r ? *r : 0;
}

/* The cold part of a function of the plan's order (cold-parts=, docs/layout.md
 * "Cold parts in the rebuild").  GCC names the section of F's cold part in
 * the target hook function_section (default_function_section, asked with
 * the frequency "unlikely executed"): .text.unlikely.F for a function whose
 * section is implicit.  GNU ld's default script places every .text.unlikely
 * input in the objects' order, before .text.hot and .text.sorted, among the
 * functions that never ran.  The hook is wrapped: for a function in
 * .text.sorted.RANK.F it answers
 *   cold-parts=sorted  .text.sorted.cRANK.F  (after every ordered function,
 *                      the cold parts in the plan's order)
 *   cold-parts=beside  .text.sorted.RANKc.F  (right after F itself)
 * which the script's SORT(.text.sorted.*) sorts by name with the hot parts
 * ('c' sorts after the digits, '.' before 'c'). */
static section *(*gcc_function_section)(tree, enum node_frequency, bool, bool);

static int cold_parts_mode(void)
{
    return pi_opt.cold_parts ? pi_opt.cold_parts : PI_COLDPARTS_LINK;
}

static section *cold_part_section(tree decl, enum node_frequency freq, bool startup, bool exit)
{
    static const char pre[] = ".text.sorted.", unlikely[] = ".text.unlikely.";
    cgraph_node *node = decl ? cgraph_node::get(decl) : NULL;
    const char *sec = decl ? DECL_SECTION_NAME(decl) : NULL;
    /* the cold part of a function of the cold tier that GCC split
       (set_cold_section): .text.unlikely.F.cold, beside its hot part's
       .text.unlikely.F (the part's symbol is F.cold) */
    if (freq == NODE_FREQUENCY_UNLIKELY_EXECUTED && sec && cold_part_apart(decl) &&
        strncmp(sec, unlikely, sizeof unlikely - 1) == 0 &&
        strcmp(sec + sizeof unlikely - 1, pi_asm_name(decl)) == 0)
        return get_named_section(decl, ACONCAT((sec, ".cold", NULL)), 0);
    if (freq == NODE_FREQUENCY_UNLIKELY_EXECUTED && node && node->implicit_section && sec &&
        strncmp(sec, pre, sizeof pre - 1) == 0) {
        const char *rank = sec + sizeof pre - 1, *dot = strchr(rank, '.');
        if (dot && dot > rank) {
            char *name = XNEWVEC(char, strlen(sec) + 2);
            if (cold_parts_mode() == PI_COLDPARTS_SORTED)
                sprintf(name, "%sc%s", pre, rank);
            else
                sprintf(name, "%s%.*sc%s", pre, (int)(dot - rank), rank, dot);
            section *r = get_named_section(decl, name, 0);
            XDELETEVEC(name);
            return r;
        }
    }
    return gcc_function_section(decl, freq, startup, exit);
}

/* targetm.asm_out.function_section wrapped by cold_part_section, once */
static void wrap_function_section(void)
{
    if (!gcc_function_section && targetm.asm_out.function_section) {
        gcc_function_section = targetm.asm_out.function_section;
        targetm.asm_out.function_section = cold_part_section;
    }
}

/* order-align=bolt|none (docs/layout.md "Function alignment"): a function
 * of the plan's order is compiled without -falign-functions' alignment
 * (the .p2align 4 that assemble_start_function emits before its label when
 * align_functions asks for more than DECL_ALIGN), so that its section
 * .text.sorted.RANK.NAME has the alignment its own code needs: DECL_ALIGN
 * (1 byte; 2 for a C++ method), or 16 where GCC aligns a loop or a jump
 * target in it (pad=gcc: gas records a .p2align's alignment as the
 * section's).  With bolt, each unit that has such a function carries the
 * section .perfinst.falign ("e": ld leaves it out of the output), "64:32":
 * perfinst's link stage (linker/falign.c) then puts each ordered function
 * at a multiple of 64 where the padding before it is at most 32 bytes.
 * Every other function keeps align_functions: it is set back before the
 * next function's final (tier_late_execute). */
static bool align_changed;
static align_flags align_saved;

static void restore_align(void)
{
    if (align_changed)
        align_functions = align_saved;
    align_changed = false;
}

static void set_order_align(void)
{
    static bool marked;
    if (pi_opt.order_align == PI_OALIGN_GCC)
        return;
    align_saved = align_functions;
    align_functions = align_flags();
    align_changed = true;
    if (pi_opt.order_align == PI_OALIGN_BOLT && !marked && asm_out_file) {
        fputs("\t.pushsection .perfinst.falign,\"e\",@progbits\n\t.ascii \"64:32\"\n\t.popsection\n",
              asm_out_file);
        marked = true;
    }
}

/* Right before final, a function of the plan's order goes to
 * .text.sorted.RANK.NAME (RANK ten digits): GNU ld's default script places
 * *(SORT(.text.sorted.*)) after .text.hot, sorted by name, so the rebuilt
 * program has the plan's function order across all its objects without a
 * relink.  The section is marked implicit, as -ffunction-sections' own
 * names are, so that the function's cold part still gets
 * .text.unlikely.NAME (get_named_text_section), and a hot-tier function
 * becomes normal (default_function_section would otherwise choose
 * .text.hot.NAME: the hot tier's work is done, the code is generated).
 * (-ffunction-sections may have named it .text.NAME already, implicitly.)
 * A clone F.isra.N (F.constprop.N, F.part.N) the list does not name stays
 * where it is (clone-order=own, the default), or takes F's rank
 * (clone-order=base, order_rank).
 * Left alone: a section the program chose, main and constructors
 * (.text.startup), destructors (.text.exit), function-order=none. */
static void set_order_section(function *fun)
{
    cgraph_node *node = cgraph_node::get(fun->decl);
    if (!node || pi_opt.function_order_none || (DECL_SECTION_NAME(fun->decl) && !node->implicit_section) ||
        lookup_attribute("section", DECL_ATTRIBUTES(fun->decl)) || node->only_called_at_startup ||
        node->only_called_at_exit || MAIN_NAME_P(DECL_NAME(fun->decl)))
        return;
    const char *name = pi_asm_name(fun->decl);
    const struct lto_facts *l = in_lto_p ? lto_facts_of(fun->decl) : NULL;
    unsigned rank = in_lto_p ? (l ? l->rank : 0) : order_rank(name);
    if (!rank)
        return;
    char num[32];
    snprintf(num, sizeof num, ".text.sorted.%010u.", rank);
    set_decl_section_name(fun->decl, ACONCAT((num, name, NULL)));
    node->implicit_section = true;
    if (cold_parts_mode() != PI_COLDPARTS_LINK)
        wrap_function_section();
    if (node->frequency == NODE_FREQUENCY_HOT)
        node->frequency = NODE_FREQUENCY_NORMAL;
    set_order_align();
}

/* The functions whose branch profile was applied, by assembler name, for
 * the block order pass (pass-blockorder.cc). */
static hash_set<nofree_string_hash> *applied;

/* FN kept in SET (a copy): an identifier's string is the garbage
 * collector's, and an identifier nothing refers to any more (a `.part`
 * function the early ipa-split made, inlined back by IPA) is purged with
 * its string, whose memory a later identifier reuses.  Kept as the
 * pointer, the rebuild's summary missed such functions from its total
 * while counting their weight as matched: "101.4% of the profile's block
 * executions matched" on SQLite (17 `.part.0` functions). */
static void keep_name(hash_set<nofree_string_hash> *&set, const char *fn)
{
    if (!set)
        set = new hash_set<nofree_string_hash>;
    if (!set->contains(fn))
        set->add(xstrdup(fn));
}

static void note_applied(const char *fn) { keep_name(applied, fn); }

/* Is DECL in the hot tier (`function-tier tier=hot`): by its own record,
 * or, when it has none, by its origin's (the name up to the first dot: a
 * clone of a hot function runs as hot)?  pass-pad.cc */
bool pi_feedback_hot_tier(tree decl)
{
    if (in_lto_p) {
        const struct lto_facts *l = lto_facts_of(decl);
        return l && l->hot;
    }
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
    char *base = origin_of(fn);
    int own = -1, of_base = 0;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while (own < 0 && (r = pi_feedback_next(PIFB_FUNCTION_TIER, &iter))) {
        const char *t = pifb_get(r, "tier");
        if (rec_for(r, fn))
            own = t && strcmp(t, "hot") == 0;
        else if (base && rec_for(r, base))
            of_base = t && strcmp(t, "hot") == 0;
    }
    free(base);
    return own >= 0 ? own : of_base;
}

/* Was a branch profile applied to DECL's function, or to the one it was
 * cloned or split from (foo.part.0, foo.constprop.0, foo.isra.0: the name
 * up to the first dot)? */
bool pi_feedback_applied(tree decl)
{
    if (in_lto_p) {
        const struct lto_facts *l = lto_facts_of(decl);
        return l && l->applied;
    }
    if (!applied)
        return false;
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
    if (applied->contains(fn))
        return true;
    char *base = origin_of(fn);
    bool r = base && applied->contains(base);
    free(base);
    return r;
}

/* The function's blocks in pass-count's order, and its CFG checksum
 * (at the point the profile was taken: LATE, after the early inliner). */
static uint64_t cfg_of(function *fun, vec<basic_block> &order, bool late)
{
    pi_cfg_split_markers(fun); /* the count pass's blocks (statement directives) */
    basic_block entry = pi_cfg_entry(fun);
    auto_sbitmap in(last_basic_block_for_fn(fun));
    bitmap_clear(in);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) if (in_cfg(bb, late)) bitmap_set_bit(in, bb->index);
    pi_cfg_order(fun, entry, in, order);
    return pi_cfg_checksum(order);
}

/* A function with no profile under this unit's key: is it in the profile
 * under another key (its file seen from elsewhere: a moved tree, another
 * build directory), with the same CFG or by name only?  By name counts
 * too: a unit whose keys miss also misses its tiers, and a function whose
 * callees' tiers differ inlines differently before the late point, so no
 * late profile matches its CFG (sqlite3.c built from another directory
 * matched none).  Only records taken at this point (LATE) are compared. */
static void look_elsewhere(function *fun, const char *fn, bool late)
{
    unsigned iter = 0;
    const struct pifb_rec *r;
    const char *src = NULL;
    /* a function defined in a header (an inline, template or static one)
       is compiled by every unit that includes it: its profile under
       another unit's key says nothing of a move (snappy's tests, whose
       units only share the library's header helpers) */
    const char *file = DECL_SOURCE_FILE(fun->decl);
    if (!main_input_filename || !file || strcmp(file, main_input_filename) != 0)
        return;
    st.looked[late]++;
    /* (a profile under this unit's own key is another variant's, its twin
       compiled with other definitions: no move, pi_feedback_for_unit) */
    while ((r = pi_feedback_next(PIFB_BRANCH_PROFILE, &iter)) && !src) {
        const char *name = pifb_get(r, "fn");
        if (name && strcmp(name, fn) == 0 && pifb_get(r, "src") && pi_feedback_point(r) == late &&
            !pi_feedback_src_is_ours(pifb_get(r, "src")))
            src = pifb_get(r, "src");
    }
    if (!src)
        return;
    if (!st.named[0] && !st.named[1] && !st.elsewhere)
        st.elsewhere_src = src;
    st.named[late]++;
    auto_vec<basic_block> order;
    uint64_t cfg = cfg_of(fun, order, late), sum;
    iter = 0;
    while ((r = pi_feedback_next(PIFB_BRANCH_PROFILE, &iter))) {
        const char *name = pifb_get(r, "fn");
        if (name && strcmp(name, fn) == 0 && pifb_get(r, "src") && pi_feedback_point(r) == late &&
            !pi_feedback_src_is_ours(pifb_get(r, "src")) && !pifb_get_u64(r, "checksum", &sum) && sum == cfg) {
            if (!st.elsewhere++)
                st.elsewhere_src = pifb_get(r, "src");
            return;
        }
    }
}

/* The functions this unit compiled (assembler names: identifier strings). */
static hash_set<nofree_string_hash> *compiled;

static void note_compiled(const char *fn) { keep_name(compiled, fn); }

/* The function's branch-profile chunks taken at this point (LATE) into
 * recs; whether it has any taken at the other point.  A chunk whose at=
 * is unknown is malformed (warned once, at cfg). */
static bool profile_recs(const char *fn, bool late, vec<const struct pifb_rec *> &recs)
{
    bool other = false;
    unsigned iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_BRANCH_PROFILE, &iter)))
        if (rec_for(r, fn)) {
            int at = pi_feedback_point(r);
            if (at < 0) {
                if (!late) {
                    warn_rec(r, "at= must be late (or absent: cfg)");
                    st.malformed++;
                }
            } else if (at == late)
                recs.safe_push(r);
            else
                other = true;
        }
    return other;
}

/* cold-inline=o2 (docs/layout.md, "Inlining where training ran little"):
 * the inliner gives a call site -O2's hot/cold verdict where the profile
 * alone would make it cold and GCC's own estimate would not.
 *
 *     static int get(...) { ... }      -O2 (guess)   the counts           cold-inline=o2
 *     f: if (rare) x = get(...);       inlined       "call is unlikely":  inlined; its copy
 *        (0 or 1 of 5,000 runs)                      a call, and get      in the cold part
 *                                                    kept out of line
 *
 * GCC's inliner does not inline a call that is not "maybe hot"
 * (cgraph_edge::maybe_hot_p) when the caller would grow: a count that is
 * a precise zero (a block that never ran in training) or below
 * 1/hot-bb-frequency-fraction of the caller's entry.  Training ran the
 * code a workload nobody tuned for may run often, so its verdict on such a
 * site should be -O2's; and a helper kept out of line for one such site
 * keeps its offline body, so that -O2's inlining of it into its last
 * callers (growth below zero once the body goes) is lost at sites that
 * ran (Lua's patchtestreg into patchlistaux).  So:
 *
 *   - at the late point (perfinst_fblate), before the profile replaces
 *     GCC's estimate, each call's block count and the entry count of that
 *     estimate are kept (note_guesses);
 *   - before "inline" (perfinst_coldinl): a function GCC's ipa-profile
 *     made "unlikely executed" because every call to it lies in a block
 *     that never ran gets back the frequency it had before (GCC's own:
 *     compiled for speed, as the cold tier's functions are meant to be),
 *     and stays where it was, in .text.unlikely.NAME (perfinst_tier_late);
 *     then a call site that is not maybe-hot with its count, but is with
 *     GCC's estimate (the caller's count times the estimate's share of
 *     its block), gets that count, in every copy of the caller
 *     (ipa-cp's clones);
 *   - after "inline" (perfinst_coldinl_restore): each such call site's
 *     count, and when it was inlined the counts of the inlined body (the
 *     inline clone, its calls, its own inlined calls), are scaled back by
 *     the profile's count over the raised one: a never-run site's inlined
 *     body has precise zero counts, as its block, and goes to the cold
 *     part.
 *
 * Only the counts the inliner reads change, and only between the two
 * passes; bodies are not touched.  Local quality only (GUESSED_LOCAL
 * counts, the default): with feedback-quality=ipa the counts are read
 * counts, as -fprofile-use's, and stay so. */
struct call_guess {
    profile_count bb, entry; /* GCC's estimate: the call's block, the function's entry */
    profile_count real, raised; /* the body's profile count, and as raised (coldinl) */
    bool raise;
};
static hash_map<gimple *, call_guess> *guesses;
static hash_map<tree, int> *freq_before; /* origin decl: its node frequency at the late point */
static hash_set<tree> *restored;          /* functions given their frequency back (coldinl) */

/* what note_guesses kept of E's call, or NULL */
static call_guess *guess_of(cgraph_edge *e) { return e->call_stmt ? guesses->get(e->call_stmt) : NULL; }

static bool cold_inline_on(void) { return pi_opt.cold_inline_o2 && ipa_state <= 0; }

static void note_guesses(function *fun)
{
    cgraph_node *node = cgraph_node::get(fun->decl);
    if (!node || !cold_inline_on())
        return;
    if (!guesses) {
        guesses = new hash_map<gimple *, call_guess>;
        pi_gc_root_map(&guesses);
    }
    profile_count entry = ENTRY_BLOCK_PTR_FOR_FN(fun)->count;
    for (cgraph_edge *e = node->callees; e; e = e->next_callee)
        if (e->call_stmt) {
            call_guess g;
            g.bb = gimple_bb(e->call_stmt)->count;
            g.entry = entry;
            g.real = g.raised = profile_count::uninitialized();
            g.raise = false;
            guesses->put(e->call_stmt, g);
        }
}

static void note_frequency(cgraph_node *node)
{
    if (!cold_inline_on())
        return;
    if (!freq_before) {
        freq_before = new hash_map<tree, int>;
        pi_gc_root_map(&freq_before);
    }
    freq_before->put(node->decl, (int)node->frequency);
}

static cgraph_node *origin_node(cgraph_node *n)
{
    while (n->clone_of)
        n = n->clone_of;
    return n;
}

/* The count GCC's estimate gives E: its caller's count times the
 * estimate's share of the call's block, at least 1 where that share is not
 * zero (training counts are small: a caller entered once has no count
 * between 0 and 1); uninitialized when not known. */
static profile_count raised_count(profile_count caller, const call_guess *g)
{
    if (!g || !g->bb.initialized_p() || !g->entry.initialized_p() || !g->entry.nonzero_p() ||
        !caller.initialized_p() || !caller.nonzero_p() || !g->bb.nonzero_p())
        return profile_count::uninitialized();
    profile_count c = caller.apply_scale(g->bb, g->entry);
    return c.nonzero_p() ? c : profile_count::from_gcov_type(1).guessed_local();
}

/* Is E maybe hot under GCC's own estimate (its block's and its function's
 * entry counts as the estimate had them: the exact share)? */
static bool hot_by_guess(cgraph_edge *e, const call_guess *g)
{
    profile_count c = e->caller->count, n = e->count;
    e->caller->count = g->entry;
    e->count = g->bb;
    bool hot = e->maybe_hot_p();
    e->caller->count = c;
    e->count = n;
    return hot;
}

/* A call to a part ipa-split made (F.part.N, or a clone of one): the
 * part is the code GCC split off as rarely run, and the profile says it
 * never ran here, so it stays a call.  -O2 inlines such a part back into
 * F where its estimate calls the call hot, and F, grown, is then no longer
 * inlined into its own callers: Lua's prepbuffsize, whose head the
 * counts let GCC inline into luaL_addlstring and four more, stayed a call
 * with its part inlined (lua/strings +0.8 % instructions). */
static bool split_part_call(cgraph_edge *e)
{
    cgraph_node *c = e->callee;
    return c && (c->split_part || origin_node(c)->split_part);
}

static bool coldinl_gate(function *)
{
    return pi_feedback_path() && !seen_error() && guesses && cold_inline_on();
}

static unsigned int coldinl_execute(function *)
{
    cgraph_node *node;
    unsigned nfreq = 0, nsites = 0, nran = 0;
    /* the functions made unlikely by the profile's zeros alone */
    for (bool changed = true; changed && freq_before;) {
        changed = false;
        FOR_EACH_DEFINED_FUNCTION(node)
        {
            if (node->frequency != NODE_FREQUENCY_UNLIKELY_EXECUTED)
                continue;
            int *was = freq_before->get(origin_node(node)->decl);
            if (!was || *was == NODE_FREQUENCY_UNLIKELY_EXECUTED)
                continue;
            for (cgraph_edge *e = node->callers; e; e = e->next_caller) {
                cgraph_node *c = e->caller->inlined_to ? e->caller->inlined_to : e->caller;
                if (c->frequency == NODE_FREQUENCY_UNLIKELY_EXECUTED)
                    continue;
                /* ipa-profile passes over a call whose count is a zero
                   in the IPA sense; under GCC's estimate only a block its
                   own analysis found unlikely has one */
                call_guess *g = guess_of(e);
                if (e->count.ipa() == profile_count::zero() && (!g || g->bb.ipa() == profile_count::zero()))
                    continue;
                node->frequency = (enum node_frequency) * was;
                if (!restored) {
                    restored = new hash_set<tree>;
                    pi_gc_root_set(&restored);
                }
                restored->add(node->decl);
                changed = true;
                nfreq++;
                break;
            }
        }
    }
    /* the call sites: which to raise (any copy that the profile makes cold
       and the estimate does not), then every copy of each */
    FOR_EACH_DEFINED_FUNCTION(node)
    for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
        call_guess *g = guess_of(e);
        if (!g || g->raise || split_part_call(e) || e->maybe_hot_p() || !hot_by_guess(e, g))
            continue;
        profile_count fake = raised_count(e->caller->count, g), real = e->count;
        if (!fake.initialized_p() || !(real < fake))
            continue;
        e->count = fake;
        g->raise = e->maybe_hot_p();
        e->count = real;
    }
    FOR_EACH_DEFINED_FUNCTION(node)
    for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
        call_guess *g = guess_of(e);
        if (!g || !g->raise)
            continue;
        if (!g->real.initialized_p()) {
            /* the ratio that restores it, taken on the body (a clone's
               counts are the body's, scaled) */
            function *f = DECL_STRUCT_FUNCTION(origin_node(node)->decl);
            if (!f || !f->cfg)
                continue;
            g->real = gimple_bb(e->call_stmt)->count;
            g->raised = raised_count(ENTRY_BLOCK_PTR_FOR_FN(f)->count, g);
            if (!g->raised.initialized_p() || !g->real.initialized_p()) {
                g->raise = false;
                continue;
            }
        }
        profile_count fake = raised_count(e->caller->count, g);
        if (fake.initialized_p() && e->count < fake) {
            nran += e->count.nonzero_p();
            e->count = fake;
            nsites++;
        }
    }
    if (pi_opt.verbose && (nfreq || nsites))
        inform(UNKNOWN_LOCATION,
               "perfinst: cold-inline=o2: %u call sites given GCC%'s estimate for the inliner (%u of them ran "
               "in training), %u functions their frequency back", nsites, nran, nfreq);
    return 0;
}
PI_IPA_PASS(coldinl)

/* E's count, and those of what was inlined through it, times NUM/DEN. */
static void rescale_edge(cgraph_edge *e, profile_count num, profile_count den)
{
    e->count = e->count.apply_scale(num, den);
    if (e->inline_failed)
        return;
    cgraph_node *n = e->callee;
    n->count = n->count.apply_scale(num, den);
    for (cgraph_edge *c = n->callees; c; c = c->next_callee)
        rescale_edge(c, num, den);
    for (cgraph_edge *c = n->indirect_calls; c; c = c->next_callee)
        c->count = c->count.apply_scale(num, den);
}

static bool coldinl_restore_gate(function *fun) { return coldinl_gate(fun); }
static unsigned int coldinl_restore_execute(function *)
{
    cgraph_node *node;
    FOR_EACH_FUNCTION(node)
    for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
        call_guess *g = guess_of(e);
        if (g && g->raise && g->real.initialized_p())
            rescale_edge(e, g->real, g->raised);
    }
    return 0;
}
PI_IPA_PASS(coldinl_restore)

/* Functions whose profile taken at cfg (so the plan says) was stale
 * there, with its checksum: compared again after the early inliner, to
 * name the reason (a plan of a count-at=late build written before the
 * at= key existed). */
static hash_map<nofree_string_hash, uint64_t> *stale_at_cfg;

/* The function's profile (RECS, its chunks taken at this point, LATE)
 * against its CFG here: applied, or counted stale or malformed.  True
 * when applied. */
static bool match_profile(function *fun, const char *fn, vec<const struct pifb_rec *> &recs, bool late)
{
    const struct pifb_rec *r;
    auto_vec<basic_block> order;
    uint64_t cfg = cfg_of(fun, order, late);
    /* Two units may share a source key (recursive make: util.c in two
       directories) and a function name (static helpers): keep the chunks
       whose checksum is this function's, if any. */
    uint64_t sum;
    unsigned same = 0;
    for (unsigned i = 0; i < recs.length(); i++)
        if (!pifb_get_u64(recs[i], "checksum", &sum) && sum == cfg)
            recs[same++] = recs[i];
    if (same)
        recs.truncate(same);

    uint64_t want, nsites, weight = 0;
    if (pifb_get_u64(recs[0], "checksum", &want) || pifb_get_u64(recs[0], "sites", &nsites)) {
        warn_rec(recs[0], "no checksum= or sites=");
        st.malformed++;
        return false;
    }
    pifb_get_u64(recs[0], "weight", &weight);
    if (want != cfg || nsites != order.length()) {
        st.stale++;
        st.w_stale += weight;
        if (late)
            st.stale_late++;
        else {
            if (!stale_at_cfg)
                stale_at_cfg = new hash_map<nofree_string_hash, uint64_t>;
            if (uint64_t *had = stale_at_cfg->get(fn))
                *had = want;
            else
                stale_at_cfg->put(xstrdup(fn), want); /* (a copy: keep_name) */
        }
        if (pi_opt.verbose) {
            char why[160];
            snprintf(why, sizeof why, "CFG checksum 0x%016llx, %u blocks; the profile's 0x%016llx, %llu blocks",
                     (unsigned long long)cfg, order.length(), (unsigned long long)want,
                     (unsigned long long)nsites);
            inform(DECL_SOURCE_LOCATION(fun->decl),
                   "perfinst: %s: the profile of %qs is stale (%s %s): GCC%'s estimate is kept",
                   pi_feedback_path(), fn, late ? "after the early inliner:" : "at cfg:", why);
        }
        return false;
    }

    /* counts and edges by site, from the chunks (any order) */
    auto_vec<uint64_t> counts, edges;
    counts.safe_grow_cleared(order.length());
    auto_vec<unsigned> edge_first; /* per site: its first entry in edges */
    unsigned nedges = 0;
    for (unsigned i = 0; i < order.length(); i++) {
        edge_first.safe_push(nedges);
        unsigned ns = nsucc_in(order[i], late);
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
        if (pifb_get_u64(r, "first", &first) || !pi_feedback_parse_list(pifb_get(r, "counts"), cs) ||
            !pi_feedback_parse_list(pifb_get(r, "edges"), es) || pifb_get_u64(r, "checksum", &sum) || sum != want ||
            first > order.length() || cs.length() > order.length() - first) {
            warn_rec(r, "malformed (first=, counts=, edges= or checksum= do not fit the function)");
            st.malformed++;
            return false;
        }
        unsigned want_edges = 0;
        for (unsigned i = 0; i < cs.length(); i++) {
            unsigned ns = nsucc_in(order[first + i], late);
            want_edges += ns >= 2 ? ns : 0;
        }
        if (es.length() != want_edges) {
            warn_rec(r, "edges= has the wrong number of entries for these blocks");
            st.malformed++;
            return false;
        }
        unsigned k = 0;
        for (unsigned i = 0; i < cs.length(); i++) {
            unsigned s = first + i;
            if (bitmap_bit_p(seen, s)) {
                warn_rec(r, "a block is given twice");
                st.malformed++;
                return false;
            }
            bitmap_set_bit(seen, s);
            covered++;
            counts[s] = cs[i];
            unsigned ns = nsucc_in(order[s], late);
            if (ns >= 2)
                for (unsigned j = 0; j < ns; j++)
                    edges[edge_first[s] + j] = es[k++];
        }
    }
    if (covered != order.length()) {
        warn_rec(recs[0], "the chunks do not cover every block of the function");
        st.malformed++;
        return false;
    }
    ipa_quality();
    if (late)
        note_guesses(fun);
    apply(fun, order, counts, edges, late);
    pi_copyprof_note_sites(fun, order);
    note_applied(fn);
    st.matched++;
    st.w_matched += weight;
    return true;
}

/* Right after `cfg`: the function's tier, and its profile taken there. */
static unsigned int feedback_execute(function *fun)
{
    const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl));
    set_tier(fun, false);
    note_compiled(fn);
    auto_vec<const struct pifb_rec *> recs;
    bool late = profile_recs(fn, false, recs);
    if (!recs.is_empty())
        match_profile(fun, fn, recs, false);
    else if (!late)
        look_elsewhere(fun, fn, false);
    return 0;
}

/* After the early inliner and the early optimisations, before GCC's
 * `profile` (where count-at=late took its counts, pass-count.cc
 * count_late, and where -fprofile-use reads its own): the profiles taken
 * there (at=late), and the promote-call recommendations taken there.  The
 * counts are given as at `cfg`; the call graph's counts are then taken
 * from the blocks (as cgraph_edge::rebuild_edges does after GCC's own
 * profile pass), so every IPA pass (ipa-cp, the inliner, ipa-split's
 * feedback run, the hot/cold decisions) sees them; the early inliner and
 * the early ipa-split saw GCC's guesses, as with -fprofile-use.  A
 * function whose profile, taken at cfg, was stale there but matches here
 * is counted (the unit's note says why). */
static void late_extras(function *fun)
{
    cgraph_node *node = cgraph_node::get(fun->decl);
    if (!node)
        return;
    node->count = ENTRY_BLOCK_PTR_FOR_FN(fun)->count;
    cgraph_edge *lists[] = {node->callees, node->indirect_calls};
    for (unsigned i = 0; i < 2; i++)
        for (cgraph_edge *e = lists[i]; e; e = e->next_callee)
            if (e->call_stmt)
                e->count = gimple_bb(e->call_stmt)->count;
    /* feedback-quality=ipa: what perfinst_fbread does after profile_estimate */
    if (ipa_state > 0 && ENTRY_BLOCK_PTR_FOR_FN(fun)->count.ipa_p()) {
        profile_status_for_fn(fun) = PROFILE_READ;
        compute_function_frequency();
        set_tier(fun, false);
    }
}

/* Has the late pass work here: records taken late under this unit's key,
 * or none under its key at all and some taken late under another (where
 * look_elsewhere finds a moved tree's functions)? */
static bool any_late_recs(void)
{
    static int any = -1;
    if (any < 0) {
        bool own = false, own_late = false, other_late = false;
        const char *kinds[] = {PIFB_BRANCH_PROFILE, PIFB_PROMOTE_CALL};
        for (unsigned k = 0; k < 2; k++) {
            unsigned iter = 0;
            const struct pifb_rec *r;
            while ((r = pi_feedback_next(kinds[k], &iter))) {
                bool mine = pi_feedback_for_unit(r), late = pi_feedback_point(r) > 0;
                own |= mine;
                own_late |= mine && late;
                other_late |= !mine && late;
            }
        }
        any = own_late || (!own && other_late);
    }
    return any;
}

static bool fblate_gate(function *)
{
    return pi_feedback_path() && !seen_error() && (any_late_recs() || stale_at_cfg);
}

static unsigned int fblate_execute(function *)
{
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        if (!gimple_has_body_p(node->decl) || (node->clone_of && node->decl == node->clone_of->decl))
            continue;
        const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(node->decl));
        uint64_t *was = stale_at_cfg ? stale_at_cfg->get(fn) : NULL;
        note_frequency(node);
        auto_vec<const struct pifb_rec *> recs;
        bool has_other = profile_recs(fn, true, recs);
        push_cfun(DECL_STRUCT_FUNCTION(node->decl));
        if (!recs.is_empty()) {
            note_compiled(fn); /* (a .part function the early ipa-split made) */
            if (match_profile(cfun, fn, recs, true))
                late_extras(cfun);
        } else if (was) {
            auto_vec<basic_block> order;
            if (cfg_of(cfun, order, true) == *was) {
                st.other_point++;
                if (pi_opt.verbose)
                    inform(DECL_SOURCE_LOCATION(node->decl),
                           "perfinst: %s: the profile of %qs matches its CFG after the early inliner, not "
                           "at cfg where the plan says it was taken", pi_feedback_path(), fn);
            }
        } else if (!has_other)
            look_elsewhere(cfun, fn, true);
        pi_promote_find_late(cfun);
        free_dominance_info(CDI_DOMINATORS);
        free_dominance_info(CDI_POST_DOMINATORS);
        pop_cfun();
    }
    return 0;
}
PI_SIMPLE_IPA_PASS(fblate)

/* Per unit: how much of its profile matched (docs/layout.md, "Keys and
 * staleness").  Its profile is the branch profiles under its source key of
 * the functions it compiled (a function the profile has and the unit no
 * longer defines, or another unit's under the same key, is for `pmopt plan
 * --check` to count); their weights (block executions) are the measure.  Less than half of it
 * matched is a warning; some stale or malformed, a note; all of it, a
 * note with -fplugin-arg-perfinst-verbose.  A unit with no profile under
 * its key whose functions are in the profile under another key (the tree
 * moved: one with the same CFG, or most of them by name) is a warning
 * naming that key. */
void pi_feedback_report(void)
{
    /* (lto1 matches nothing: cc1 did, fblto) */
    if (st.reported || !pi_feedback_path() || in_lto_p)
        return;
    st.reported = true;
    uint64_t total = 0, first;
    unsigned nprofiles = 0, iter = 0;
    const struct pifb_rec *r;
    while ((r = pi_feedback_next(PIFB_BRANCH_PROFILE, &iter)))
        if (pi_feedback_for_unit(r) && !pifb_get_u64(r, "first", &first) && first == 0 && compiled &&
            pifb_get(r, "fn") && compiled->contains(pifb_get(r, "fn"))) {
            uint64_t w = 0;
            pifb_get_u64(r, "weight", &w);
            total += w;
            nprofiles++;
        }
    const char *src = pi_unit_source();
    if (!nprofiles) {
        /* by name only: most of the unit's functions looked up at one
           point (a late profile's functions inlined away are looked up at
           cfg only), so that a new file whose static `init` another unit's
           profile has is not "moved" */
        int at = st.named[1] > st.named[0];
        unsigned by_name = st.named[at];
        /* the key names another file of another name: not a move, which
           keeps the file's name.  Another file when the key names a file
           from here (a copy's functions, as fribidi's two conformance
           tests share theirs), when only names match, or when few of the
           unit's functions are there (static functions of the same names:
           libjpeg-turbo's jctrans.c has two of jccoefct.c's, one of them
           with its CFG; the key is relative to the training compile's
           directory, which may not be this one: CMake compiles a shared
           library's objects in a directory of their own) */
        bool other_file = st.elsewhere_src && strcmp(lbasename(st.elsewhere_src), lbasename(src)) != 0 &&
                          (access(st.elsewhere_src, F_OK) == 0 || !st.elsewhere || by_name * 2 < st.looked[at]);
        if (!other_file && (st.elsewhere || (by_name >= 2 && by_name * 2 >= st.looked[at])))
            warning_at(UNKNOWN_LOCATION, OPT_Wmissing_profile, "perfinst: %s: no function profile is keyed to this unit%'s source %qs, but %u of "
                    "its functions are profiled under %qs: was the tree moved, or built from another "
                    "directory? (keys are paths relative to the build directory; "
                    "%<-fplugin-arg-perfinst-prefix-map=OLD=NEW%> spells this build%'s paths as the "
                    "training build%'s)", pi_feedback_path(), src, st.elsewhere > by_name ? st.elsewhere : by_name, st.elsewhere_src);
        else if (pi_opt.verbose || st.malformed)
            inform(UNKNOWN_LOCATION, "perfinst: %s: no function profile is keyed to this unit%'s source "
                   "%qs (%u malformed)", pi_feedback_path(), src, st.malformed);
        return;
    }
    bool most = total ? st.w_matched * 2 > total : st.matched * 2 > nprofiles;
    if (most && !pi_opt.verbose && !st.stale && !st.malformed)
        return;
    char pct[64];
    if (total)
        snprintf(pct, sizeof pct, "%.1f%%", 100.0 * (double)st.w_matched / (double)total);
    else
        snprintf(pct, sizeof pct, "none");
    /* why profiles taken after the early inliner were stale */
    char why[400] = "";
    if (st.other_point)
        snprintf(why, sizeof why, "; %u of the stale ones, taken at cfg as the plan says, match this build's CFG "
                 "after the early inliner: the plan was written for a count-at=late build before feedback "
                 "format 3 (run `pmopt plan` again)", st.other_point);
    if (st.stale_late)
        snprintf(why + strlen(why), sizeof why - strlen(why),
                 "; %u of the stale ones were taken after the early inliner (count-at=late): %s",
                 st.stale_late, pi_opt.all_count && !pi_opt.count_late
                                    ? "this build counts before it (count-at=cfg), which changes what it "
                                      "inlines (count with count-at=late)"
                                    : "this build inlined differently before that point (another -O level "
                                      "or inline parameters) or the function changed");
    /* (the plan has the file under the key of another build directory) */
    char under[300] = "";
    if (const char *other = pi_feedback_other_key())
        snprintf(under, sizeof under, " (in the plan: %s, compiled from another directory)", other);
    if (most)
        inform(UNKNOWN_LOCATION, "perfinst: %s: %u function profiles matched, %u stale, %u malformed in %s%s "
               "(%s of the profile%'s block executions matched)%s", pi_feedback_path(), st.matched, st.stale,
               st.malformed, src, under, pct, why);
    else
        warning_at(UNKNOWN_LOCATION, OPT_Wmissing_profile, "perfinst: %s: %u function profiles matched, %u stale, %u malformed in %s%s (%s of the "
                "profile%'s block executions matched): the rebuild applies less than half of the profile%s",
                pi_feedback_path(), st.matched, st.stale, st.malformed, src, under, pct, why);
}

static bool feedback_gate(function *fun) { return fun && pi_feedback_on(fun->decl) && !seen_error(); }
PI_GIMPLE_PASS(feedback, PROP_cfg)

/* Before expansion: the function-tier again (IPA may have recomputed the
 * node's frequency from its callers). */
static bool tier_gate(function *fun) { return feedback_gate(fun); }
static unsigned int tier_execute(function *fun)
{
    set_tier(fun, false);
    return 0;
}
PI_GIMPLE_PASS(tier, PROP_cfg)

/* E's count says nothing of whether its block ran: an abnormal or EH
 * edge, or a share GCC guessed or adjusted that is not a never. */
static bool count_says_nothing(edge e)
{
    return (e->flags & (EDGE_ABNORMAL | EDGE_EH)) ||
           (e->probability.quality() != PRECISE && e->probability.initialized_p() &&
            e->probability > profile_probability::never());
}

/* The applied counts kept consistent to the end of GIMPLE.  GCC's passes
 * carry the counts along as they change the CFG, but not everywhere: GCC
 * 12's cd-dce (make_forwarders_with_degenerate_phis) makes a forwarder for
 * the edges that give a PHI the same arguments by splitting the first of
 * them and redirecting the others to it, and the forwarder keeps the count
 * of the edge it split.  When that edge never ran and another did, a block
 * on the path of every run has a precise zero count:
 *
 *     if (flags & 4) { ... }          bb 46 [55] -> forwarder [0, precise] <- bb 62 [0]
 *     g (w, a);   (the join)          join [55]: its PHI's other argument
 *
 * and RTL expansion gives every block it makes after it its incoming
 * edges' counts: the forwarder's zero flows to the return, and the split
 * sends the function's hot tail to its cold part (SQLite's
 * sqlite3WhereBegin: a hot part of 896 bytes, 90 of the lines that ran in
 * the cold one; 150 blocks of 79 of sqlite3.c's functions).
 *
 * A block ran when an edge with a count enters it from a block that ran,
 * the entry's first; a block whose count is zero and which such an edge
 * with a precise probability (the profile's, or the one way out of a
 * block) enters gets the sum of those edges' counts, in reverse post-order
 * until nothing changes (a repaired block's edges carry its count on).
 * An edge whose probability GCC guessed or adjusted gives no count: a
 * switch's edges to the cases that never ran may hold a share each
 * (tests/layout/dispatch.c), and those stay cold.
 * feedback-repair=converse also takes the zeros GCC left on edges for
 * what they are not: an abnormal or EH edge, or a share GCC guessed if
 * not a never, enters a block that has a count, and any edge a block
 * without one (the share's own count rounds to 0 on a switch that
 * ran twice: SQLite's sqlite3Pragma, whose cases that ran would be given
 * a zero below).
 *
 * The converse (feedback-repair=converse), backwards in post-order until
 * nothing changes: a block
 * that has a count, that no block that ran enters, and whose every way
 * out leads to a zero did not run, and is given a zero (Lua's
 * luaV_objlen: switch lowering left the tests of the types training
 * never saw the count of the whole switch, behind a guessed never; the
 * cases they lead to have their zeros).  Both conditions: without the
 * second, SQLite's sqlite3VdbeSerialGet lost its switch's default case
 * (run 60,251 times in training, behind edges GCC left no count) to the
 * cold part.  Not in a function whose entry has no count.
 *
 * Run right before expansion and again before the split (pass-coldsplit.cc:
 * RTL's own changes), WHEN naming which in the verbose note ("profile",
 * "split"); nothing with feedback-repair=no. */
void pi_feedback_repair_counts(function *fun, const char *when)
{
    if (pi_opt.feedback_repair == PI_REPAIR_NO)
        return;
    bool converse = pi_opt.feedback_repair == PI_REPAIR_CONVERSE;
    int *rpo = XNEWVEC(int, n_basic_blocks_for_fn(fun));
    int n = pre_and_rev_post_order_compute_fn(fun, NULL, rpo, false);
    auto_sbitmap ran(last_basic_block_for_fn(fun));
    bitmap_clear(ran);
    bitmap_set_bit(ran, ENTRY_BLOCK);
    unsigned fixed = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            basic_block bb = BASIC_BLOCK_FOR_FN(fun, rpo[i]);
            if (bitmap_bit_p(ran, bb->index))
                continue;
            bool known = bb->count.initialized_p();
            if (!known && !converse)
                continue;
            bool reached = false;
            profile_count sum = profile_count::zero();
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, bb->preds) {
                if (!bitmap_bit_p(ran, e->src->index))
                    continue;
                profile_count c = e->count();
                /* converse: a block without a count, or the count of an
                   abnormal or EH edge or of a share GCC guessed (which
                   rounds to 0 on a block that ran a few times), says
                   nothing: it enters a block with a count */
                if (converse && (!known || (bb->count.to_gcov_type() > 0 && count_says_nothing(e)))) {
                    reached = true;
                    continue;
                }
                if (!c.initialized_p() || c.to_gcov_type() <= 0)
                    continue;
                reached = true;
                if (e->probability.quality() == PRECISE)
                    sum += c;
            }
            if (!reached)
                continue;
            if (known && bb->count.to_gcov_type() == 0) {
                if (sum.to_gcov_type() <= 0) /* (sum: zero plus initialized counts) */
                    continue;
                bb->count = sum;
                fixed++;
            }
            bitmap_set_bit(ran, bb->index);
            changed = true;
        }
    }
    /* the converse, backwards: a block with a count that no block that
       ran enters, and whose every way out leads to a zero */
    unsigned cleared = 0;
    profile_count entry = ENTRY_BLOCK_PTR_FOR_FN(fun)->count;
    if (converse && entry.initialized_p() && entry.to_gcov_type() > 0)
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = n - 1; i >= 0; i--) {
                basic_block bb = BASIC_BLOCK_FOR_FN(fun, rpo[i]);
                if (bitmap_bit_p(ran, bb->index) || !bb->count.initialized_p() || bb->count.to_gcov_type() <= 0 ||
                    EDGE_COUNT(bb->succs) == 0)
                    continue;
                bool out = false;
                edge e;
                edge_iterator ei;
                FOR_EACH_EDGE(e, ei, bb->succs)
                    if (e->dest == EXIT_BLOCK_PTR_FOR_FN(fun) || !e->dest->count.initialized_p() ||
                        e->dest->count.to_gcov_type() != 0)
                        out = true;
                if (out)
                    continue;
                bb->count = profile_count::zero();
                cleared++;
                changed = true;
            }
        }
    XDELETEVEC(rpo);
    if ((fixed || cleared) && pi_opt.verbose)
        inform(DECL_SOURCE_LOCATION(fun->decl),
               "perfinst: %s of %qs: %u blocks with a zero count that a block that ran enters "
               "given the counts of their incoming edges, %u blocks with a count that none enters "
               "given a zero", when, IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), fixed, cleared);
}

static bool fbrepair_gate(function *fun)
{
    return feedback_gate(fun) && optimize > 0 && pi_feedback_applied(fun->decl);
}
static unsigned int fbrepair_execute(function *fun)
{
    pi_feedback_repair_counts(fun, "profile");
    return 0;
}
PI_GIMPLE_PASS(fbrepair, PROP_cfg)

/* Right before final (final picks the section when it starts the
 * function): the cold tier's functions go to .text.unlikely.NAME, after
 * being compiled as any other; the ordered ones to .text.sorted.RANK.NAME. */
static bool tier_late_gate(function *fun) { return feedback_gate(fun); }
static unsigned int tier_late_execute(function *fun)
{
    /* cold-inline=o2 gave it -O2's frequency for its code, not for its
       place: it stays with the cold code, where GCC put it unlikely */
    restore_align();
    if (restored && restored->contains(fun->decl)) {
        set_cold_section(fun->decl);
        return 0;
    }
    if (!set_tier(fun, true))
        set_order_section(fun);
    return 0;
}
PI_RTL_PASS(tier_late)

/* feedback-quality=ipa: right after "profile_estimate" (which skipped the
 * function: PROFILE_GUESSED), a function whose profile was applied becomes
 * PROFILE_READ, as a function whose .gcda counts were read is, and gets
 * its node frequency from its counts (compute_function_frequency, as
 * branch_prob does after reading).  Why not GUESSED throughout: GCC judges
 * a count "probably never executed" by the node's frequency unless the
 * function is PROFILE_READ, and compute_function_frequency itself starts
 * from "unlikely executed", so every function that is not hot would be
 * compiled for size into .text.unlikely.  A function-tier then overrides
 * the frequency, as before. */
static bool applied_exactly(tree decl)
{
    return applied && applied->contains(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)));
}

static bool fbread_gate(function *fun) { return ipa_state > 0 && !seen_error(); }
static unsigned int fbread_execute(function *fun)
{
    if (fun != cfun || !applied_exactly(fun->decl) || profile_status_for_fn(fun) != PROFILE_GUESSED ||
        !ENTRY_BLOCK_PTR_FOR_FN(fun)->count.ipa_p() || !cgraph_node::get(fun->decl))
        return 0;
    profile_status_for_fn(fun) = PROFILE_READ;
    compute_function_frequency();
    set_tier(fun, false);
    return 0;
}
PI_GIMPLE_PASS(fbread, PROP_cfg)

/* inline-counts=keep (docs/layout.md, "Counts through the inliner"): a
 * function whose profile was applied (local quality: PROFILE_GUESSED)
 * keeps its counts through the inline transform.  After inlining into a
 * function, GCC rebuilds its counts (TODO_rebuild_frequencies): a
 * PROFILE_GUESSED function's from its edge probabilities
 * (estimate_bb_frequencies), which caps each loop at
 * max-predicted-iterations and so scales an inlined loop that ran 256
 * times a call to 100, and a loop nested in it further down (zstd's
 * HUF_buildTree inlined as a function called once: blocks that ran
 * 49,000 times given 6, the blocks after them 0, and the split sends them
 * to the cold part).  A PROFILE_READ function's counts are kept as the
 * inliner scaled them.  So each such function is PROFILE_READ from right
 * after "inline" (an IPA pass: every function's transform comes later,
 * when its body is compiled) until the first GIMPLE pass after IPA, and
 * PROFILE_GUESSED again from there on, as before.  GCC rebuilds a
 * PROFILE_READ function's counts too when its largest count is below
 * REG_BR_PROB_BASE / 10 (1,000 runs): those are estimated as before. */
static hash_set<tree> *kept_read;

static bool inlkeep_gate(function *)
{
    return pi_opt.inline_counts_keep && pi_feedback_path() && !seen_error() && ipa_state <= 0 && applied;
}
static unsigned int inlkeep_execute(function *)
{
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        function *f = DECL_STRUCT_FUNCTION(node->decl);
        if (!f || !f->cfg || profile_status_for_fn(f) != PROFILE_GUESSED ||
            !(applied_exactly(node->decl) || applied_exactly(origin_node(node)->decl)))
            continue;
        if (!kept_read) {
            kept_read = new hash_set<tree>;
            pi_gc_root_set(&kept_read);
        }
        kept_read->add(node->decl);
        profile_status_for_fn(f) = PROFILE_READ;
    }
    return 0;
}
PI_IPA_PASS(inlkeep)

static bool inlkeep_restore_gate(function *) { return kept_read != NULL; }
static unsigned int inlkeep_restore_execute(function *fun)
{
    if (kept_read->contains(fun->decl) && profile_status_for_fn(fun) == PROFILE_READ)
        profile_status_for_fn(fun) = PROFILE_GUESSED;
    return 0;
}
PI_GIMPLE_PASS(inlkeep_restore, PROP_cfg)

/* feedback-quality=ipa: GCC's inliner asserts that IPA-quality counts come
 * from a read profile: in inline_small_functions, outside LTO, any call
 * count above zero requires profile_info && flag_branch_probabilities.
 * The flag is set here, in the global options only (each function's
 * optimization node keeps it off, so opt_for_fn checks see no gcda
 * profile), after the small IPA pass "profile" (tree_profiling, which the
 * flag would make read .gcda files: it ran, gated off, before this) and
 * again right before "inline" (a function with its own optimize attribute
 * restores the global options from its node when it becomes cfun).
 * From here on GCC's global-flag checks take the read-profile path: the
 * feedback thresholds of the tracer and of bb-reorder's traces. */
static bool fbglobal_gate(function *fun) { return ipa_state > 0 && !seen_error(); }
static unsigned int fbglobal_execute(function *fun)
{
    if (profile_info == &fb_summary)
        flag_branch_probabilities = 1;
    return 0;
}
PI_SIMPLE_IPA_PASS(fbglobal)

/* the same before "inline", among the regular IPA passes (an IPA_PASS:
   GCC inserts a pass only next to one of its own type) */
static bool fbglobal_ipa_gate(function *fun) { return fbglobal_gate(fun); }
static unsigned int fbglobal_ipa_execute(function *fun) { return fbglobal_execute(fun); }
PI_IPA_PASS(fbglobal_ipa)

/* ---- -flto: the rebuild's decisions carried to lto1 -----------------------
 *
 * With -flto, cc1 applies the profile (its passes above run before the
 * unit is streamed: the counts travel in the object with the GIMPLE), but
 * the code is generated in lto1, where each function's unit, its source key
 * and the names the feedback matched are gone, and where the layout
 * arguments given to the compile are not seen (GCC passes lto1 the link's
 * options).  So fblto, right before the unit is streamed, gives every
 * function of a unit compiled with a feedback file the attribute
 *
 *     "perfinst feedback" ("FACTS OPTIONS")
 *
 * (a name with a space: no program can write it) holding what the passes
 * after IPA ask of the feedback — a branch profile applied, the tier, the
 * rank in the plan's order, the hot tier — and the compile's layout
 * arguments.  LTO streams a declaration's attributes, and a clone lto1
 * makes (F.constprop.N) copies its origin's, as pi_feedback_applied and a
 * clone's tier and rank look to the origin.  In lto1 these passes read the
 * attribute of the function being compiled and nothing else: the feedback
 * file, given at the link or not, decides nothing there.  What runs in
 * lto1's IPA (cold-inline=o2, inline-counts=keep) is not carried: it
 * works on records of cc1's call statements. */
static const char lto_attr[] = "perfinst feedback";

/* the layout arguments the passes after IPA read, in this order */
#define LTO_OPTS(X)                                                                            \
    X(block_order) X(split) X(split_min) X(dispatch) X(cold_tier) X(clone_order_own)           \
    X(function_order_none) X(cold_parts) X(feedback_repair) X(pad) X(order_align)

/* DECL's facts (and the layout arguments its unit was compiled with, set in
 * pi_opt for the function being compiled), or NULL when its unit had no
 * feedback file or the attribute is not one this plugin wrote */
static const struct lto_facts *lto_facts_of(tree decl)
{
    static struct lto_facts f;
    tree a = decl ? lookup_attribute(lto_attr, DECL_ATTRIBUTES(decl)) : NULL_TREE;
    if (!a || !TREE_VALUE(a) || TREE_CODE(TREE_VALUE(TREE_VALUE(a))) != STRING_CST)
        return NULL;
    const char *s = TREE_STRING_POINTER(TREE_VALUE(TREE_VALUE(a)));
    int applied, tier, hot, n;
    unsigned rank;
    double warm;
    if (sscanf(s, "1 %d %d %u %d %lf%n", &applied, &tier, &rank, &hot, &warm, &n) != 5)
        return NULL;
    s += n;
    long v[16];
    unsigned k = 0;
    while (k < 16 && *s == ' ') {
        char *e;
        v[k++] = strtol(s + 1, &e, 10);
        s = e;
    }
#define LTO_COUNT(F) +1
    if (*s || k != 0 LTO_OPTS(LTO_COUNT))
        return NULL;
    k = 0;
#define LTO_SET(F) pi_opt.F = (__typeof__(pi_opt.F))v[k++];
    LTO_OPTS(LTO_SET)
    pi_opt.warm_pct = warm;
    f.applied = applied != 0;
    f.tier = tier;
    f.rank = rank;
    f.hot = hot != 0;
    return &f;
}

/* Does DECL's unit have a feedback file: in cc1 this compile's, in lto1
 * the attribute cc1 left (and its layout arguments are then pi_opt's) */
bool pi_feedback_on(tree decl)
{
    return in_lto_p ? lto_facts_of(decl) != NULL : pi_feedback_path() != NULL;
}

static bool fblto_gate(function *)
{
    /* (-flto gives flag_lto "", -flto=auto "auto") */
    return pi_feedback_path() && flag_lto && !in_lto_p && !seen_error();
}

static unsigned int fblto_execute(function *)
{
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    {
        tree decl = node->decl;
        if (!gimple_has_body_p(decl) || (node->clone_of && decl == node->clone_of->decl) ||
            lookup_attribute(lto_attr, DECL_ATTRIBUTES(decl)))
            continue;
        const char *fn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
        std::string s = "1 " + std::to_string(pi_feedback_applied(decl)) + " " +
                        std::to_string(tier_in_feedback(fn, false)) + " " + std::to_string(order_rank(fn)) +
                        " " + std::to_string(pi_feedback_hot_tier(decl));
        char warm[64];
        snprintf(warm, sizeof warm, " %.17g", pi_opt.warm_pct);
        s += warm;
#define LTO_PUT(F) s += " " + std::to_string((long)pi_opt.F);
        LTO_OPTS(LTO_PUT)
        tree str = build_string((int)s.size() + 1, s.c_str());
        DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(lto_attr), build_tree_list(NULL_TREE, str),
                                          DECL_ATTRIBUTES(decl));
    }
    return 0;
}
PI_SIMPLE_IPA_PASS(fblto)
