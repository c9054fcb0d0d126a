/* plugin.h — what the plugin's files share: options, the unit's tables,
 * the statement-directive table, and each pass's registration hook. */
#ifndef PERFINST_PLUGIN_H
#define PERFINST_PLUGIN_H

#include "gcc-compat.h"
#include "pass-gen.h"
#include "directives.h"
#include "perfinst-format.h"

/* -fplugin-arg-perfinst-KEY=VALUE (docs/directives.md) */
/* What the rebuild does with a function that never ran in training
 * (function-tier tier=cold): places it in .text.unlikely.NAME, compiles it
 * for size there too, or leaves it where -O2 puts it. */
enum { PI_COLD_PLACE, PI_COLD_SIZE, PI_COLD_KEEP };
enum { PI_PAD_GCC, PI_PAD_NONE, PI_PAD_HOT };
enum { PI_DISPATCH_SPLIT, PI_DISPATCH_WHOLE, PI_DISPATCH_SMALL };
/* Where the rebuild puts the cold part (F.cold) of a function of the
 * plan's order: .text.unlikely.F (GNU ld: in the objects' order, before
 * the hot code), after all the ordered functions in their order, or right
 * after F (pass-feedback.cc, docs/layout.md "Cold parts in the rebuild"). */
enum { PI_COLDPARTS_DEFAULT, PI_COLDPARTS_LINK, PI_COLDPARTS_SORTED, PI_COLDPARTS_BESIDE };
/* feedback-counts=runs|fine (pass-feedback.cc, count_of) */
enum { PI_FBCOUNTS_DEFAULT, PI_FBCOUNTS_RUNS, PI_FBCOUNTS_FINE };
enum { PI_REPAIR_YES, PI_REPAIR_CONVERSE, PI_REPAIR_NO };

struct pi_options {
    bool all_count;         /* all=count: instrument every function */
    int sharing;            /* sharing=all|marked: 2 all, 1 marked (default) */
    const char *feedback;   /* feedback=FILE (applied by later passes) */
    bool record_link;       /* record-link */
    bool verbose;           /* verbose */
    int combine;            /* combine=marked|all: function probes for counter combinations (1, 2) */
    unsigned counter_width; /* counter-width=8|16|32|64: narrow counters (0: 64) */
    bool all_sample;        /* all=sample: every function as if marked sample(every=1000) */
    int block_order;        /* block-order=exttsp|gcc: 0 Ext-TSP after bbro (default), 1 bbro's */
    int split;              /* split=gcc|2|3: 1 GCC's partitioning, 2, 3 (0: default) (pass-coldsplit.cc) */
    double warm_pct;        /* warm=PCT: split=3's warm blocks, below PCT % of the entry count */
    unsigned split_min;     /* split-min=N: a function whose cold part would hold fewer than N instructions is
                               kept whole (pass-coldsplit.cc; 0: no minimum) */
    int dispatch;           /* dispatch=split|whole|small: PI_DISPATCH_*, a dispatch loop split, kept whole, or kept
                               whole when small (pass-coldsplit.cc) */
    bool sharing_no_coalesce; /* sharing-coalesce=no: one check per access (pass-sharing.cc) */
    bool sharing_all_locals;  /* sharing-locals=addressable: no points-to filter (pass-sharing.cc) */
    bool sharing_fp_call;     /* sharing-footprint=call: no inlined footprint path (pass-sharing.cc) */
    bool bare_return;       /* bare-return=yes: return block left bare for ipa-split (return-site.cc) */
    bool switch_again;      /* switch-again=yes: switch passes again after the split (pass-split.cc) */
    bool entry_jump;        /* entry=jump: split functions enter through a jump slot (pass-split.cc) */
    int feedback_quality;   /* feedback-quality=local|ipa: 0 GUESSED_LOCAL counts (default), 1 IPA (pass-feedback.cc) */
    bool counting_function; /* counting=function: the counting copy a function of its own (pass-countfn.cc) */
    int counting_opt;       /* counting-opt=full|fast|lean: PI_COPT_*, f.count.N's options (pass-countfn.cc) */
    int cold_tier;          /* cold-tier=place|size|keep: PI_COLD_* (pass-feedback.cc) */
    bool cold_inline_o2;    /* cold-inline=o2: -O2's hot/cold verdict on call sites that ran little or never in training (pass-feedback.cc) */
    bool inline_counts_keep; /* inline-counts=keep: a profiled function's counts kept through the inline transform
                               (PROFILE_READ there, so GCC does not estimate them again; pass-feedback.cc) */
    bool clone_tier_base;   /* clone-tier=base: a clone the feedback does not name gets its origin's cold tier (pass-feedback.cc) */
    bool clone_order_own;  /* clone-order=own: a function the order does not name keeps its section; by default (base) it takes the rank of its origin or of a clone of it (pass-feedback.cc) */
    bool function_order_none; /* function-order=none: the plan's order left to pmopt relink (pass-feedback.cc) */
    int cold_parts;         /* cold-parts=link|sorted|beside: PI_COLDPARTS_* (pass-feedback.cc) */
    int feedback_counts;    /* feedback-counts=runs|fine: PI_FBCOUNTS_*, local counts as runs or x1024 (pass-feedback.cc) */
    int feedback_repair;    /* feedback-repair=yes|converse|no: PI_REPAIR_*, GCC's lost counts given back, and the counts of blocks no block that ran enters taken (converse), or GCC's kept (pass-feedback.cc) */
    bool counters_blocks;   /* counters=blocks: a counter per block, no arcs (arcs.cc) */
    int pad;                /* pad=gcc|none|hot: PI_PAD_*; with feedback, alignment padding inside functions
                               everywhere (GCC's), nowhere (perfinst.cc), or in the hot tier only (pass-pad.cc) */
    int order_align;        /* order-align=gcc|bolt|none: PI_OALIGN_*, the ordered functions' own alignment (pass-feedback.cc) */
    bool count_late;        /* count-at=late: the count pass after the early inliner (pass-count.cc) */
    int clean_copies;       /* clean-copies=all|loops|none|late|final: PI_CLEAN_*, which counting functions get a clean copy, and when (copies.cc) */
    bool loop_counters_memory; /* loop-counters=memory: no counter of a loop kept in a register (copies.cc) */
    bool callfree_gcc;      /* callfree-counters=gcc: a call-free loop's counters left to GCC's store motion, not kept as a delta in a register (copies.cc) */
    bool counter_address_abs; /* counter-address=absolute: an executable's updates at %fs:ABS32 (pass-tls.cc) */
    bool counter_order_site; /* counter-order=site: a function's counters in site order, not hottest first (ctr-order.cc) */
    bool counter_tree_guess; /* counter-tree=guess: the arcs' spanning tree weighted by arcs.cc's static guess, not GCC's estimated profile */
    bool entry_branch_tail; /* entry-branch=tail: a clean copy's test branches to GCC's tail jump, not straight to f.count.N (pass-tailjump.cc) */
    bool bare_markers_keep; /* bare-markers=keep: a counting copy's blocks holding only site markers keep them (pass-countfn.cc) */
    bool latch_copy;        /* latch-copy=yes: a counting copy's small loop latches copied into the blocks that jump to them, before bb-reorder (pass-countfn.cc) */
    bool copy_raise;        /* copy-profile=raise: a copy's count only where it is above the scaled one (pass-copyprof.cc) */
    const char *copy_map;   /* copy-map=FILE: per inlined copy counters, their map appended to FILE (pass-copyprof.cc) */
    bool copy_calls_entry;  /* copy-calls=entry: a counting copy's calls enter the callee at f, not at its f.count.N's own test (pass-tailjump.cc) */
};
extern struct pi_options pi_opt;
/* counting-opt=: the counting copies with the unit's options; without
   GCC's costliest optional passes; with fewer still (pass-countfn.cc) */
enum { PI_COPT_FULL, PI_COPT_FAST, PI_COPT_LEAN };
/* order-align=: the functions of the plan's order aligned as -falign-functions
   says (GCC's, default); without it, each aligned to 64 by the link stage
   where that costs at most 32 bytes (bolt); without it, packed (none) */
enum { PI_OALIGN_GCC, PI_OALIGN_BOLT, PI_OALIGN_NONE };
/* clean-copies=: every counting function split in a clean and a counting
   copy; only those with a loop; none (copies.cc, pi_single_body); every
   one, split at the end of the GIMPLE passes (pass-countfn.cc, latecopy) */
enum { PI_CLEAN_ALL, PI_CLEAN_LOOPS, PI_CLEAN_NONE, PI_CLEAN_LATE, PI_CLEAN_FINAL };

/* ---- GCC's garbage collector (perfinst.cc).  It runs after every pass
 * and after each function the front end finishes, and frees what no root
 * of its own reaches: a tree the plugin keeps in a static (a decl it made,
 * a type it built, an identifier: after parsing, one no tree names is
 * collected) would be freed under it, and a set keyed by decls would see a
 * dead decl's address come back as another's.  So each such static
 * is made a root once, where it is first set: its tree, or every tree a
 * set or map holds (keys and tree values), is kept alive. */
void pi_gc_root(tree *p);
void pi_gc_root_walkers(void *base, void (*mark)(void *), void (*pch)(void *));
/* a set's member, a map's key or value: walked when a tree or a statement */
template <typename T> static inline void pi_gc_walk(const T &, bool) {}
static inline void pi_gc_walk(tree t, bool pch)
{
    if (t)
        (pch ? gt_pch_nx_tree_node : gt_ggc_mx_tree_node)(t);
}
static inline void pi_gc_walk(gimple *g, bool pch)
{
    if (g)
        (pch ? gt_pch_nx_gimple : gt_ggc_mx_gimple)(g);
}
template <typename M, bool PCH> static void pi_gc_walk_map(void *p)
{
    if (p)
        for (auto kv : *(M *)p) {
            pi_gc_walk(kv.first, PCH);
            pi_gc_walk(kv.second, PCH);
        }
}
template <typename S, bool PCH> static void pi_gc_walk_set(void *p)
{
    if (p)
        for (auto k : *(S *)p)
            pi_gc_walk(k, PCH);
}
template <typename M> static inline void pi_gc_root_map(M **p)
{
    pi_gc_root_walkers(p, pi_gc_walk_map<M, false>, pi_gc_walk_map<M, true>);
}
template <typename S> static inline void pi_gc_root_set(S **p)
{
    pi_gc_root_walkers(p, pi_gc_walk_set<S, false>, pi_gc_walk_set<S, true>);
}

/* ---- feedback (feedback.cc): the recommendations of a `pmopt plan` file */
struct pifb_rec;
/* Load pi_opt.feedback (keeping the numbers in ONLY, when given); false
 * after an error was reported. */
bool pi_feedback_load(const char *only);
/* The next recommendation of KIND, starting from *ITER (0 at first); NULL
 * at the end or without a feedback file.  Read it with pifb_get() and
 * pifb_get_u64() (pifeedback.h). */
const struct pifb_rec *pi_feedback_next(const char *kind, unsigned *iter);
const char *pi_feedback_other_key(void);
const char *pi_feedback_path(void); /* for messages; NULL without a file */
bool pi_feedback_src_is_ours(const char *src); /* feedback.cc: src= is this unit's key (any variant) */
bool pi_feedback_for_unit(const struct pifb_rec *r); /* src= is this unit's */
bool pi_feedback_parse_list(const char *s, vec<uint64_t> &out); /* "1,2,3" appended to OUT; false when malformed */
int pi_feedback_point(const struct pifb_rec *r);    /* at=: 0 cfg, 1 late, -1 unknown */
void pi_feedback_as_input(void *gcc_data, void *user_data); /* PLUGIN_PRAGMAS: -MD, ccache */
void pi_feedback_main_file(void *gcc_data, void *user_data); /* PLUGIN_INCLUDE_FILE: reads its lines */

/* ---- statement directives (pragmas inside function bodies) ------------
 * The pragma handler appends a marker call __perfinst_stmt_marker(ID, WHAT)
 * to the statement list; ID indexes this table. */
enum pi_marker_what { PI_MARK_BEGIN = 0, PI_MARK_END = 1, PI_MARK_POINT = 2 };
struct pi_stmt_directive {
    struct pi_directive_spec spec;
    location_t loc;
};
unsigned pi_stmt_directive_add(const struct pi_directive_spec *spec, location_t loc);
const struct pi_stmt_directive *pi_stmt_directive_get(unsigned id);
tree pi_marker_decl(void);
bool pi_is_marker_call(const gimple *g, unsigned *id, int *what);
/* pass-count.cc: a label, a debug bind or a directive's marker call, which
   a scan for a block's first statement passes over */
bool pi_block_filler(const gimple *g);
bool pi_markers_made(void);            /* was any statement directive's marker made? */

/* The directives given on a declaration: the "perfinst" attributes' strings,
 * parsed.  Returns the number stored (diagnostics were given when the
 * attribute was accepted, so errors here are silent). */
int pi_decl_directives(tree decl, struct pi_directive_spec *out, int max);
int pi_attr_directives(tree attrs, struct pi_directive_spec *out, int max);
uint32_t pi_directive_bits(tree attrs); /* the PI_D_* bits of an attribute list */

/* The function a directive's handler= names, resolved while parsing (it
 * must be declared before the directive), or NULL_TREE. */
tree pi_handler_decl(const char *name);

/* ---- paths (paths.cc): keys that do not depend on where the tree lies */
bool pi_add_prefix_map(const char *arg); /* -fplugin-arg-perfinst-prefix-map=OLD=NEW */
const char *pi_path_key(const char *path);
const char *pi_unit_source(void);        /* the main source file's key */
bool pi_plugin_arg_is_local(const char *arg); /* perfinst.cc: "perfinst-feedback=F": not in the unit id */
bool pi_plugin_arg_is_ours(const char *arg);  /* perfinst.cc: "perfinst-..." */

/* ---- the unit (unit.cc) ---------------------------------------------- */
uint64_t pi_unit_id(void);
uint64_t pi_unit_variant(void); /* pi_unit_id less perfinst's own arguments */
uint32_t pi_unit_str(const char *s);
uint32_t pi_unit_file(const char *file); /* a source file name, as DWARF spells it */
unsigned pi_unit_add_func(tree fndecl, uint32_t directives);
unsigned pi_unit_add_site(const struct pi_site *site);
/* S zeroed, then a site of KIND of function FUNC at XL, with no counter yet */
void pi_site_init(struct pi_site *s, unsigned func, unsigned kind, expanded_location xl);
void pi_unit_func_done(unsigned func, uint64_t cfg_checksum, bool late); /* late: PI_FUNC_LATE */
void pi_unit_set_probe(unsigned site, const struct pi_directive_spec *d);
void pi_unit_set_counter(unsigned site, unsigned counter);
void pi_unit_set_counter_at_end(unsigned site);
unsigned pi_unit_add_counter(void);      /* a new counter's index */
unsigned pi_unit_ncounters(void);        /* counters so far */
unsigned pi_unit_narcs(void);            /* arcs so far */
bool pi_unit_sites_plain(unsigned first_site); /* those sites: count only, 64-bit counters */
void pi_unit_renumber_counters(unsigned first_site, unsigned first_arc, unsigned c0, unsigned n,
                               const unsigned *map); /* counter c0+i becomes map[i] */
/* count-at=late: FUN's counters, c0 on, renumbered hottest first (ctr-order.cc) */
void pi_order_counters(function *fun, unsigned c0, unsigned first_site, unsigned first_arc);
void pi_unit_add_arc(const struct pi_arc *a);  /* an arc of the last function added */
void pi_unit_add_line(unsigned site, uint32_t file, unsigned line); /* file: strtab; line 0: a gcov block ends */
int pi_unit_func_index(tree fndecl);     /* -1 if fndecl has no entry (or no switches) */
tree pi_fnon_ref(unsigned func);         /* __perfinst_fnon[func] */
const char *pi_fnon_asm_name(void);      /* its symbol, for the jump slots' asm; NULL: none */
void pi_unit_add_succ(unsigned site, unsigned succ_site);
unsigned pi_unit_nsites(void);
bool pi_unit_instrumented(void);       /* may a function body hold instrumentation? */
tree pi_counter_ref(unsigned counter);   /* ARRAY_REF of the unit's TLS counter array */
HOST_WIDE_INT pi_counter_index(tree ref, tree ctr); /* REF names counter K of CTR at a constant index: K; else -1 */
tree pi_counter_decl(void);              /* that array (NULL_TREE before the first counter) */
tree pi_counter_offset_decl(void);       /* -fPIC: its offset from %fs:0 when static, or NULL_TREE */
unsigned pi_unit_add_icall(void);        /* a new indirect-call inline cache (unit.cc) */
tree pi_icall_decl(void);                /* __perfinst_ctr_icall, or NULL_TREE */
tree pi_icall_slot_ref(unsigned k, unsigned word); /* its word 0 or 2 (a target) or 1 or 3 (its hits) */
char *pi_icall_asm_template(unsigned k, unsigned site); /* clean-copies=final: a call's whole cache, one asm */
bool pi_is_icall_asm(const gimple *g);  /* such an asm */
void pi_icall_asm_rebase(gimple *g, tree base, bool flat); /* -fPIC: its slots through BASE (pass-tls.cc) */
#define PI_OOL_ASM_END "2:"  /* the last line of such an asm and of pi_ctr_base_asm_template's, after `\t.subsection 0` */
bool pi_ctr_base_asm_ok(void);          /* -fPIC: the counters' offset may be one asm */
char *pi_ctr_base_asm_template(void);   /* that asm, one output (pass-tls.cc) */
bool pi_ctr_base_asm_line(const char *l, size_t n); /* its first line in the assembly */
bool pi_ctr_base_asm_template_p(const char *t); /* T is that asm's template */
const char *pi_asm_name(tree decl);      /* its symbol as the assembly names it */
bool pi_is_own_decl(tree decl);          /* functions and variables the plugin made */
bool pi_skip_function(tree fndecl);      /* never instrumented (the gates' policy) */
bool pi_ifunc_resolver(tree fndecl);     /* an ifunc resolver, or called only by them */
bool pi_split_part(tree fndecl);         /* F.part.N of the early ipa-split (count-at=late) */
bool pi_counted_late(tree fndecl);      /* pass-count.cc: counted after the early inliner */
bool pi_is_lambda_function(tree fndecl); /* frontend.cc: a member of a C++ lambda's closure */
void pi_unit_prepare(void);              /* while parsing: make the registration code */
void pi_unit_finish(void);               /* at the start of IPA: sizes and the UNIT chunk */

/* The text of a site marker: an empty asm statement the late RTL pass
 * turns into a label (see pass-ranges.cc). */
#define PI_MARKER_PREFIX "# perfinst site "

/* ---- registration hooks of each file ---------------------------------- */
void pi_register_pragmas(void *gcc_data, void *user_data);
void pi_pragma_start_function(void *gcc_data, void *user_data);
void pi_pragma_finish_decl(void *gcc_data, void *user_data);
void pi_pragma_finish_unit(void);
void pi_finish_parse_function(void *gcc_data, void *user_data);
void pi_pre_genericize(void *gcc_data, void *user_data);
void pi_register_attributes(void *gcc_data, void *user_data);
opt_pass *pi_make_count_pass(gcc::context *ctxt);
opt_pass *pi_make_count_late_pass(gcc::context *ctxt); /* SIMPLE_IPA, before "profile" */
opt_pass *pi_make_keep_inlined_pass(gcc::context *ctxt); /* after "einline" */
tree pi_tmp_reg(tree type, const char *name);
tree pi_asm_operand(const char *constraint, tree op); /* an asm's input or output (pass-count.cc) */
opt_pass *pi_make_ranges_pass(gcc::context *ctxt);
opt_pass *pi_make_tailjump_pass(gcc::context *ctxt);
const char *pi_copy_entry_label(tree g); /* copy-calls=direct: the label past g.count.N's own test, or NULL */
opt_pass *pi_make_split_pass(gcc::context *ctxt);
opt_pass *pi_make_blocking_pass(gcc::context *ctxt); /* pass-blocking.cc: `blocking` */
opt_pass *pi_make_feedback_pass(gcc::context *ctxt); /* pass-feedback.cc */
opt_pass *pi_make_tier_pass(gcc::context *ctxt);
opt_pass *pi_make_fbrepair_pass(gcc::context *ctxt); /* pass-feedback.cc: the applied counts kept consistent, before expansion */
void pi_feedback_repair_counts(function *fun, const char *when); /* pass-feedback.cc (and pass-coldsplit.cc, before the split) */
opt_pass *pi_make_tls_pass(gcc::context *ctxt);
opt_pass *pi_make_loopmarks_off_pass(gcc::context *ctxt); /* before "ldist" (pass-loopmarks.cc) */
opt_pass *pi_make_loopmarks_on_pass(gcc::context *ctxt);  /* after "vect" */
bool pi_is_site_marker(gimple *g);     /* a site marker alone, or with its block's update (copies.cc) */
opt_pass *pi_make_tier_late_pass(gcc::context *ctxt); /* before "final": the cold tier's section */
void pi_copy_entries_finish(void); /* the unit's end: weak stand-ins of other units' g.pi_entry (pass-tailjump.cc) */
opt_pass *pi_make_fbread_pass(gcc::context *ctxt); /* pass-feedback.cc: feedback-quality=ipa */
opt_pass *pi_make_fblate_pass(gcc::context *ctxt); /* pass-feedback.cc: profiles taken at=late, before "profile" */
void pi_promote_find_late(function *fun);          /* pass-promote.cc: promote-call at=late (from fblate) */
opt_pass *pi_make_fbglobal_pass(gcc::context *ctxt);     /* after "profile" */
opt_pass *pi_make_fbglobal_ipa_pass(gcc::context *ctxt); /* before "inline" */
opt_pass *pi_make_coldinl_pass(gcc::context *ctxt);      /* before "inline": -O2's verdict on call sites that ran little */
opt_pass *pi_make_coldinl_restore_pass(gcc::context *ctxt); /* after "inline": the counts again */
opt_pass *pi_make_inlkeep_pass(gcc::context *ctxt);         /* after "inline": inline-counts=keep */
opt_pass *pi_make_inlkeep_restore_pass(gcc::context *ctxt); /* right after IPA: GUESSED again */
bool pi_feedback_ipa_quality(void); /* feedback-quality=ipa in effect in this unit */
/* pass-feedback.cc: was a branch profile applied to this function (or the
   one it was cloned from)?  pass-blockorder.cc: Ext-TSP after "bbro" */
bool pi_feedback_applied(tree decl);
/* pass-feedback.cc: is a feedback file applied to DECL's unit (in lto1: the
   attribute cc1 left, whose layout arguments it sets in pi_opt) */
bool pi_feedback_on(tree decl);
opt_pass *pi_make_fblto_pass(gcc::context *ctxt); /* after "profile", cc1 with -flto: the facts for lto1 */
/* pass-copyprof.cc: a profile per inlined copy */
opt_pass *pi_make_copyprof_pass(gcc::context *ctxt); /* right after IPA, before "adjust_alignment" */
void pi_copyprof_reserve(void);                     /* pi_unit_finish: the copies' counter pool */
void pi_copyprof_note_sites(function *fun, const vec<basic_block> &order); /* where a profile is applied */
unsigned pi_unit_add_counters(unsigned n);          /* unit.cc: N counters more, the first's index */
int pi_unit_counter_func(unsigned counter);         /* the function whose site or arc owns COUNTER, or -1 */
const char *pi_unit_func_name(unsigned func);
bool pi_counter_update_add(gimple *store, tree ctr, HOST_WIDE_INT *add); /* copies.cc: STORE ends ctr[K] += *ADD */
void pi_counter_update_text(char *buf, size_t n, HOST_WIDE_INT add, tree ctr, unsigned long long k); /* its asm */
bool pi_feedback_hot_tier(tree decl); /* pass-feedback.cc: function-tier tier=hot, its own or its origin's (pass-pad.cc) */
opt_pass *pi_make_pad_pass(gcc::context *ctxt);         /* pass-pad.cc: pad=hot, before "alignments" */
opt_pass *pi_make_pad_restore_pass(gcc::context *ctxt); /* after "alignments" */
opt_pass *pi_make_blockorder_pass(gcc::context *ctxt);
/* pass-coldsplit.cc: the plugin's hot/cold split around "bbpart" */
opt_pass *pi_make_coldsplit_pass(gcc::context *ctxt);
opt_pass *pi_make_coldsplit_restore_pass(gcc::context *ctxt);
/* pass-coldsplit.cc: a dispatch loop kept whole keeps its dispatch tails (around "jump2") */
opt_pass *pi_make_tails_pass(gcc::context *ctxt);
opt_pass *pi_make_tails_restore_pass(gcc::context *ctxt);
void pi_feedback_report(void);
/* pass-count.cc: how sites number a function's blocks (pass-feedback.cc
 * numbers them the same way to apply a profile) */
basic_block pi_cfg_entry(function *fun);
void pi_cfg_order(function *fun, basic_block entry, sbitmap in, vec<basic_block> &order);
uint64_t pi_cfg_checksum(const vec<basic_block> &order);
void pi_cfg_split_markers(function *fun);
/* a block of code counted before it was inlined here (its site marker),
   which a function counted after the early inliner leaves out of its CFG */
bool pi_holds_site_marker(basic_block bb);
/* arcs.cc and lines.cc, run from the count pass: a function counted whole
 * gets its flow graph and counters on the arcs off a spanning tree
 * (first: gcov's first block; block_counter: per block of order, its own
 * counter or -1); false when it cannot (it then counts its blocks as
 * before, without arcs) */
void pi_add_increment(gimple_seq *seq, tree ref); /* pass-count.cc: `REF += 1` at the end of *seq */
bool pi_arcs_instrument(function *fun, const vec<basic_block> &order, const vec<int> &site_of,
                        sbitmap leave, const vec<bool> &live, basic_block bare_ret, basic_block first,
                        vec<int> &block_counter);
void pi_lines_record(function *fun, basic_block first, const vec<int> &site_of);
bool pi_edge_line(edge e, uint32_t *file, uint32_t *line, bool *last, bool *phi); /* gcov's block on e (its line, 0 if none; LAST: gcov lists it under no line; PHI: not gcov's, only a PHI argument's line) */
bool pi_lines_split_by_call(basic_block bb); /* gcov splits bb after a call that may not return
                                                (not only after a volatile asm) */
/* pass-watch.cc, run from the count pass */
extern bool pi_watch_seen;
bool pi_watch_any(function *fun);
void pi_watch_instrument(function *fun, unsigned func);
/* narrow.cc, run from the count pass: a narrow counter's update and spill */
void pi_narrow_increment(basic_block bb, gimple_stmt_iterator *gsi, tree ref, unsigned site,
                         unsigned counter, unsigned width, location_t loc);
/* pass-fnprobe.cc, run from the count pass: combinations and dormant classes */
bool pi_fnprobe_wanted(const struct pi_directive_spec *specs, int nspec, bool marked);
void pi_fnprobe_instrument(function *fun, basic_block entry, unsigned site,
                           const struct pi_directive_spec *specs, int nspec);
/* pass-ri.cc: runtime instrumentation */
opt_pass *pi_make_ri_pass(gcc::context *ctxt);
/* emit-expr.cc, from the pragma handler: emit(EXPR) as a call, or
 * NULL_TREE after an error (given at loc) */
tree pi_ri_emit_call(const char *expr, location_t loc);
/* pass-sharing.cc: the sharing probes, late (after "optimized") */
extern bool pi_sharing_seen;
opt_pass *pi_make_sharing_pass(gcc::context *ctxt);
void pi_sharing_alloc_finish(void); /* align-alloc sites not found, reported */
/* repair-sharing.cc: align-global and pad-field, in the front end; the
 * names of structs (a tag, or the typedef of an anonymous struct); the
 * ledger of what a feedback rebuild applied (.perfinst_share_applied) */
void pi_sharing_repair_register(const char *plugin_name);
const char *pi_sharing_struct_name(tree type); /* NULL: no name */
void pi_sharing_applied(const struct pifb_rec *r);
void pi_sharing_not_applied(const struct pifb_rec *r, location_t loc, const char *why); /* warns once */
/* May r be applied now?  Its group complete (not cut by feedback-only) and,
 * with need_padding, the group's pad-field applied in this unit; else why. */
bool pi_sharing_group_ready(const struct pifb_rec *r, bool need_padding, char *why, size_t n);
void pi_sharing_repair_finish(void); /* end of the unit: errors for half repairs, the ledger's section */
/* repair-arrays.cc: pad-array (arrays of scalars padded apart) and the
 * arrays' facts for the plan, once per unit after the SSA build */
opt_pass *pi_make_arrays_pass(gcc::context *ctxt);
/* pass-inlsize.cc: the inliner sees counted functions without their
 * counters (after every "local-fnsummary", and after "fnsummary") */
extern bool pi_inlsize_active;
/* perfinst.cc: the plugin scaled the IPA inliner's limits (all, loops) */
extern bool pi_inline_limits_scaled;
opt_pass *pi_make_inlsize_pass(gcc::context *ctxt);
opt_pass *pi_make_inlsize_ipa_pass(gcc::context *ctxt);
/* pass-promote.cc: promote-call, indirect calls made speculative direct calls */
opt_pass *pi_make_promote_find_pass(gcc::context *ctxt);
opt_pass *pi_make_promote_pass(gcc::context *ctxt);
void pi_promote_report(void);
/* pass-count.cc: a site marker; return-site.cc: the function's return
 * block left bare for ipa-split (its counter on the edges into it, its
 * marker put back by pass-split in the counting copy) */
gasm *pi_volatile_asm(const char *text, location_t loc); /* pass-count.cc: no operand */
gasm *pi_site_marker(unsigned site, location_t loc);
basic_block pi_bare_return_block(function *fun, basic_block entry);
void pi_return_site_instrument(basic_block r, unsigned site, tree counter, location_t loc);
void pi_return_site_mark(function *fun, const vec<basic_block> &counting);
/* copies.cc: the counting and the clean copy, what pass-split,
 * pass-countfn and return-site share */
tree pi_clone_origin(tree decl); /* a clone's origin, one step */
void pi_countfn_note(tree copy, tree f); /* f.count.N (pass-countfn.cc) is f's */
tree pi_countfn_origin(tree decl);       /* f for f.count.N, else NULL_TREE */
void pi_countfn_register_gates(const char *plugin_name); /* counting-opt=lean's passes without an option */
bool pi_countfn_has_copy(tree f);        /* f is the clean copy of an f.count.N */
tree pi_countfn_copy(tree f);            /* f.count.N for f, else NULL_TREE */
bool pi_split_instrumented(function *fun);
bool pi_single_body(function *fun); /* clean-copies=loops|none: FUN keeps one, counting body */
void pi_single_body_finish(function *fun, const vec<basic_block> &bbs); /* its return site, its updates as asm */
bool pi_kept_one_body(tree decl);        /* pi_single_body_finish kept DECL's one body */
void pi_split_strip(const vec<basic_block> &bbs, bitmap dead);
int pi_split_switch_index(tree decl);
tree pi_split_mode_register(void);
edge pi_split_add_test(basic_block d, int fi, basic_block on); /* D: if (SWITCH != 0) goto ON */
unsigned pi_counters_as_asm(function *fun, bool with_marker);
bool pi_counter_asm_parse(gimple *g, tree ctr, HOST_WIDE_INT *add, HOST_WIDE_INT *off); /* one of its updates */
const char *pi_asm_after_marker(const char *t); /* an asm's text past the site marker it opens with */
bool pi_counter_or_marker_asm(gimple *g); /* a counter update's asm or a site marker */
bool pi_counter_update_asm(gimple *g);     /* a counter update's asm */
bool pi_write_back_template(const char *t, const char *ctr); /* a loop counter's write-back asm, `ctr[K] += REG` */
bool pi_based_update_template(const char *t); /* an update through the counters' base, `ctr[K] += N` */
void pi_counter_asm_rebase(gimple *g, HOST_WIDE_INT add, HOST_WIDE_INT disp, tree base); /* through a base (pass-tls.cc) */
unsigned pi_promote_loop_counters(function *fun); /* loop-counters=register: a loop's counters in registers */
void pi_split_update(function *fun); /* after a split's edits: dominators, loops, SSA */
bool pi_entry_jump_usable(void);
unsigned int pi_split_rerun_early_passes(function *fun); /* switch-again=yes; returns TODO flags */
/* pass-countfn.cc: counting=function, f's counting copy as f.count */
bool pi_countfn_late_ok(function *fun); /* clean-copies=late: can FUN (cfun) be split at the end of GIMPLE? */
opt_pass *pi_make_latecopy_pass(gcc::context *ctxt); /* clean-copies=late: after "optimized" */
bool pi_countfn_final_body(tree f); /* clean-copies=final: f is its f.count.N's assembly less the counters */
/* finalcopy.cc: clean-copies=final's text */
void pi_final_capture_start(void);          /* what GCC writes from now on, into memory */
char *pi_final_capture_end(size_t *len);    /* ... until now: the text (malloc'd) */
void pi_final_write(const char *text, size_t len);
void pi_final_mark_tail_calls(function *copy); /* (cfun) the copy's calls f may make tail calls */
opt_pass *pi_make_finaltails_pass(gcc::context *ctxt); /* ... less those with stack arguments */
opt_pass *pi_make_finaldead_pass(gcc::context *ctxt); /* ... whose counters' loads and adds f leaves out */
#define PI_TAIL_TAG "\t# perfinst tail" /* the end of such a call's counter update */
#define PI_CTR_BASED_TAG "\t# perfinst ctr" /* the end of a counter update through a base register (copies.cc) */
#define PI_ICALL_BASED_TAG "\t# perfinst icall" /* -fPIC: the end of an inline cache's first line (pass-tls.cc) */
bool pi_final_derive(const char *text, size_t len, const char *copy_name, const char *f_name, const char *ctr,
                     const char *icall, unsigned (*unique)(void), char **body, char **chunks, char **cold,
                     const char **why);
/* pass-ranges.cc */
unsigned pi_ranges_unique_id(void); /* a CODE chunk's section id */
const char *pi_rtl_asm_template(rtx_insn *insn); /* an asm insn's template, else NULL */
void pi_rtl_set_asm_template(rtx_insn *insn, const char *text); /* ... made TEXT */
/* pass-uninit.cc: no warnings of a counting copy; no -Wmaybe-uninitialized
   around "uninit" in a function with counter updates */
void pi_quiet_counting_copies(const char *plugin_name);
opt_pass *pi_make_uninit_off_pass(gcc::context *ctxt);
/* perfinst.cc: count-at=late's inliner limits, scaled at the late point */
void pi_scale_inline_limits(void);
opt_pass *pi_make_uninit_on_pass(gcc::context *ctxt);
opt_pass *pi_make_countfn_pass(gcc::context *ctxt);
opt_pass *pi_make_countfn_args_pass(gcc::context *ctxt); /* RTL, after "expand" */
opt_pass *pi_make_baremarkers_pass(gcc::context *ctxt);  /* RTL, before "jump2" */
opt_pass *pi_make_latchcopy_pass(gcc::context *ctxt);   /* RTL, before "bbro" */

#endif
