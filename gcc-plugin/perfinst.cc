/* perfinst.cc — plugin_init: version check, arguments, registrations.
 *
 *   gcc -fplugin=perfinst.so [-fplugin-arg-perfinst-KEY=VALUE ...] -c x.c
 *
 * Keys (an unknown key or a bad value is an error):
 *   all=count            instrument every function as if marked `count`
 *   all=sample           every function as if marked `sample(every=1000)` (pass-ri.cc)
 *   sharing=all|marked   which accesses the sharing detector instruments
 *   feedback=FILE        apply a `pmopt plan` feedback file
 *   feedback-only=LIST   apply only these recommendations (e.g. 1,3,5-7)
 *   prefix-map=OLD=NEW   spell paths under OLD as under NEW in the unit's keys (paths.cc)
 *   record-link          (accepted; the link recipe is recorded by perfinst-ld)
 *   verbose              a note per unit with its sizes
 *   combine=marked|all   function probes that counter combinations can name
 *   counter-width=N      narrow counters (8, 16, 32; 64 is the default)
 *   sections             -ffunction-sections -fdata-sections (for pmopt relink)
 *   block-order=exttsp|gcc  with feedback: Ext-TSP block order after bbro (default) or bbro's
 *   split=2|3|gcc        with feedback: every never-run block cold (2), warm blocks
 *                        too (3, default), or GCC's partitioning alone (pass-coldsplit.cc)
 *   warm=PCT             split=3: warm = ran less than PCT % of the entry count (default 1)
 *   split-min=N          a function whose cold part would hold fewer than N instructions stays whole
 *   feedback-counts=runs|fine  with feedback: local counts as runs (default) or x1024, so that
 *                        GCC's derived counts keep fractions of a run (pass-feedback.cc)
 *   inline-counts=estimate|keep  with feedback: after the IPA inliner, GCC's estimate of a profiled
 *                        function's counts (default) or the profile's as inlined (pass-feedback.cc)
 *   feedback-repair=yes|converse|no  with feedback: a block that ran and that GCC's passes left a
 *                        zero count gets its incoming edges' count back (default yes); converse: and
 *                        a block left a count no block that ran brings gets a zero (pass-feedback.cc)
 *   dispatch=split|whole|small  with feedback: a dispatch loop (an interpreter's) split as
 *                        any function, kept whole, or kept whole when small (default) (pass-coldsplit.cc)
 *   sharing-coalesce=yes|no  one check per line for a block's accesses through one base (default yes)
 *   sharing-footprint=inline|call  a line's first accesses recorded by the inlined check (default) or by a call
 *   sharing-locals=escaped|addressable  which locals' accesses are checked (default escaped)
 *   bare-return=yes|no   the return block left bare so ipa-split can split counted functions (default no)
 *   switch-again=yes|no  if-to-switch and switch conversion again on split functions (default no)
 *   entry=test|jump      how a split function chooses its copy: a test of its switch byte
 *                        (default) or an indirect jump through its jump slot (fewer
 *                        instructions, more CPU time on SQLite; the byte test where the
 *                        jump cannot go: -flto, -fcf-protection=branch, retpolines,
 *                        -masm=intel) (pass-split.cc, docs/indicators.md)
 *   feedback-quality=local|ipa  with feedback: the profile's counts as GCC's local guesses
 *                        (default) or as a read profile that IPA compares across functions
 *                        (pass-feedback.cc, docs/layout.md "Profile quality")
 *   counting=inline|function  where a split function's counting copy lives: in the
 *                        function, after the dispatch, or in a function of its own,
 *                        f.count.N, entered by a sibling call (default; pass-countfn.cc)
 *   counting-opt=full|fast|lean  counting=function: f.count.N optimised as its function,
 *                        or without GCC's costliest optional passes (RTL GCSE,
 *                        the CSE rerun, the second scheduling pass) and with its
 *                        counter updates as one asm instruction each (copies.cc,
 *                        pi_counters_as_asm): a cheaper compile (default;
 *                        pass-countfn.cc, docs/design.md "Cost"); lean: that at
 *                        -O1 (with -fstrict-aliasing), cheaper still
 *   cold-tier=place|size|keep  with feedback: a function that never ran goes to
 *                        .text.unlikely compiled as any other (default), or also compiled
 *                        for size, or stays where -O2 puts it (pass-feedback.cc,
 *                        docs/layout.md "Tiers")
 *   clone-tier=own|base  with feedback: a clone GCC made of F (F.constprop.N, F.isra.N,
 *                        F.part.N) that the feedback does not name keeps its own section
 *                        (default), or gets F's cold tier (pass-feedback.cc, docs/layout.md
 *                        "Clones of the cold tier")
 *   clone-order=own|base  with feedback: a function the order does not name keeps its own
 *                        section, or takes the rank of F for a clone F.part.N (F.isra.N,
 *                        ...), else of a clone of the same origin that the order names
 *                        (default) (pass-feedback.cc, docs/layout.md "Function order in the rebuild")
 *   function-order=plan|none  with feedback: the plan's order-functions as
 *                        .text.sorted.RANK.NAME sections, which GNU ld sorts (default),
 *                        or left to pmopt relink (pass-feedback.cc, docs/layout.md
 *                        "Function order in the rebuild")
 *   cold-parts=link|sorted|beside  with feedback: the cold part of a function of the
 *                        plan's order in .text.unlikely.NAME (GNU ld: the objects' order,
 *                        before the hot code), after every ordered function in the plan's
 *                        order, or right after its function (pass-feedback.cc,
 *                        docs/layout.md "Cold parts in the rebuild")
 *   pad=gcc|none|hot     with feedback: GCC's alignment padding before loops and jump
 *                        targets (default), none (-fno-align-loops -fno-align-jumps
 *                        -fno-align-labels: the hot code in fewer lines, as BOLT strips
 *                        nops), or GCC's in the functions of the hot tier alone
 *                        (pass-pad.cc; docs/layout.md "Padding")
 *   order-align=gcc|bolt|none  with feedback: a function of the plan's order (in
 *                        .text.sorted) is aligned by -falign-functions (default), or
 *                        compiled without it and aligned to 64 bytes by perfinst's link
 *                        stage where that costs at most 32 bytes of padding, as BOLT
 *                        aligns its hot functions (bolt), or packed (none)
 *                        (pass-feedback.cc, linker/falign.c, docs/layout.md
 *                        "Function alignment")
 *   counters=arcs|blocks  where a function counted whole keeps its counters: on the
 *                        arcs off a spanning tree of its flow graph, the rest solved
 *                        by the readers (default; arcs.cc), or one per block, as
 *                        statement regions have them
 *   count-at=cfg|late    where all=count's count pass runs: right after cfg, before
 *                        the early inliner, or after the early inliner and optimisations,
 *                        where -fprofile-generate instruments (default; pass-count.cc;
 *                        functions marked one by one stay at cfg)
 *   clean-copies=all|loops|none|late|final  which counting functions are compiled twice, a clean
 *                        copy for the off mode and a counting copy: every one,
 *                        those with a loop, or none; the others keep one body that counts
 *                        whatever the mode, compiled once (copies.cc, pi_single_body;
 *                        docs/design.md "Cost"); late: every one, but the two copies share
 *                        the GIMPLE passes and are split before expansion (pass-countfn.cc);
 *                        final (default): as late, but the clean copy is the counting
 *                        copy's final assembly less its counter updates (finalcopy.cc)
 *   loop-counters=register|memory  in a counting copy f.count.N, the counters of a loop
 *                        with a call counted in registers and added to memory at its exits
 *                        and before its calls (copies.cc, pi_promote_loop_counters), or
 *                        updated in memory at every iteration (default)
 *   callfree-counters=delta|gcc  in a counting copy, the counters of an innermost loop
 *                        with no call (the outermost call-free loop, or inside a loop
 *                        that calls) updated on some iterations only, in registers, their
 *                        increments added to memory at its exits (copies.cc,
 *                        pi_promote_loop_counters; default), or left to GCC's store
 *                        motion, which keeps a flag per such counter, tested at each exit
 *   counter-address=base|absolute  in an executable, a function's counter updates
 *                        through one register holding its counters' offset from %fs:0
 *                        plus a bias, `addq $1, %fs:d8(%reg)` (6 bytes; pass-tls.cc),
 *                        or at their absolute offset (10 bytes, no register; default)
 *   counter-order=hot|site  count-at=late: a function's counters numbered by the
 *                        estimated frequency of their blocks, hottest first, so that the
 *                        hot ones share cache lines (default), or in site order (ctr-order.cc)
 *   entry-branch=direct|tail  a clean copy's entry test branches straight to its counting
 *                        copy (`jne f.count.0`, default) or to GCC's tail `jmp f.count.0` at
 *                        the function's end (pass-tailjump.cc)
 *   copy-calls=direct|entry  a counting copy's direct calls enter the callee's counting copy
 *                        g.count.N, which opens with its own switch test that falls through
 *                        (default), or enter g (pass-tailjump.cc)
 *   bare-markers=drop|keep  a counting copy's blocks that hold only site markers lose them
 *                        before jump2, so that their jumps are forwarded (default), or keep
 *                        them (pass-countfn.cc)
 *   counter-tree=estimate|guess  count-at=late: the arcs' spanning tree (which arcs get
 *                        counters) weighted by GCC's estimated profile (default), or by
 *                        arcs.cc's static guess (count-at=cfg's only choice; arcs.cc)
 *   help                 print this list
 *
 * Pragmas and the attribute are registered whatever the arguments, so that
 * marked sources always compile; with -flto the plugin is also loaded into
 * lto1, where there is no C front end, so only the passes are registered.
 */
#include "plugin.h"
#include "plugin-version.h"

int plugin_is_GPL_compatible;

struct pi_options pi_opt = {false, 1, NULL, false, false, false};

static struct plugin_info info = {
    PERFINST_VERSION,
    "perfinst: performance instrumentation directives (#pragma perfinst, "
    "__attribute__((perfinst(...)))).\n"
    "  -fplugin-arg-perfinst-all=count        instrument every function\n"
    "  -fplugin-arg-perfinst-all=sample       sample units in every function\n"
    "  -fplugin-arg-perfinst-sharing=all|marked\n"
    "  -fplugin-arg-perfinst-feedback=FILE    apply a pmopt plan\n"
    "  -fplugin-arg-perfinst-feedback-only=LIST   only these recommendations (1,3,5-7)\n"
    "  -fplugin-arg-perfinst-prefix-map=OLD=NEW   keys of files under OLD as if under NEW\n"
    "  -fplugin-arg-perfinst-record-link\n"
    "  -fplugin-arg-perfinst-verbose\n"
    "  -fplugin-arg-perfinst-combine=marked|all  probes for PERFINST_COMBINE\n"
    "  -fplugin-arg-perfinst-counter-width=8|16|32|64  narrow counters that spill\n"
    "  -fplugin-arg-perfinst-sections         -ffunction-sections -fdata-sections\n"
    "  -fplugin-arg-perfinst-block-order=exttsp|gcc  block order of profiled functions\n"
    "  -fplugin-arg-perfinst-split=2|3|gcc    hot/cold split of profiled functions\n"
    "  -fplugin-arg-perfinst-warm=PCT         split=3: warm below PCT % of the entry count\n"
    "  -fplugin-arg-perfinst-split-min=N      kept whole when the cold part would be under N insns\n"
    "  -fplugin-arg-perfinst-feedback-counts=runs|fine  profile counts as runs (default) or x1024\n"
    "  -fplugin-arg-perfinst-inline-counts=estimate|keep  after inlining: GCC's estimate or the profile's counts\n"
    "  -fplugin-arg-perfinst-feedback-repair=yes|converse|no  give a block that ran the count GCC lost\n"
    "                       (default yes); converse: and a zero to a block that did not run\n"
    "  -fplugin-arg-perfinst-dispatch=split|whole|small  a dispatch loop split, kept whole, or kept whole\n"
    "                       when small (about 16 KiB at most; the default)\n"
    "  -fplugin-arg-perfinst-sharing-coalesce=yes|no  one sharing check per line and block (default yes)\n"
    "  -fplugin-arg-perfinst-sharing-footprint=inline|call  a line's first accesses recorded by the inlined\n"
    "                            check (default) or by a runtime call each\n"
    "  -fplugin-arg-perfinst-sharing-locals=escaped|addressable  check accesses to locals whose address\n"
    "                            escaped (GCC's points-to sets; default), or to every addressable one\n"
    "  -fplugin-arg-perfinst-bare-return=yes|no  return blocks left bare for ipa-split (default no)\n"
    "  -fplugin-arg-perfinst-switch-again=yes|no  switch passes again after the split (default no)\n"
    "  -fplugin-arg-perfinst-feedback-quality=local|ipa  feedback counts as local guesses (default)\n"
    "                            or as an IPA-quality profile (a read profile's counts)\n"
    "  -fplugin-arg-perfinst-entry=test|jump  split functions' entry: switch test (default) or jump slot\n"
    "  -fplugin-arg-perfinst-counting=inline|function  counting copy in the function or its own (default)\n"
    "  -fplugin-arg-perfinst-counting-opt=full|fast|lean  counting copies with all of -O's passes,\n"
    "                            or without RTL GCSE, tree PRE, the CSE rerun and sched2, counter\n"
    "                            updates as one asm instruction each (default), or that at -O1\n"
    "  -fplugin-arg-perfinst-cold-tier=place|size|keep  never-run functions: to .text.unlikely\n"
    "                            (default), or also compiled for size, or left where -O2 puts them\n"
    "  -fplugin-arg-perfinst-clone-tier=own|base  a clone of a never-run function that the feedback\n"
    "                            does not name: where GCC puts it (default), or with the cold tier\n"
    "  -fplugin-arg-perfinst-clone-order=own|base  a function the order does not name: where GCC\n"
    "                            puts it, or the rank of its origin or of a clone of it (default)\n"
    "  -fplugin-arg-perfinst-function-order=plan|none  the plan's function order in the rebuild\n"
    "                            (.text.sorted.RANK.NAME, default) or only by pmopt relink\n"
    "  -fplugin-arg-perfinst-cold-parts=link|sorted|beside  cold parts of ordered functions: in\n"
    "                            .text.unlikely, after the ordered functions, or beside each\n"
    "  -fplugin-arg-perfinst-pad=gcc|none     with feedback: GCC's alignment padding inside\n"
    "                            functions (default) or none\n"
    "  -fplugin-arg-perfinst-order-align=gcc|bolt|none  with feedback: the ordered functions aligned\n"
    "                            by -falign-functions (default), or each to 64 bytes where that\n"
    "                            costs at most 32 (perfinst's link stage), or packed\n"
    "  -fplugin-arg-perfinst-counters=arcs|blocks  counters on the arcs off a spanning tree (default)\n"
    "                            or one per block\n"
    "  -fplugin-arg-perfinst-count-at=cfg|late  all=count's counters placed before the early inliner\n"
    "                            or after it, where -fprofile-generate places its own (default)\n"
    "  -fplugin-arg-perfinst-clean-copies=all|loops|none|late|final  which counting functions get a\n"
    "                            clean copy for the off mode: all, each compiled on its own; those\n"
    "                            with a loop, none (the others count in place whatever the mode: a\n"
    "                            cheaper compile); or all, split from one optimised body just before\n"
    "                            expansion (late) or made from the counting copy's assembly, less its\n"
    "                            counters (final, the default: one compile for both)\n"
    "  -fplugin-arg-perfinst-loop-counters=register|memory  a counting copy's loop counts in\n"
    "                            registers, added to memory at its exits and calls, or in\n"
    "                            memory at every iteration (default)\n"
    "  -fplugin-arg-perfinst-callfree-counters=delta|gcc  a counting copy's innermost loop with no\n"
    "                            call counts into registers, added to memory at its exits\n"
    "                            (delta, the default), or is left to GCC's store motion (gcc)\n"
    "  -fplugin-arg-perfinst-counter-address=base|absolute  an executable's counter updates through\n"
    "                            a register holding the function's counters' offset, or at their\n"
    "                            absolute offsets from the thread pointer (10 bytes each; default)\n"
    "  -fplugin-arg-perfinst-counter-order=hot|site  a function's counters numbered hottest first by\n"
    "                            GCC's estimated profile, so that hot counters share cache lines\n"
    "                            (default), or in the order of its sites\n"
    "  -fplugin-arg-perfinst-entry-branch=direct|tail  a clean copy's entry test branches straight to\n"
    "                            its counting copy (default), or to a tail jump at the function's end\n"
    "  -fplugin-arg-perfinst-copy-calls=direct|entry  a counting copy's direct calls enter the callee's\n"
    "                            counting copy at its own switch test (default), or at the callee\n"
    "  -fplugin-arg-perfinst-bare-markers=drop|keep  a counting copy's blocks that hold only site markers\n"
    "                            lose them, so that jumps into them go straight on (default), or keep them\n"
    "  -fplugin-arg-perfinst-counter-tree=estimate|guess  the arcs that get counters: off a spanning tree\n"
    "                            weighted by GCC's estimated profile (default), or by a static guess\n",
};

static const char *feedback_only;
static const char *plugin_name = "perfinst"; /* the .so's base name: -fplugin-arg-NAME-... */

/* ARG (of -fplugin-arg-) is this plugin's: "perfinst-KEY[=VALUE]" */
bool pi_plugin_arg_is_ours(const char *arg)
{
    size_t n = strlen(plugin_name);
    return strncmp(arg, plugin_name, n) == 0 && arg[n] == '-';
}

/* ARG, an -fplugin-arg-NAME-KEY[=VALUE] of cc1's command line without its
 * "-fplugin-arg-": true for one of this plugin's keys that names a file or
 * changes no code (feedback=, prefix-map=, verbose, help), which the unit's
 * identity leaves out (unit.cc). */
bool pi_plugin_arg_is_local(const char *arg)
{
    if (!pi_plugin_arg_is_ours(arg))
        return false;
    static const char *const local[] = {"feedback", "prefix-map", "verbose", "help"};
    const char *key = arg + strlen(plugin_name) + 1;
    size_t klen = strcspn(key, "=");
    for (size_t i = 0; i < sizeof local / sizeof local[0]; i++)
        if (strlen(local[i]) == klen && strncmp(key, local[i], klen) == 0)
            return true;
    return false;
}

/* V is one of WORDS (NULL-terminated, in the order the message names
 * them): returns its position; else says "expected ‹a›, ‹b› or ‹c›" for
 * -fplugin-arg-perfinst-K=V and returns -1.  (The message's format is
 * made here, each word quoted as %<...%>: the words hold no '%'.) */
static int one_of(const char *k, const char *v, const char *const *words)
{
    int n = 0;
    for (; words[n]; n++)
        if (v && strcmp(v, words[n]) == 0)
            return n;
    char fmt[512];
    size_t at = (size_t)snprintf(fmt, sizeof fmt, "perfinst: %%<-fplugin-arg-perfinst-%%s=%%s%%>: expected ");
    for (int i = 0; i < n && at < sizeof fmt; i++)
        at += (size_t)snprintf(fmt + at, sizeof fmt - at, "%s%%<%s%%>", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                               words[i]);
    error(fmt, k, v ? v : "");
    return -1;
}

/* The arguments whose value is one of a few words, each word setting one
 * field of pi_opt: an int (IVAL) or a bool (BVAL) to the word's VALUES
 * entry.  The words in the order the error message names them. */
struct word_arg {
    const char *key;
    const char *const words[6];
    int values[5];
    int *ival;
    bool *bval;
};
static const struct word_arg word_args[] = {
    {"sharing", {"all", "marked"}, {2, 1}, &pi_opt.sharing, NULL},
    {"combine", {"marked", "all"}, {1, 2}, &pi_opt.combine, NULL},
    {"block-order", {"exttsp", "gcc"}, {0, 1}, &pi_opt.block_order, NULL},
    {"split", {"2", "3", "gcc"}, {2, 3, 1}, &pi_opt.split, NULL},
    {"dispatch", {"split", "whole", "small"}, {PI_DISPATCH_SPLIT, PI_DISPATCH_WHOLE, PI_DISPATCH_SMALL}, &pi_opt.dispatch, NULL},
    {"sharing-coalesce", {"yes", "no"}, {0, 1}, NULL, &pi_opt.sharing_no_coalesce},
    {"sharing-footprint", {"inline", "call"}, {0, 1}, NULL, &pi_opt.sharing_fp_call},
    {"sharing-locals", {"escaped", "addressable"}, {0, 1}, NULL, &pi_opt.sharing_all_locals},
    {"bare-return", {"yes", "no"}, {1, 0}, NULL, &pi_opt.bare_return},
    {"switch-again", {"yes", "no"}, {1, 0}, NULL, &pi_opt.switch_again},
    {"entry", {"jump", "test"}, {1, 0}, NULL, &pi_opt.entry_jump},
    {"feedback-quality", {"local", "ipa"}, {0, 1}, &pi_opt.feedback_quality, NULL},
    {"cold-tier", {"place", "size", "keep"}, {PI_COLD_PLACE, PI_COLD_SIZE, PI_COLD_KEEP}, &pi_opt.cold_tier, NULL},
    {"cold-inline", {"o2", "profile"}, {1, 0}, NULL, &pi_opt.cold_inline_o2},
    {"inline-counts", {"estimate", "keep"}, {0, 1}, NULL, &pi_opt.inline_counts_keep},
    {"function-order", {"plan", "none"}, {0, 1}, NULL, &pi_opt.function_order_none},
    {"clone-tier", {"own", "base"}, {0, 1}, NULL, &pi_opt.clone_tier_base},
    {"clone-order", {"own", "base"}, {1, 0}, NULL, &pi_opt.clone_order_own},
    {"cold-parts", {"link", "sorted", "beside"}, {PI_COLDPARTS_LINK, PI_COLDPARTS_SORTED, PI_COLDPARTS_BESIDE},
     &pi_opt.cold_parts, NULL},
    {"pad", {"gcc", "none", "hot"}, {PI_PAD_GCC, PI_PAD_NONE, PI_PAD_HOT}, &pi_opt.pad, NULL},
    {"order-align", {"gcc", "bolt", "none"}, {PI_OALIGN_GCC, PI_OALIGN_BOLT, PI_OALIGN_NONE}, &pi_opt.order_align, NULL},
    {"feedback-counts", {"runs", "fine"}, {PI_FBCOUNTS_RUNS, PI_FBCOUNTS_FINE}, &pi_opt.feedback_counts, NULL},
    {"feedback-repair", {"yes", "converse", "no"}, {PI_REPAIR_YES, PI_REPAIR_CONVERSE, PI_REPAIR_NO}, &pi_opt.feedback_repair, NULL},
    {"counting-opt", {"full", "fast", "lean"}, {PI_COPT_FULL, PI_COPT_FAST, PI_COPT_LEAN}, &pi_opt.counting_opt, NULL},
    {"counters", {"arcs", "blocks"}, {0, 1}, NULL, &pi_opt.counters_blocks},
    {"counting", {"inline", "function"}, {0, 1}, NULL, &pi_opt.counting_function},
    {"count-at", {"cfg", "late"}, {0, 1}, NULL, &pi_opt.count_late},
    {"clean-copies", {"all", "loops", "none", "late", "final"}, {PI_CLEAN_ALL, PI_CLEAN_LOOPS, PI_CLEAN_NONE, PI_CLEAN_LATE, PI_CLEAN_FINAL}, &pi_opt.clean_copies, NULL},
    {"loop-counters", {"register", "memory"}, {0, 1}, NULL, &pi_opt.loop_counters_memory},
    {"callfree-counters", {"delta", "gcc"}, {0, 1}, NULL, &pi_opt.callfree_gcc},
    {"counter-address", {"base", "absolute"}, {0, 1}, NULL, &pi_opt.counter_address_abs},
    {"counter-order", {"hot", "site"}, {0, 1}, NULL, &pi_opt.counter_order_site},
    {"entry-branch", {"direct", "tail"}, {0, 1}, NULL, &pi_opt.entry_branch_tail},
    {"copy-calls", {"direct", "entry"}, {0, 1}, NULL, &pi_opt.copy_calls_entry},
    {"copy-profile", {"exact", "raise"}, {0, 1}, NULL, &pi_opt.copy_raise},
    {"bare-markers", {"drop", "keep"}, {0, 1}, NULL, &pi_opt.bare_markers_keep},
    {"latch-copy", {"yes", "no"}, {1, 0}, NULL, &pi_opt.latch_copy},
    {"counter-tree", {"estimate", "guess"}, {0, 1}, NULL, &pi_opt.counter_tree_guess},
};

/* K=V when K is one of word_args: sets its field (true), or says what V
 * should have been (false, *OK false); false, *OK untouched, for any other K. */
static bool word_arg(const char *k, const char *v, bool *ok)
{
    for (size_t i = 0; i < sizeof word_args / sizeof word_args[0]; i++) {
        const struct word_arg *w = &word_args[i];
        if (strcmp(k, w->key) != 0)
            continue;
        int c = one_of(k, v, w->words);
        if (c < 0)
            *ok = false;
        else if (w->ival)
            *w->ival = w->values[c];
        else
            *w->bval = w->values[c] != 0;
        return true;
    }
    return false;
}

/* GCC 12 cuts an -fplugin-arg- value short by one character for each "="
 * after the first (-fplugin-arg-perfinst-prefix-map=/a=b arrives as "/a="),
 * so a value that holds "=" is taken whole from the option as given: the
 * NTH -fplugin-arg-NAME-KEY=VALUE of cc1's command line (V if not found). */
static const char *whole_value(const char *key, int nth, const char *v)
{
    size_t n = strlen(plugin_name), k = strlen(key);
    for (unsigned i = 1; i < save_decoded_options_count; i++) {
        const char *arg = save_decoded_options[i].arg;
        if (save_decoded_options[i].opt_index != OPT_fplugin_arg_ || !arg || strncmp(arg, plugin_name, n) != 0 ||
            arg[n] != '-' || strncmp(arg + n + 1, key, k) != 0 || arg[n + 1 + k] != '=')
            continue;
        if (nth-- == 0)
            return arg + n + 1 + k + 1;
    }
    return v;
}

static bool parse_args(const struct plugin_name_args *a)
{
    bool ok = true;
    int nprefix_maps = 0;
    /* entry=test is the default: entry=jump runs fewer instructions but
     * took more CPU time on SQLite (docs/indicators.md, "Entering through
     * a jump slot") */
    pi_opt.entry_jump = false;
    /* counting=function is the default: the clean f keeps -O2's code and
     * prologue (SQLite with the mode off: 1.019x -O2's instructions, 1.010x
     * its CPU time, against 1.046x with the copies in one function) */
    pi_opt.counting_function = true;
    /* counting-opt=fast is the default.  lean (the copies at -O1 plus
     * -fexpensive-optimizations, -free and -fipa-ra) compiles in 8-12 % fewer
     * cc1 instructions and counts nearly as cheaply (bench/RESULTS.md,
     * 2026-11-29 10:00), but a training build's copies are what pmopt plan
     * models the rebuild's code from: SQLite trained with lean copies was
     * laid out with 0.997x BOLT's I1 misses on its test mix, with fast
     * copies 0.842x (eight shifts; 2026-11-29 10:46) */
    pi_opt.counting_opt = PI_COPT_FAST;
    /* count-at=late is the default: the counters after the early inliner,
     * where -fprofile-generate puts its own, cost at most 1.25x -O2's CPU
     * time on SQLite, Lua and zstd, below -fprofile-generate on each, where
     * count-at=cfg cost 1.45x and 1.88x on zstd (bench/RESULTS.md,
     * 2026-11-29 04:47); the rebuild applies such a profile at the same
     * point (pass-feedback.cc) */
    pi_opt.count_late = true;
    /* counter-address=absolute is the default: a base register per function
     * (pass-tls.cc) took gawk's field aggregation's simulated I1 misses
     * 13 % down but every call of a rebased function runs its movq, and
     * those with calls push and pop the register: more instructions on
     * the suite (bench/RESULTS.md, 2026-11-29 "shorter counter updates") */
    pi_opt.counter_address_abs = true;
    /* loop-counters=memory is the default: a loop's counters in registers
     * ran gawk's field aggregation in 2.6 % less CPU time but its regexp
     * workload in 3-4 % more, and every workload in more instructions
     * (bench/RESULTS.md, 2026-11-29 "a loop's counters in registers") */
    pi_opt.loop_counters_memory = true;
    /* callfree-counters=delta is the default: over the count-cost suite
       1.121x -> 1.118x -O2's instructions counting (zstd 1.051x -> 1.042x,
       1.046x -> 1.035x), the off mode 1.023x -> 1.022x, Lua's test files
       (bench/projects.sh) 1.311x -> 1.27x; at most 0.3 % more on a
       workload (bench/RESULTS.md, 2026-12-06 "a call-free loop's
       counters as deltas") */
    /* clean-copies=final is the default: each counted function is compiled
     * once, its clean copy f made from the counting copy's assembly
     * (finalcopy.cc), where all compiled both: sqlite3.c's compile 1.27x
     * plain -O2's instructions against all's 2.35x (CPU), counting 1.131x
     * -O2's instructions over the count-cost suite against 1.143x, the off
     * mode 1.022x against 1.013x, counting CPU within 5 % of all's but on
     * gawk fields (1.304x -O2 against 1.266x, quiet) (bench/RESULTS.md,
     * 2026-12-01 04:28, 08:12, 08:23 and 09:38).  The rebuild loop's training
     * build takes all (docs/layout.md, "One loop") */
    pi_opt.clean_copies = PI_CLEAN_FINAL;
    /* dispatch=small is the default: an interpreter's dispatch loop that
     * fits half the L1i (Lua's luaV_execute) kept whole, as llvm-bolt keeps
     * it, so that the opcodes training never ran lie beside the ones it
     * did; one larger (SQLite's sqlite3VdbeExec) split.  On the layout
     * suite at 64 counts a pair it lowered every Lua pair and changed no
     * other program's code (bench/RESULTS.md, 2026-12-01 14:50) */
    pi_opt.dispatch = PI_DISPATCH_SMALL;
    for (int i = 0; i < a->argc; i++) {
        const char *k = a->argv[i].key, *v = a->argv[i].value;
        if (word_arg(k, v, &ok))
            continue;
        if (strcmp(k, "all") == 0) {
            static const char *const words[] = {"count", "sample", NULL};
            int c = one_of(k, v, words);
            if (c < 0)
                ok = false;
            else if (c == 1)
                pi_opt.all_sample = true;
            else
                pi_opt.all_count = true;
        } else if (strcmp(k, "feedback") == 0) {
            if (!v || !*v) {
                error("perfinst: %<-fplugin-arg-perfinst-feedback%> needs a file name");
                ok = false;
            } else if (access(v, R_OK) != 0) {
                error("perfinst: feedback file %qs: %m", v);
                ok = false;
            } else
                pi_opt.feedback = v;
        } else if (strcmp(k, "copy-map") == 0) {
            if (!v || !*v) {
                error("perfinst: %<-fplugin-arg-perfinst-copy-map%> needs a file name");
                ok = false;
            } else if (v[0] != '/') {
                /* a build's compilations run in several directories, and
                   all of them append to one map */
                error("perfinst: %<-fplugin-arg-perfinst-copy-map=%s%>: needs an absolute path (every "
                      "compilation of the build appends to the one map)", v);
                ok = false;
            } else
                pi_opt.copy_map = v;
        } else if (strcmp(k, "feedback-only") == 0) {
            if (!v || !*v) {
                error("perfinst: %<-fplugin-arg-perfinst-feedback-only%> needs a list such as 1,3,5-7");
                ok = false;
            } else
                feedback_only = v;
        } else if (strcmp(k, "prefix-map") == 0) {
            v = whole_value(k, nprefix_maps++, v);
            if (!pi_add_prefix_map(v)) {
                error("perfinst: %<-fplugin-arg-perfinst-prefix-map=%s%>: expected OLD=NEW with OLD "
                      "not empty", v ? v : "");
                ok = false;
            }
        } else if (strcmp(k, "record-link") == 0) {
            pi_opt.record_link = true;
        } else if (strcmp(k, "verbose") == 0) {
            pi_opt.verbose = true;
        } else if (strcmp(k, "counter-width") == 0) {
            if (v && (!strcmp(v, "8") || !strcmp(v, "16") || !strcmp(v, "32") || !strcmp(v, "64")))
                pi_opt.counter_width = (unsigned)atoi(v);
            else {
                error("perfinst: %<-fplugin-arg-perfinst-counter-width=%s%>: expected 8, 16, 32 or 64",
                      v ? v : "");
                ok = false;
            }
        } else if (strcmp(k, "help") == 0) {
            fputs(info.help, stderr);
        } else if (strcmp(k, "sections") == 0) {
            /* pmopt relink orders input sections: one per function and object */
            flag_function_sections = 1;
            flag_data_sections = 1;
        } else if (strcmp(k, "warm") == 0) {
            char *end = NULL;
            double p = v ? strtod(v, &end) : 0.0;
            if (!v || !*v || *end || !(p > 0.0 && p <= 100.0)) {
                error("perfinst: %<-fplugin-arg-perfinst-warm=%s%>: expected a percentage of the "
                      "entry count, above 0 and at most 100", v ? v : "");
                ok = false;
            } else
                pi_opt.warm_pct = p;
        } else if (strcmp(k, "split-min") == 0) {
            char *end = NULL;
            long n = v ? strtol(v, &end, 10) : -1;
            if (!v || !*v || *end || n < 0 || n > 100000) {
                error("perfinst: %<-fplugin-arg-perfinst-split-min=%s%>: expected a number of "
                      "instructions, 0 to 100000", v ? v : "");
                ok = false;
            } else
                pi_opt.split_min = (unsigned)n;
        } else {
            error("perfinst: unknown argument %<-fplugin-arg-perfinst-%s%> (known: all, sharing, "
                  "feedback, feedback-only, prefix-map, record-link, verbose, combine, counter-width, sections, "
                  "block-order, split, warm, split-min, dispatch, sharing-coalesce, sharing-footprint, sharing-locals, bare-return, switch-again, "
                  "entry, feedback-quality, counting, counting-opt, cold-tier, cold-inline, inline-counts, clone-tier, clone-order, function-order, cold-parts, pad, feedback-counts, feedback-repair, counters, count-at, clean-copies, loop-counters, help)", k);
            ok = false;
        }
    }
    return ok;
}

/* With all=count every block carries a counter update and a site marker,
 * which the inliner counts as code: functions look ~2.5x bigger and many
 * small ones stop being inlined, in the clean copy as much as in the
 * counting one (the split happens after inlining).  The limits are scaled
 * by NUM/DEN unless the user set them; the early inliner's
 * (early-inlining-insns) only when EARLY.  With count-at=late (not EARLY)
 * the early passes see no counters, and they must leave the CFG the
 * rebuild (no all=count there) leaves, since the profile is keyed on it
 * (pass-feedback.cc): max-inline-insns-auto and -single are scaled only
 * at the late point, when the counters are in (pi_scale_inline_limits).
 * The early ipa-split ("fnsplit", GCC's ipa-split.cc consider_split)
 * reads them too: scaled from the start, it split functions the rebuild
 * does not and the early inliner inlined their heads into their callers,
 * so these functions' profiles were stale in the rebuild (SQLite: 23 of
 * 808, 2.1 % of the block executions; bench/RESULTS.md, 2026-11-29).
 *
 * Where pass-inlsize.cc takes the counters out of GCC's summaries (cc1,
 * no -flto) the factor is 2: what remains is what counters do to the
 * early optimisations (blocks with a counter store are not if-converted
 * or combined), which the summaries cannot undo.  Measured on SQLite's
 * all=count build (callgrind, size 0.1; bench/RESULTS.md, 2026-11-22
 * offmode2): summaries corrected with the -O2 limits made 2.5 % fewer
 * calls than the limits x2.5 alone but cost 0.9 % more instructions with
 * PERFINST_MODE=off (1.085x -O2 against 1.075x); corrected with the limits
 * x1.5, 1.066x; x2, 1.046x (counting: 993 M instructions against 1000 M).
 * Elsewhere (-flto: the IPA inliner runs in lto1 on summaries streamed
 * before the correction; all=sample) it is 2.5, the factor that was best
 * on its own (x2, x2.5, x3 measured: PERFINST_MODE=off within 1 %,
 * counting up to 3 % apart). */
static int late_num, late_den; /* count-at=late: the scale still to apply */
bool pi_inline_limits_scaled;    /* max-inline-insns-auto or -single scaled */

static void compensate_inliner(int num, int den, bool early)
{
    pi_inline_limits_scaled =
        !global_options_set.x_param_max_inline_insns_auto || !global_options_set.x_param_max_inline_insns_single;
    if (!early) {
        late_num = num;
        late_den = den;
        return;
    }
    struct {
        int *value;
        int set;
    } p[] = {
        {&param_early_inlining_insns, global_options_set.x_param_early_inlining_insns},
        {&param_max_inline_insns_auto, global_options_set.x_param_max_inline_insns_auto},
        {&param_max_inline_insns_single, global_options_set.x_param_max_inline_insns_single},
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (!p[i].set)
            *p[i].value = *p[i].value * num / den;
}

/* count-at=late, at the late point (pass-count.cc, count_late_execute):
 * the IPA inliner's limits scaled, in the options and in the default
 * optimization node, which IPA reads them from (opt_for_fn).  A function
 * with optimize attributes of its own keeps its node's limits. */
void pi_scale_inline_limits(void)
{
    if (!late_den)
        return;
    struct cl_optimization *o = TREE_OPTIMIZATION(optimization_default_node);
    struct {
        int *value, *node;
        int set;
    } p[] = {
        {&param_max_inline_insns_auto, &o->x_param_max_inline_insns_auto,
         global_options_set.x_param_max_inline_insns_auto},
        {&param_max_inline_insns_single, &o->x_param_max_inline_insns_single,
         global_options_set.x_param_max_inline_insns_single},
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (!p[i].set) {
            *p[i].node = *p[i].node * late_num / late_den;
            *p[i].value = *p[i].node;
        }
    late_den = 0;
}

static void start_unit(void *, void *)
{
    /* lets perfinst.h's macros expand to the directives; not in preprocessed
       input (-save-temps, a .i file), where they were expanded by the
       `gcc -E` that made it and a #define is not read as one */
    if (cpp_define && parse_in && !(cpp_get_options && cpp_get_options(parse_in)->preprocessed))
        cpp_define(parse_in, "__PERFINST__=1");
}

static void ipa_start(void *, void *)
{
    if (!pi_opt.count_late) /* (else at the end of the late count pass) */
        pi_unit_finish();
}

static void finish_unit(void *, void *)
{
    if (pi_have_c_frontend() && !in_lto_p)
        pi_pragma_finish_unit();
    pi_feedback_report();
    pi_promote_report();
    pi_sharing_repair_finish();
    pi_copy_entries_finish();
}

/* PASS next to instance N of REF (0: next to every instance, each a clone) */
static void register_pass_at(opt_pass *pass, const char *ref, int n, enum pass_positioning_ops pos)
{
    struct register_pass_info p;
    p.pass = pass;
    p.reference_pass_name = ref;
    p.ref_pass_instance_number = n;
    p.pos_op = pos;
    register_callback("perfinst", PLUGIN_PASS_MANAGER_SETUP, NULL, &p);
}

/* One root table of one entry a static (plugin.h): GCC keeps the table's
 * address, which lives as long as the compiler. */
void pi_gc_root_walkers(void *base, void (*mark)(void *), void (*pch)(void *))
{
    struct ggc_root_tab *t = XCNEWVEC(struct ggc_root_tab, 2); /* and LAST_GGC_ROOT_TAB */
    t->base = base;
    t->nelt = 1;
    t->stride = sizeof(void *);
    t->cb = mark;
    t->pchw = pch;
    register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, t);
}

void pi_gc_root(tree *p)
{
    pi_gc_root_walkers(p, gt_ggc_mx_tree_node, gt_pch_nx_tree_node);
}

static void register_pass(opt_pass *pass, const char *ref, enum pass_positioning_ops pos)
{
    register_pass_at(pass, ref, 1, pos);
}

int plugin_init(struct plugin_name_args *args, struct plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        error("perfinst: this plugin was built for GCC %s and cannot run in GCC %s; rebuild it "
              "with the compiler that loads it", gcc_version.basever, version->basever);
        return 1;
    }
    plugin_name = args->base_name;
    register_callback(args->base_name, PLUGIN_INFO, NULL, &info);
    /* The runtime, the records and their relocations are LP64 x86-64:
       -m32 and -mx32 would end in an assembler error on .quad labels. */
    if (!TARGET_64BIT || POINTER_SIZE != 64) {
        error("perfinst: x86-64 only: this compilation is for a %d-bit target (%s)",
              (int)POINTER_SIZE, TARGET_X32 ? "-mx32" : "-m32");
        return 1;
    }
    if (!parse_args(args) || !pi_feedback_load(feedback_only))
        return 1;
    /* switch-again and bare-return redo or enable what GCC's early passes
       do, for counters put in before them (count-at=cfg); counted late,
       a function has been through them before any counter */
    for (int i = 0; i < 2; i++)
        if ((i ? pi_opt.bare_return : pi_opt.switch_again) && pi_opt.all_count && pi_opt.count_late)
            inform(UNKNOWN_LOCATION,
                   "perfinst: %qs applies to functions counted at %<cfg%> only "
                   "(%<-fplugin-arg-perfinst-count-at=cfg%>, or marked one by one): with "
                   "%<count-at=late%>, the default of %<all=count%>, GCC%'s early switch conversion and "
                   "%<ipa-split%> run before any counter, as at %<-O2%>",
                   i ? "bare-return=yes" : "switch-again=yes");
    /* pad=none: no padding before loops, jump targets and labels, as
       -fno-align-loops -fno-align-jumps -fno-align-labels (set before
       process_options, so the target supplies no default alignment);
       functions keep -falign-functions */
    if (pi_opt.pad == PI_PAD_NONE && pi_opt.feedback)
        flag_align_loops = flag_align_jumps = flag_align_labels = 0;
    /* With all=count the counters are taken out of the inliner's summaries
       (pass-inlsize.cc) unless the IPA inliner will run in lto1 on
       summaries streamed before that; and in a feedback rebuild, so that
       the functions its directives still count (at cfg, before the early
       inliner) are inlined as in the all=count training build whose
       profile it applies (else their callers' profiles were stale; no
       other function has a counter there).  (Elsewhere functions marked
       one by one keep their counters' size: what stays out of line keeps
       its own switch.) */
    pi_inlsize_active = (pi_opt.all_count || pi_opt.feedback) && pi_have_c_frontend() && !(flag_lto && *flag_lto);
    /* (lto1 runs no early pass: its limits are scaled from the start) */
    bool early = !pi_opt.count_late || !pi_have_c_frontend();
    if (pi_inlsize_active && pi_opt.all_count) {
        /* clean-copies=none: no clean copy to inline as -O2 would, and
           the doubled limits cost 20 % of the compile on lparser.c
           (bench/RESULTS.md, 2026-11-29 16:00): -O's own limits, as
           -fprofile-generate has them.  clean-copies=late: -O's limits
           too, the summaries' sizes made -O2's (pass-inlsize.cc,
           body_entry): the doubled limits cost it 1.50x -> 1.88x plain
           -O2's compile on lparser.c (2026-11-29 18:30).  final (the
           default) doubles them as all does: with -O's, each call that
           stays a call pays the off mode's entry test (SQLite's off mode
           1.043-1.047x -O2's instructions against 1.011-1.027x doubled),
           and doubled they cost its compile less than all's second
           compile (bench/RESULTS.md, 2026-12-01) */
        if (pi_opt.clean_copies == PI_CLEAN_ALL || pi_opt.clean_copies == PI_CLEAN_LOOPS ||
            pi_opt.clean_copies == PI_CLEAN_FINAL)
            compensate_inliner(2, 1, early);
    } else if (pi_opt.all_count || pi_opt.all_sample)
        compensate_inliner(5, 2, early);
    /* With all=count the unit's code is several times -O2's, and GNU as
       relaxes and resolves one .text section in a time that grows faster
       than its size: sqlite3.c's assembly took as 3.31 s in one .text,
       0.89 s with a section per function (plain -O2's 0.46 s;
       bench/RESULTS.md, 2026-11-30 05:30).  The program is the same: the
       default linker script puts each .text.F (.text.unlikely.F,
       .text.hot.F ...) where .text (.text.unlikely ...) went, in the same
       order.  -fno-function-sections keeps one section. */
    if (pi_opt.all_count && !global_options_set.x_flag_function_sections)
        flag_function_sections = 1;

    register_callback(args->base_name, PLUGIN_ATTRIBUTES, pi_register_attributes, NULL);
    if (pi_have_c_frontend()) {
        register_callback(args->base_name, PLUGIN_PRAGMAS, pi_register_pragmas, NULL);
        register_callback(args->base_name, PLUGIN_PRAGMAS, pi_feedback_as_input, NULL);
        register_callback(args->base_name, PLUGIN_INCLUDE_FILE, pi_feedback_main_file, NULL);
        register_callback(args->base_name, PLUGIN_START_UNIT, start_unit, NULL);
        register_callback(args->base_name, PLUGIN_START_PARSE_FUNCTION, pi_pragma_start_function, NULL);
        register_callback(args->base_name, PLUGIN_FINISH_DECL, pi_pragma_finish_decl, NULL);
        register_callback(args->base_name, PLUGIN_PRE_GENERICIZE, pi_pre_genericize, NULL);
        register_callback(args->base_name, PLUGIN_FINISH_PARSE_FUNCTION, pi_finish_parse_function, NULL);
        pi_sharing_repair_register(args->base_name);
    }
    /* FINISH_UNIT is skipped after errors; FINISH still reports leftovers */
    register_callback(args->base_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
    register_callback(args->base_name, PLUGIN_FINISH, finish_unit, NULL);
    register_callback(args->base_name, PLUGIN_ALL_IPA_PASSES_START, ipa_start, NULL);
    pi_quiet_counting_copies(args->base_name); /* no warnings of F.count.N */
    pi_countfn_register_gates(args->base_name); /* passes counting-opt=lean leaves out */

    /* The passes, in the order they run (-fdump-passes shows it).  Where
       several go next to one of GCC's passes, each after the one before,
       so that the order here is the order there. */
    /* right after the CFG is built, before any inlining: */
    register_pass(pi_make_blocking_pass(g), "cfg", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_ri_pass(g), "perfinst_blocking", PASS_POS_INSERT_AFTER);
    /* the feedback's profile and promote-call's call sites, read before
       the count pass deletes the statement markers they use */
    register_pass(pi_make_feedback_pass(g), "perfinst_ri", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_promote_find_pass(g), "perfinst_feedback", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_count_pass(g), "perfinst_promote_find", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_arrays_pass(g), "build_ssa_passes", PASS_POS_INSERT_AFTER);
    /* count-at=late: inlined bodies' scopes kept for the count pass */
    register_pass(pi_make_keep_inlined_pass(g), "einline", PASS_POS_INSERT_AFTER);
    /* count-at=late: after the early inliner and optimisations, where
       GCC's own profile instrumentation is */
    register_pass(pi_make_count_late_pass(g), "profile", PASS_POS_INSERT_BEFORE);
    /* the profiles taken there, applied there before it counts */
    register_pass(pi_make_fblate_pass(g), "perfinst_count_late", PASS_POS_INSERT_BEFORE);
    /* after every instance of local-fnsummary */
    register_pass_at(pi_make_inlsize_pass(g), "local-fnsummary", 0, PASS_POS_INSERT_AFTER);
    register_pass(pi_make_fbread_pass(g), "profile_estimate", PASS_POS_INSERT_AFTER);
    /* IPA: */
    register_pass(pi_make_fbglobal_pass(g), "profile", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_fblto_pass(g), "perfinst_fbglobal", PASS_POS_INSERT_AFTER);
    /* promote-call (pass-promote.cc): promoted in IPA before ipa-cp, as
       ipa-devirt does */
    register_pass(pi_make_promote_pass(g), "cp", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_inlsize_ipa_pass(g), "fnsummary", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_fbglobal_ipa_pass(g), "inline", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_coldinl_pass(g), "inline", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_coldinl_restore_pass(g), "inline", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_inlkeep_pass(g), "perfinst_coldinl_restore", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_countfn_pass(g), "simdclone", PASS_POS_INSERT_AFTER);
    /* after IPA, GIMPLE: */
    register_pass(pi_make_inlkeep_restore_pass(g), "adjust_alignment", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_copyprof_pass(g), "adjust_alignment", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_split_pass(g), "adjust_alignment", PASS_POS_INSERT_AFTER);
    /* a branch-free loop's site markers out of loop distribution's and the
       vectorizer's way (pass-loopmarks.cc) */
    register_pass(pi_make_loopmarks_off_pass(g), "ldist", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_loopmarks_on_pass(g), "vect", PASS_POS_INSERT_AFTER);
    /* around every instance of the late "uninit" (instance 0: all):
       no -Wmaybe-uninitialized of the counters' own (pass-uninit.cc) */
    register_pass_at(pi_make_uninit_off_pass(g), "uninit", 0, PASS_POS_INSERT_BEFORE);
    register_pass_at(pi_make_uninit_on_pass(g), "uninit", 0, PASS_POS_INSERT_AFTER);
    register_pass(pi_make_sharing_pass(g), "optimized", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_tier_pass(g), "perfinst_sharing", PASS_POS_INSERT_AFTER);
    /* the last GIMPLE pass: -fPIC counters through %fs (pass-tls.cc) */
    register_pass(pi_make_tls_pass(g), "perfinst_tier", PASS_POS_INSERT_AFTER);
    /* the applied counts consistent before expansion (pass-feedback.cc) */
    register_pass(pi_make_fbrepair_pass(g), "perfinst_tier", PASS_POS_INSERT_AFTER);
    /* clean-copies=late: the counting copy split off the optimised body,
       before the counters of -fPIC code go through %fs (the copy gets
       that pass in latecopy, as it skips the GIMPLE passes) */
    register_pass(pi_make_latecopy_pass(g), "perfinst_tls", PASS_POS_INSERT_BEFORE);
    /* RTL: */
    register_pass(pi_make_countfn_args_pass(g), "expand", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_coldsplit_pass(g), "bbpart", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_coldsplit_restore_pass(g), "bbpart", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_tails_pass(g), "jump2", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_tails_restore_pass(g), "jump2", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_baremarkers_pass(g), "jump2", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_latchcopy_pass(g), "bbro", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_blockorder_pass(g), "bbro", PASS_POS_INSERT_AFTER);
    register_pass(pi_make_finaltails_pass(g), "shorten", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_finaldead_pass(g), "*free_cfg", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_ranges_pass(g), "shorten", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_tailjump_pass(g), "shorten", PASS_POS_INSERT_BEFORE); /* after ranges */
    register_pass(pi_make_tier_late_pass(g), "final", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_pad_pass(g), "alignments", PASS_POS_INSERT_BEFORE);
    register_pass(pi_make_pad_restore_pass(g), "alignments", PASS_POS_INSERT_AFTER);
    return 0;
}
