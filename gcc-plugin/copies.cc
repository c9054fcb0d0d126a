/* copies.cc — an instrumented function's two copies, counting and clean:
 * what the passes that make them share (pass-split.cc: both copies in one
 * function; pass-countfn.cc: the counting copy a function of its own,
 * f.count.N; return-site.cc: the return block's marker, put back in the
 * counting copy).
 *
 *   - what is instrumentation: counter stores, site markers, probe calls
 *     (pi_split_instrumented), and deleting it from the clean copy
 *     (pi_split_strip);
 *   - the test that chooses a copy: the function's switch byte, or the
 *     mode register __perfinst_on (pi_split_switch_index,
 *     pi_split_add_test), and whether the entry may be a jump instead
 *     (pi_entry_jump_usable);
 *   - a clone's origin, through GCC's clones and the counting copies
 *     (pi_clone_origin; pi_countfn_note records f.count.N -> f);
 *   - the fix-ups after a split (pi_split_update) and GCC's switch passes
 *     run again on the clean copy (pi_split_rerun_early_passes).
 *
 * These used to live in pass-split.cc, which pass-countfn.cc and
 * return-site.cc called while it called them back; here they call
 * nothing of the passes.
 */
#include "plugin.h"
#include "cfgloop.h"
#include "cfganal.h"
#include "tree-ssa.h"
#include "tree-into-ssa.h"
#include "tree-ssanames.h"
#include "tree-cfgcleanup.h"
#include "sreal.h"

/* f.count -> f, and the f that have one (roots of GCC's collector where
 * first made: plugin.h) */
static hash_map<tree, tree> *counting_copies;
static hash_map<tree, tree> *counted_fns; /* f -> f.count */

void pi_countfn_note(tree copy, tree f)
{
    if (!counting_copies) {
        counting_copies = new hash_map<tree, tree>;
        pi_gc_root_map(&counting_copies);
    }
    counting_copies->put(copy, f);
    if (!counted_fns) {
        counted_fns = new hash_map<tree, tree>;
        pi_gc_root_map(&counted_fns);
    }
    counted_fns->put(f, copy);
}

bool pi_countfn_has_copy(tree f)
{
    return counted_fns && counted_fns->get(f);
}

tree pi_countfn_copy(tree f)
{
    tree *c = counted_fns ? counted_fns->get(f) : NULL;
    return c ? *c : NULL_TREE;
}

tree pi_countfn_origin(tree decl)
{
    tree *f = counting_copies ? counting_copies->get(decl) : NULL;
    return f ? *f : NULL_TREE;
}

static tree mode_register;

tree pi_split_mode_register(void)
{
    if (!mode_register) {
        mode_register = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("__perfinst_on"),
                                   integer_type_node);
        DECL_EXTERNAL(mode_register) = 1;
        TREE_PUBLIC(mode_register) = 1;
        TREE_THIS_VOLATILE(mode_register) = 0;
        DECL_ARTIFICIAL(mode_register) = 1;
        DECL_IGNORED_P(mode_register) = 1;
        varpool_node::get_create(mode_register);
        pi_gc_root(&mode_register);
    }
    return mode_register;
}

/* The counter array of any unit (LTO may have renamed it). */
static bool is_counter_var(tree t)
{
    if (!t || TREE_CODE(t) != VAR_DECL || !DECL_THREAD_LOCAL_P(t) || !DECL_NAME(t))
        return false;
    return strncmp(IDENTIFIER_POINTER(DECL_NAME(t)), "__perfinst_ctr", 14) == 0;
}

static bool is_counter_store(gimple *g)
{
    return gimple_store_p(g) && gimple_assign_single_p(g) && is_counter_var(get_base_address(gimple_assign_lhs(g)));
}

/* The longest site marker, with its "\n\t", that pi_counters_as_asm puts
 * before an update in one asm (pi_counter_asm_rebase splits it out again
 * into a buffer of this size) */
#define MARKER_IN_UPDATE_MAX 128

/* An asm's text past the site marker it may open with (a block's marker
 * and its counter update in one asm: pi_counters_as_asm, pass-ranges.cc),
 * or T. */
const char *pi_asm_after_marker(const char *t)
{
    if (strncmp(t, PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) != 0)
        return t;
    const char *nl = strchr(t, '\n');
    return nl && nl[1] == '\t' ? nl + 2 : t;
}

/* A counter update made one asm (pi_counters_as_asm, below), alone or
 * after its block's site marker. */
static bool is_counter_asm(gimple *g)
{
    if (gimple_code(g) != GIMPLE_ASM)
        return false;
    const char *t = pi_asm_after_marker(gimple_asm_string(as_a<gasm *>(g)));
    return strncmp(t, "{addq $", 7) == 0 && strstr(t, "__perfinst_ctr") && gimple_asm_ninputs(as_a<gasm *>(g)) == 0 &&
           gimple_asm_noutputs(as_a<gasm *>(g)) == 0;
}

/* T is the template of a loop counter's write-back into the counters
 * named CTR, `ctr[K] += REG` (write_back below: the local-exec asm with
 * the register as its one input); finalcopy.cc's finaldead reads it too */
bool pi_write_back_template(const char *t, const char *ctr)
{
    static const char head[] = "{addq %0, %%fs:";
    size_t n = strlen(ctr);
    return strncmp(t, head, sizeof head - 1) == 0 && strncmp(t + sizeof head - 1, ctr, n) == 0 &&
           strncmp(t + sizeof head - 1 + n, "@tpoff+", 7) == 0;
}

static bool is_write_back_asm(gimple *g)
{
    if (gimple_code(g) != GIMPLE_ASM)
        return false;
    gasm *a = as_a<gasm *>(g);
    tree ctr = pi_counter_decl();
    return ctr && gimple_asm_ninputs(a) == 1 && gimple_asm_noutputs(a) == 0 &&
           pi_write_back_template(gimple_asm_string(a), pi_asm_name(ctr));
}

static bool is_site_marker(gimple *g)
{
    return gimple_code(g) == GIMPLE_ASM &&
           strncmp(gimple_asm_string(as_a<gasm *>(g)), PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) == 0;
}

bool pi_is_site_marker(gimple *g) { return is_site_marker(g); }

/* T is the template of an update through the counters' base
 * (pi_counter_asm_rebase: UPDATE_BASED, its tail-call tag after it or
 * not); finalcopy.cc's finaldead reads it too */
bool pi_based_update_template(const char *t)
{
    return strncmp(t, "{addq $", 7) == 0 && strstr(t, "}" PI_CTR_BASED_TAG);
}

static bool is_based_counter_asm(gimple *g)
{
    if (gimple_code(g) != GIMPLE_ASM)
        return false;
    gasm *a = as_a<gasm *>(g);
    return pi_based_update_template(gimple_asm_string(a)) && gimple_asm_ninputs(a) == 1 && gimple_asm_noutputs(a) == 0;
}

/* A counter update's asm (its block's marker in it or not; either form),
 * or a site marker alone: what clean-copies=final's f leaves out
 * (finalcopy.cc). */
bool pi_counter_update_asm(gimple *g) { return is_counter_asm(g) || is_based_counter_asm(g); }
bool pi_counter_or_marker_asm(gimple *g) { return pi_counter_update_asm(g) || is_site_marker(g); }

/* A call to one of libperfinst's probes (include/perfinst.h's ABI list;
 * not the registration calls of the generated constructor). */
static bool is_probe_call(gimple *g)
{
    static const char *const probes[] = {
        "__perfinst_trap", "__perfinst_threshold", "__perfinst_cycles_begin", "__perfinst_cycles_end",
        "__perfinst_trace_start", "__perfinst_trace_stop", "__perfinst_watch",
        "__perfinst_fn_enter", "__perfinst_fn_exit", "__perfinst_spill", /* pass-fnprobe.cc, narrow.cc */
        "__perfinst_icall_miss2", /* pass-count.cc: indirect-call targets */
    };
    tree fn = is_gimple_call(g) ? gimple_call_fndecl(g) : NULL_TREE;
    if (!fn || !DECL_NAME(fn))
        return false;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        if (strcmp(IDENTIFIER_POINTER(DECL_NAME(fn)), probes[i]) == 0)
            return true;
    return false;
}

/* Two sweeps: statements that define nothing first (stores, markers, probe
 * calls without a result), then probe calls with a result (the cycles
 * start time), whose uses the first sweep removed.  Then the counters'
 * loads and adds, dead now (DEAD: the values stored, for
 * simple_dce_from_worklist once the SSA form is updated: until then the
 * counting copy's stores still use the clean copy's names), so that the
 * passes run again after the split (rerun_early_passes) see empty blocks
 * where the counters were. */
static void strip_statements(const vec<basic_block> &bbs);

void pi_split_strip(const vec<basic_block> &bbs, bitmap dead)
{
    for (unsigned i = 0; i < bbs.length(); i++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bbs[i]); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (is_counter_store(g) && TREE_CODE(gimple_assign_rhs1(g)) == SSA_NAME)
                bitmap_set_bit(dead, SSA_NAME_VERSION(gimple_assign_rhs1(g)));
            /* (a loop's register of increments, callfree-counters=delta) */
            else if (is_write_back_asm(g) && TREE_CODE(TREE_VALUE(gimple_asm_input_op(as_a<gasm *>(g), 0))) == SSA_NAME)
                bitmap_set_bit(dead, SSA_NAME_VERSION(TREE_VALUE(gimple_asm_input_op(as_a<gasm *>(g), 0))));
        }
    strip_statements(bbs);
}

static void strip_statements(const vec<basic_block> &bbs)
{
    for (int sweep = 0; sweep < 2; sweep++)
        for (unsigned i = 0; i < bbs.length(); i++)
            for (gimple_stmt_iterator gsi = gsi_start_bb(bbs[i]); !gsi_end_p(gsi);) {
                gimple *g = gsi_stmt(gsi);
                bool probe = is_probe_call(g) && (sweep == 1) == (gimple_call_lhs(g) != NULL_TREE);
                /* (an indirect call's cache as one asm: pi_icall_asm_template) */
                if ((sweep == 0 && (is_counter_store(g) || is_site_marker(g) || is_counter_asm(g) || is_write_back_asm(g) ||
                                    pi_is_icall_asm(g))) ||
                    probe) {
                    unlink_stmt_vdef(g);
                    gsi_remove(&gsi, true);
                    release_defs(g);
                } else
                    gsi_next(&gsi);
            }
}

/* The function whose switch a body tests: itself when this unit gave it
 * an entry; for a clone GCC made (ipa-cp's .constprop, ipa-sra's .isra,
 * ipa-split's .part), the function it was cloned from, so an overlay that
 * turns that function on or off covers its clones too, and the test is
 * the one-instruction `cmpb $0, __perfinst_fnon+F(%rip)` rather than a
 * load of the mode register (an int in libperfinst, reached through a copy
 * relocation) and a `test`.  -1: none (the mode register decides). */
int pi_split_switch_index(tree decl)
{
    for (int depth = 0; depth < 8 && decl && TREE_CODE(decl) == FUNCTION_DECL; depth++) {
        int fi = pi_unit_func_index(decl);
        if (fi >= 0)
            return fi;
        decl = pi_clone_origin(decl);
    }
    return -1;
}

/* The function a clone GCC made was made from (one step), or NULL_TREE. */
tree pi_clone_origin(tree decl)
{
    if (tree f = pi_countfn_origin(decl))
        return f; /* f.count (pass-countfn.cc) */
    cgraph_node *n = cgraph_node::get(decl);
    tree up = n && n->former_clone_of ? n->former_clone_of
              : n && n->clone_of      ? n->clone_of->decl
                                      : DECL_ABSTRACT_ORIGIN(decl);
    return up == decl ? NULL_TREE : up;
}

/* The early passes whose work counters prevent (a case block holding a
 * counter is not an empty forwarder) and that no later pass redoes: in
 * GCC 12, if-to-switch and switch conversion (a switch of constants into
 * a table load, an if-chain into a switch/bit test) run only before IPA.
 * GCC's own passes, run again on the function once its clean copy has no
 * counters; they leave the counting copy as it is (its case blocks are
 * not empty).  Returns the TODO flags still to do. */
unsigned int pi_split_rerun_early_passes(function *fun)
{
    static opt_pass *passes[2];
    if (!passes[0]) {
        passes[0] = make_pass_if_to_switch(g);
        passes[1] = make_pass_convert_switch(g);
    }
    unsigned int todo = 0;
    for (unsigned i = 0; i < sizeof passes / sizeof passes[0]; i++) {
        if (!passes[i]->gate(fun))
            continue;
        if (todo & TODO_update_ssa_any)
            update_ssa(todo & TODO_update_ssa_any);
        if (todo & TODO_cleanup_cfg)
            cleanup_tree_cfg();
        todo = passes[i]->execute(fun) | passes[i]->todo_flags_finish;
    }
    return todo;
}

/* entry=jump needs a plain `jmp *mem` in AT&T syntax: with indirect
 * branch tracking (-fcf-protection=branch: the targets would need endbr64),
 * retpolines (-mindirect-branch=thunk…) or -masm=intel the entries keep the
 * byte test. */
bool pi_entry_jump_usable(void)
{
    return pi_opt.entry_jump && !(flag_cf_protection & CF_BRANCH) &&
           ix86_indirect_branch == indirect_branch_keep && ix86_asm_dialect == ASM_ATT;
}

/* Does FUN hold counter updates or probe calls? */
bool pi_split_instrumented(function *fun)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (is_counter_store(gsi_stmt(gsi)) || is_probe_call(gsi_stmt(gsi)))
            return true;
    return false;
}

/* clean-copies=loops|none (not the default): does FUN keep one body, the
 * counting one, whatever the mode?  Every function split into a clean and a
 * counting copy is compiled twice after IPA, which no option of the
 * counting copy brings under 1.5x plain -O2's compile (bench/RESULTS.md,
 * 2026-11-29 12:40); a function compiled once counts as
 * -fprofile-generate's functions do, also with PERFINST_MODE=off, an
 * overlay or perfinst_disable() (its counts go on; docs/design.md "Cost").
 * none: every function that only counts; loops: those with no loop
 * (no back edge after inlining: entered, they run a bounded number of
 * blocks, so counting them in place costs a few adds per call).  A
 * function with a probe (trap, threshold, cycles, combinations' and
 * dormant classes' function probes, watch, a narrow counter's spill, an
 * indirect call's target) keeps both copies: its probes must stop when
 * it is off. */
bool pi_single_body(function *fun)
{
    if (pi_opt.clean_copies == PI_CLEAN_ALL)
        return false;
    /* late: one body through every GIMPLE pass, split into f and f.count.N
       just before expansion (pass-countfn.cc, latecopy), where it can be */
    if (pi_opt.clean_copies == PI_CLEAN_LATE || pi_opt.clean_copies == PI_CLEAN_FINAL)
        return pi_countfn_late_ok(fun);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (is_probe_call(gsi_stmt(gsi)))
            return false;
    return pi_opt.clean_copies == PI_CLEAN_NONE || !mark_dfs_back_edges(fun);
}

/* FUN (cfun), a function that keeps one body (pi_single_body, or one
 * whose blocks cannot be copied): its return blocks' deferred site
 * markers (return-site.cc); with clean-copies and counting-opt=fast or
 * lean its counter updates as one asm each, as in a counting copy
 * (pi_counters_as_asm). */
static hash_set<tree> *single_bodies;

void pi_single_body_finish(function *fun, const vec<basic_block> &bbs)
{
    if (!single_bodies) {
        single_bodies = new hash_set<tree>;
        pi_gc_root_set(&single_bodies);
    }
    single_bodies->add(fun->decl);
    pi_return_site_mark(fun, bbs);
    if (pi_opt.clean_copies != PI_CLEAN_ALL && !pi_opt.callfree_gcc && pi_promote_loop_counters(fun))
        pi_split_update(fun);
    if (pi_opt.clean_copies != PI_CLEAN_ALL && pi_opt.counting_opt != PI_COPT_FULL && pi_counters_as_asm(fun, true))
        pi_split_update(fun);
}

/* Did pi_single_body_finish keep DECL's one body (its updates may be asm
 * now, which pi_split_instrumented does not see)? */
bool pi_kept_one_body(tree decl)
{
    return single_bodies && single_bodies->contains(decl);
}

/* At the end of D, whose single successor edge becomes the false edge:
 * `if (SWITCH != 0) goto ON;` where SWITCH is the function's switch byte
 * FI, or the mode register when FI < 0.  Returns the new true edge. */
edge pi_split_add_test(basic_block d, int fi, basic_block on)
{
    edge off = single_succ_edge(d);
    gimple_stmt_iterator gsi = gsi_last_bb(d);
    tree src = fi >= 0 ? pi_fnon_ref(fi) : pi_split_mode_register();
    tree flag = make_ssa_name(TREE_TYPE(src));
    gsi_insert_after(&gsi, gimple_build_assign(flag, src), GSI_NEW_STMT);
    gsi_insert_after(&gsi, gimple_build_cond(NE_EXPR, flag, build_zero_cst(TREE_TYPE(src)), NULL_TREE, NULL_TREE),
                     GSI_NEW_STMT);
    off->flags = (off->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    return make_edge(d, on, EDGE_TRUE_VALUE);
}

/* After a split's edits of FUN's blocks (copies, strips, the dispatch):
 * dominators and loops to be recomputed, the SSA form brought up to date. */
void pi_split_update(function *fun)
{
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    if (current_loops)
        loops_state_set(LOOPS_NEED_FIXUP);
    mark_virtual_operands_for_renaming(fun);
    update_ssa(TODO_update_ssa);
}

/* ---- the counting copy's counter updates as one instruction each ---------
 *
 * In the counting copy f.count.N (pass-countfn.cc) a counter update
 *
 *     _1 = __perfinst_ctr[K];  _2 = _1 + 1;  __perfinst_ctr[K] = _2;
 *
 * becomes what GCC's RTL made of it anyway, one read-modify-write:
 *
 *     __asm__ __volatile__ ("addq $1, %fs:__perfinst_ctr@tpoff+8*K");
 *
 * The three statements were two memory references in the virtual-operand
 * web of every late pass: each program load and store of the copy was
 * walked past every counter store by the alias oracle, each counter load
 * value-numbered, each update's value given a register by IRA.  The asm
 * has no operand (no VUSE, no VDEF, no register: with the counter as an
 * "m" operand GCC kept __perfinst_ctr@tpoff in a register across the
 * copy, and zstd's encoder spilled more): the walks pass over nothing, and
 * the counting copy compiles nearly as a copy without counters would
 * (bench/RESULTS.md, 2026-11-29 04:00).  It runs exactly as
 * often as its block (a volatile asm is neither deleted, merged with
 * another, nor moved out of its loop); the memory it changes is one no
 * statement of the copy reads or writes otherwise: a counter K is
 * converted only when every reference to it in the function is such an
 * update (a chain load -> additions of constants -> store in one block, each
 * value used once), so no load of K can be CSEd across the asm and no
 * store motion keeps K in a register.  Updates inside a loop none of whose
 * calls writes memory stay GCC's (call_free_loops): there store motion
 * pays.  (With counter-address=base the last GIMPLE pass, pass-tls.cc,
 * later gives a function's asms one register operand, the counters'
 * base: 6 bytes each, not 10.)
 * Returns the number of updates converted. */

/* The update's two forms: at the array's absolute offset from %fs:0 (as
 * written here), and through a register holding that offset plus a bias
 * (pass-tls.cc rewrites the first into the second: 6 bytes with a disp8
 * against 10; pi_counter_asm_parse reads the first). */
#define UPDATE_ABS "{addq $%lld, %%%%fs:%s@tpoff+%llu|add QWORD PTR fs:%s@tpoff+%llu, %lld}"
#define UPDATE_BASED "{addq $%lld, %%%%fs:%lld(%%0)|add QWORD PTR fs:[%%0%+lld], %lld}" PI_CTR_BASED_TAG

/* ctr[K] += ADD as pi_counters_as_asm writes it (UPDATE_ABS) into BUF. */
void pi_counter_update_text(char *buf, size_t n, HOST_WIDE_INT add, tree ctr, unsigned long long k)
{
    const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr));
    unsigned long long off = k * 8;
    snprintf(buf, n, UPDATE_ABS, (long long)add, name, off, name, off, (long long)add);
}

/* G, an update pi_counters_as_asm wrote for CTR: true, *ADD and *OFF (bytes). */
bool pi_counter_asm_parse(gimple *g, tree ctr, HOST_WIDE_INT *add, HOST_WIDE_INT *off)
{
    if (!is_counter_asm(g))
        return false;
    const char *t = pi_asm_after_marker(gimple_asm_string(as_a<gasm *>(g)));
    char name[256];
    long long a;
    unsigned long long o;
    int n = 0;
    if (sscanf(t, "{addq $%lld, %%%%fs:%255[^@]@tpoff+%llu|%n", &a, name, &o, &n) != 3 || n == 0 ||
        strcmp(name, IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr))) != 0)
        return false;
    *add = a;
    *off = (HOST_WIDE_INT)o;
    return true;
}

/* The update `ctr[K] += ADD` through BASE (ctr's offset from %fs:0 plus a
 * bias; DISP = 8*K - the bias), in place of G. */
void pi_counter_asm_rebase(gimple *g, HOST_WIDE_INT add, HOST_WIDE_INT disp, tree base)
{
    char text[256];
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    /* an update that its block's site marker opens (pi_counters_as_asm):
       the marker an asm of its own again, so that an asm with an operand
       starts no range (the operand's load before it stays in the range,
       as without the merge) */
    const char *t = gimple_asm_string(as_a<gasm *>(g)), *u = pi_asm_after_marker(t);
    if (u != t) {
        char marker[MARKER_IN_UPDATE_MAX];
        snprintf(marker, sizeof marker, "%.*s", (int)(u - t - 2), t);
        gsi_insert_before(&gsi, pi_volatile_asm(marker, gimple_location(g)), GSI_SAME_STMT);
    }
    snprintf(text, sizeof text, UPDATE_BASED, (long long)add, (long long)disp, (long long)disp, (long long)add);
    vec<tree, va_gc> *inputs = NULL;
    vec_safe_push(inputs, pi_asm_operand("r", base));
    gasm *a = gimple_build_asm_vec(ggc_strdup(text), inputs, NULL, NULL, NULL);
    gimple_asm_set_volatile(a, true);
    gimple_set_location(a, gimple_location(g));
    gsi_replace(&gsi, a, false);
}

struct ctr_update {
    gimple *load, *store;
    HOST_WIDE_INT add;
};

/* The update that ends with STORE (`ctr[K] = V`): V = LOAD(ctr[K]) + C1 + C2...,
 * each value used once, all in STORE's block. */
static bool match_update(gimple *store, tree ctr, ctr_update *u)
{
    tree lhs = gimple_assign_lhs(store), v = gimple_assign_rhs1(store);
    HOST_WIDE_INT add = 0;
    while (TREE_CODE(v) == SSA_NAME && has_single_use(v)) {
        gimple *d = SSA_NAME_DEF_STMT(v);
        if (!is_gimple_assign(d) || gimple_bb(d) != gimple_bb(store))
            return false;
        if (gimple_assign_rhs_code(d) == PLUS_EXPR && TREE_CODE(gimple_assign_rhs2(d)) == INTEGER_CST &&
            tree_fits_shwi_p(gimple_assign_rhs2(d))) {
            add += tree_to_shwi(gimple_assign_rhs2(d));
            v = gimple_assign_rhs1(d);
            continue;
        }
        if (gimple_assign_single_p(d) && gimple_vuse(d) && operand_equal_p(gimple_assign_rhs1(d), lhs, 0) &&
            get_base_address(gimple_assign_rhs1(d)) == ctr) {
            /* nothing else touches the counter between the two */
            for (gimple_stmt_iterator g = gsi_for_stmt(d); gsi_stmt(g) != store; gsi_next(&g)) {
                gimple *x = gsi_stmt(g);
                if (x != d && gimple_vdef(x) && is_gimple_assign(x) && operand_equal_p(gimple_assign_lhs(x), lhs, 0))
                    return false;
                if (x != d && gimple_vuse(x) && is_gimple_assign(x) && gimple_assign_single_p(x) &&
                    operand_equal_p(gimple_assign_rhs1(x), lhs, 0))
                    return false;
            }
            u->load = d;
            u->store = store;
            u->add = add;
            return add > 0 && add <= 0x7fffffff; /* addq's immediate */
        }
        return false;
    }
    return false;
}

bool pi_counter_update_add(gimple *store, tree ctr, HOST_WIDE_INT *add)
{
    ctr_update u;
    if (!match_update(store, ctr, &u))
        return false;
    *add = u.add;
    return true;
}

static tree mentions(tree *tp, int *walk_subtrees, void *ctr)
{
    if (*tp == (tree)ctr)
        return *tp;
    if (TYPE_P(*tp))
        *walk_subtrees = 0;
    return NULL_TREE;
}

/* The counter index of a reference to CTR, or -1. */
HOST_WIDE_INT pi_counter_index(tree ref, tree ctr)
{
    if (TREE_CODE(ref) != ARRAY_REF || TREE_OPERAND(ref, 0) != ctr || !tree_fits_shwi_p(TREE_OPERAND(ref, 1)))
        return -1;
    return tree_to_shwi(TREE_OPERAND(ref, 1));
}

/* Blocks of a loop with no call that writes memory: there GCC's store
 * motion keeps a counter in a register, and scalar evolution often turns
 * it into one add after the loop, which an asm would forbid (zstd -3 ran
 * 8.5 % more instructions with every update an asm).
 *
 * Only while the counters are few: store motion takes every counter of
 * such a loop nest out of its outermost call-free loop, each one then a
 * register live through the whole nest.  In a large branchy loop (a
 * scanner's character loop with a dozen conditions, each arm counted)
 * they outnumber the free registers: the counters, and the loop's own
 * values with them, are spilled to the stack, and the copy runs more
 * instructions than the asm's one add to memory per update would cost
 * (libyaml's yaml_emitter_analyze_scalar, inlined into
 * yaml_emitter_emit: 2.0x -O2's instructions; bench/RESULTS.md).  A nest
 * with more than MAX_MOVED_COUNTERS counters gets the asm. */
enum { MAX_MOVED_COUNTERS = 4 };

struct nest_ctr {
    int nest;        /* the outermost call-free loop */
    HOST_WIDE_INT k; /* a counter updated in it */
    location_t loc;
};

static int by_nest_ctr(const void *a, const void *b)
{
    const nest_ctr *x = (const nest_ctr *)a, *y = (const nest_ctr *)b;
    return x->nest != y->nest ? (x->nest > y->nest) - (x->nest < y->nest) : (x->k > y->k) - (x->k < y->k);
}

/* The outermost loop around BB that holds no call writing memory (none of
 * CALLING, by number) and is inside every loop that does, if BB's own loop
 * is such a loop; else NULL. */
static class loop *call_free_nest(basic_block bb, bitmap calling)
{
    class loop *l = bb->loop_father;
    if (!l || !loop_outer(l) || bitmap_bit_p(calling, l->num))
        return NULL;
    while (loop_outer(loop_outer(l)) && !bitmap_bit_p(calling, loop_outer(l)->num))
        l = loop_outer(l);
    return l;
}

static void call_free_loops(function *fun, tree ctr, bitmap blocks)
{
    /* the loops (by number) holding such a call, and those around them */
    auto_bitmap calling;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        if (!bb->loop_father || bitmap_bit_p(calling, bb->loop_father->num))
            continue;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (is_gimple_call(g) && gimple_vdef(g)) { /* (not const, pure or a prefetch) */
                for (class loop *l = bb->loop_father; l; l = loop_outer(l))
                    bitmap_set_bit(calling, l->num);
                break;
            }
        }
    }
    /* each call-free loop's outermost call-free loop (the nest store
       motion takes the counters out of), and the counters updated in each
       nest: (nest, K) pairs */
    auto_vec<nest_ctr> nest_ctrs;
    FOR_EACH_BB_FN(bb, fun)
    {
        class loop *l = call_free_nest(bb, calling);
        if (!l)
            continue;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            HOST_WIDE_INT k;
            if (is_gimple_assign(g) && gimple_assign_single_p(g) && gimple_vdef(g) &&
                (k = pi_counter_index(gimple_assign_lhs(g), ctr)) >= 0)
                nest_ctrs.safe_push({l->num, k, gimple_location(g)});
        }
    }
    nest_ctrs.qsort(by_nest_ctr);
    auto_bitmap crowded; /* nests with more than MAX_MOVED_COUNTERS counters */
    for (unsigned i = 0, n = 0; i < nest_ctrs.length(); i++) {
        if (i > 0 && nest_ctrs[i].nest != nest_ctrs[i - 1].nest)
            n = 0;
        if (i == 0 || nest_ctrs[i].nest != nest_ctrs[i - 1].nest || nest_ctrs[i].k != nest_ctrs[i - 1].k)
            n++;
        if (n > MAX_MOVED_COUNTERS && bitmap_set_bit(crowded, nest_ctrs[i].nest) && pi_opt.verbose)
            inform(nest_ctrs[i].loc,
                   "perfinst: %qD: a loop updating more than %d counters and calling nothing that writes memory: "
                   "its updates are %<asm%>, not moved out of the loop",
                   fun->decl, (int)MAX_MOVED_COUNTERS);
    }
    FOR_EACH_BB_FN(bb, fun)
    {
        class loop *l = call_free_nest(bb, calling);
        if (l && !bitmap_bit_p(crowded, l->num))
            bitmap_set_bit(blocks, bb->index);
    }
}

/* The site marker (alone: not already an update's) that U's update
 * follows in its block with nothing between but the update's own load and
 * adds, or NULL. */
static gimple *marker_before(const ctr_update &u)
{
    gimple_stmt_iterator gsi = gsi_for_stmt(u.load);
    for (gsi_prev(&gsi); !gsi_end_p(gsi) && is_gimple_debug(gsi_stmt(gsi)); gsi_prev(&gsi))
        ;
    if (gsi_end_p(gsi) || !is_site_marker(gsi_stmt(gsi)) || strchr(gimple_asm_string(as_a<gasm *>(gsi_stmt(gsi))), '\n'))
        return NULL;
    gimple *marker = gsi_stmt(gsi);
    /* then the load, its adds in a chain, the store */
    tree v = gimple_assign_lhs(u.load);
    for (gsi = gsi_for_stmt(u.load), gsi_next(&gsi); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (is_gimple_debug(g))
            continue;
        if (g == u.store)
            return gimple_assign_rhs1(g) == v ? marker : NULL;
        if (!is_gimple_assign(g) || gimple_assign_rhs_code(g) != PLUS_EXPR || gimple_assign_rhs1(g) != v)
            return NULL;
        v = gimple_assign_lhs(g);
    }
    return NULL;
}

unsigned pi_counters_as_asm(function *fun, bool with_marker)
{
    tree ctr = pi_counter_decl();
    /* the asm names the array by its local-exec offset, a constant of the
       link; pass-tls.cc rebases each onto the function's base register.
       -fPIC's dynamic models have no such constant: there pass-tls must
       rebase every one onto the offset it loads (it skips setjmp and
       nonlocal labels, which keep GCC's updates; at -O0 no asm is made
       here, and it rewrites GCC's loads and stores), and it does for any
       -fPIC unit with __perfinst_ctr_off (not -flto).  An update asm left in the
       local-exec form would not link into a shared object. */
    if (!ctr || !loops_for_fn(fun))
        return 0;
    if (DECL_TLS_MODEL(ctr) != TLS_MODEL_LOCAL_EXEC &&
        (!pi_counter_offset_decl() || !optimize || fun->calls_setjmp || fun->has_nonlocal_label))
        return 0;
    auto_bitmap in_loop;
    /* (with clean-copies=final too: f leaves out the stores into the
       counters that store motion puts at such a loop's exits, and the
       loads, adds and flags that only fed them, finalcopy.cc) */
    call_free_loops(fun, ctr, in_loop);
    /* every reference to the array, by counter: K -> its loads and stores */
    hash_map<int_hash<HOST_WIDE_INT, -1, -2>, unsigned> refs;  /* K -> references */
    hash_set<int_hash<HOST_WIDE_INT, -1, -2>> unsafe;          /* K read or written otherwise */
    auto_vec<ctr_update> updates;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        /* every mention of the array: a plain load or store of one
           counter, else (its address taken, a variable index, an asm or
           call operand) nothing of the array is converted */
        for (unsigned i = 0; i < gimple_num_ops(g); i++) {
            tree op = gimple_op(g, i);
            if (!op || !walk_tree_without_duplicates(&op, mentions, ctr))
                continue;
            HOST_WIDE_INT k = pi_counter_index(op, ctr);
            if (k < 0 || !is_gimple_assign(g) || !gimple_assign_single_p(g) || i > 1)
                return 0;
            refs.get_or_insert(k)++;
        }
        if (is_gimple_assign(g) && gimple_assign_single_p(g) && gimple_vdef(g) &&
            pi_counter_index(gimple_assign_lhs(g), ctr) >= 0) {
            ctr_update u;
            if (!bitmap_bit_p(in_loop, bb->index) && match_update(g, ctr, &u))
                updates.safe_push(u);
            else
                unsafe.add(pi_counter_index(gimple_assign_lhs(g), ctr));
        }
    }
    /* a counter whose references are all matched updates (two each) */
    hash_map<int_hash<HOST_WIDE_INT, -1, -2>, unsigned> matched;
    for (unsigned i = 0; i < updates.length(); i++)
        matched.get_or_insert(pi_counter_index(gimple_assign_lhs(updates[i].store), ctr)) += 2;
    unsigned n = 0;
    for (unsigned i = 0; i < updates.length(); i++) {
        ctr_update &u = updates[i];
        tree ref = gimple_assign_lhs(u.store);
        HOST_WIDE_INT k = pi_counter_index(ref, ctr);
        if (unsafe.contains(k) || !refs.get(k) || *refs.get(k) != *matched.get(k))
            continue;
        char text[384];
        /* WITH_MARKER (a body kept whole: every GIMPLE pass after IPA and,
           with clean-copies=late, the counting copy's RTL passes see it),
           right after its block's site marker (instrument_block), with
           nothing but its load and adds between: the two one asm, one
           statement and one insn less for every pass after (sqlite3.c:
           20,591 of 62,795 markers; pass-ranges.cc takes the marker out).
           Not in the copies split right after IPA (counting-opt=fast's, at
           -O2): there one statement less in a block lets jump threading
           copy more of it (Lua's luaV_execute.count.0 1.3 % bigger) */
        gimple *marker = with_marker ? marker_before(u) : NULL;
        int m = marker ? snprintf(text, sizeof text, "%s\n\t", gimple_asm_string(as_a<gasm *>(marker))) : 0;
        if (m < 0 || m >= MARKER_IN_UPDATE_MAX) {
            marker = NULL;
            m = 0;
        }
        pi_counter_update_text(text + m, sizeof text - m, u.add, ctr, (unsigned long long)k);
        gasm *a = pi_volatile_asm(text, gimple_location(u.store));
        gimple_stmt_iterator gsi = gsi_for_stmt(u.store);
        gsi_insert_before(&gsi, a, GSI_SAME_STMT);
        if (marker) {
            gimple_stmt_iterator mg = gsi_for_stmt(marker);
            gsi_remove(&mg, true);
        }
        /* the store, then the chain up to the load (each value used once) */
        tree v = gimple_assign_rhs1(u.store);
        unlink_stmt_vdef(u.store);
        reset_debug_uses(u.store);
        gsi_remove(&gsi, true);
        release_defs(u.store);
        while (TREE_CODE(v) == SSA_NAME) {
            gimple *d = SSA_NAME_DEF_STMT(v);
            tree next = d == u.load ? NULL_TREE : gimple_assign_rhs1(d);
            gimple_stmt_iterator dg = gsi_for_stmt(d);
            reset_debug_uses(d);
            gsi_remove(&dg, true);
            release_defs(d);
            if (!next)
                break;
            v = next;
        }
        n++;
    }
    return n;
}

/* ---- a loop's counters in registers (loop-counters=register) -------------
 *
 * In the counting copy, a counter updated in a loop's own blocks
 *
 *     loop:  _1 = __perfinst_ctr[K];  _2 = _1 + 1;  __perfinst_ctr[K] = _2;
 *
 * counts into a register instead: its increments since the loop was
 * entered (a delta, as LLVM's counter promotion keeps, so that a recursive
 * call's own increments of K are never overwritten), added to memory where
 * the loop is left and before every call in it:
 *
 *     entry edges:        d = 0
 *     loop:               _1 = d;  _2 = _1 + 1;  d = _2;
 *     exit edges, and
 *     before each call:   _3 = __perfinst_ctr[K];  _4 = _3 + d;  __perfinst_ctr[K] = _4;  d = 0
 *
 * An update of memory is a read-modify-write: in a tight loop it is a
 * store-to-load dependency through memory at every iteration, which costs
 * more time than its one instruction (gawk's tree_clear, hash-chain walks:
 * bench/RESULTS.md 2026-11-29 16:35); GCC's own store motion does not take
 * it out of a loop with a call (the call may read or write the counters),
 * and the update written as an asm (pi_counters_as_asm) never moves.
 *
 * The memory is exact wherever the program can look at it: at every call
 * (the runtime's dump, the mode switch, exit, a longjmp out of a callee,
 * fork, exec, a thread's end all happen in calls), and after the loop.  A
 * call GCC knows as a leaf built-in that returns (memcmp, strlen, memcpy)
 * is not such a point; an asm other than a site marker is.  What is lost:
 * a thread stopped by a signal inside the loop (a fault, SIGINT) leaves
 * the counts of the loop's iterations since it was entered or since its
 * last call out of its trace (the readers solve such a trace as a mid-run
 * one: piflow.c counts its few negative arcs); LLVM loses that and the
 * counts of a dump from a call inside the loop.  docs/design.md, "Counters
 * in registers".
 *
 * Not promoted: a loop with an abnormal edge (setjmp, computed or nonlocal
 * goto), or an exception edge from a statement that is not a call; a loop
 * none of whose exits is an edge (left only by signals); a loop where every
 * iteration makes a call (a call dominates a latch: the write-back would
 * cost what it saves); a loop whose calls, weighted by GCC's estimated
 * frequencies, would write back more counters than its iterations update
 * (an interpreter's dispatch loop, where most cases call).  At most
 * MAX_PROMOTED counters a loop (the hottest), fewer when it has many
 * exits. */

enum { MAX_PROMOTED = 4, MAX_EXIT_UPDATES = 16 };
#define SYNC_WEIGHT 0.5

/* Must the loop's counters be in memory before G runs? */
static bool counter_sync_point(gimple *g)
{
    if (is_gimple_call(g)) {
        if (gimple_call_internal_p(g))
            return false;
        tree fn = gimple_call_fndecl(g);
        int flags = gimple_call_flags(g);
        return !(fn && fndecl_built_in_p(fn, BUILT_IN_NORMAL) && (flags & ECF_LEAF) &&
                 !(flags & (ECF_NORETURN | ECF_RETURNS_TWICE)));
    }
    if (gimple_code(g) == GIMPLE_ASM)
        return strncmp(gimple_asm_string(as_a<gasm *>(g)), PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) != 0;
    return false;
}

/* Does every use of the array CTR in FUN name one counter, in a plain load
 * or store? */
static bool plain_counter_refs(function *fun, tree ctr)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        for (unsigned i = 0; i < gimple_num_ops(g); i++) {
            tree op = gimple_op(g, i);
            if (op && walk_tree_without_duplicates(&op, mentions, ctr) &&
                (pi_counter_index(op, ctr) < 0 || !is_gimple_assign(g) || !gimple_assign_single_p(g) || i > 1))
                return false;
        }
    }
    return true;
}

static double rel_freq(basic_block bb, basic_block header)
{
    bool known = false;
    sreal f = bb->count.to_sreal_scale(header->count, &known);
    return known ? f.to_double() : 1.0;
}

/* `ctr[K] += D` (then `D = 0` if RESET), as a sequence: in the local-exec
 * TLS model one asm with D as its operand (as pi_counters_as_asm writes an
 * update), which no later pass moves, merges or reads memory for; in the
 * other models volatile accesses (else GCC's code hoisting lifts the
 * write-backs' loads of the counters into the loop's every iteration). */
static gimple_seq write_back(tree ctr, HOST_WIDE_INT k, tree d, bool reset, location_t loc)
{
    gimple_seq seq = NULL;
    if (DECL_TLS_MODEL(ctr) == TLS_MODEL_LOCAL_EXEC) {
        const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr));
        char text[256];
        unsigned long long off = (unsigned long long)k * 8;
        snprintf(text, sizeof text, "{addq %%0, %%%%fs:%s@tpoff+%llu|add QWORD PTR fs:%s@tpoff+%llu, %%0}", name, off,
                 name, off);
        vec<tree, va_gc> *inputs = NULL;
        vec_safe_push(inputs, pi_asm_operand("re", d));
        gasm *a = gimple_build_asm_vec(ggc_strdup(text), inputs, NULL, NULL, NULL);
        gimple_asm_set_volatile(a, true);
        gimple_seq_add_stmt(&seq, a);
    } else {
        tree ref = pi_counter_ref(k);
        TREE_THIS_VOLATILE(ref) = 1;
        tree old = pi_tmp_reg(uint64_type_node, "pi"), sum = pi_tmp_reg(uint64_type_node, "pi");
        gimple_seq_add_stmt(&seq, gimple_build_assign(old, ref));
        gimple_seq_add_stmt(&seq, gimple_build_assign(sum, PLUS_EXPR, old, d));
        gimple_seq_add_stmt(&seq, gimple_build_assign(unshare_expr(ref), sum));
    }
    if (reset)
        gimple_seq_add_stmt(&seq, gimple_build_assign(d, build_zero_cst(uint64_type_node)));
    gimple_seq_set_location(seq, loc);
    return seq;
}

/* The counters updated in LOOP's own blocks (UPS, in block order) into
 * registers, if LOOP may have them (above).  Returns how many. */
static unsigned promote_loop(function *fun, class loop *loop, const vec<ctr_update> &ups, tree ctr)
{
    /* the write-back points: the calls in LOOP's own blocks, and the
       entries of its inner loops that call (LOOP's counters do not change
       inside those: one write-back before them does) */
    basic_block *body = get_loop_body(loop);
    auto_vec<gimple *> syncs;
    auto_vec<edge> sync_edges;
    auto_vec<basic_block> sync_blocks;
    auto_bitmap calling; /* inner loops (by number) with a call */
    bool ok = true, writes = false, any_call = false;
    for (unsigned i = 0; ok && i < loop->num_nodes; i++) {
        basic_block b = body[i];
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, b->preds)
        if (e->flags & EDGE_ABNORMAL || (b == loop->header && (e->flags & EDGE_EH)))
            ok = false;
        FOR_EACH_EDGE(e, ei, b->succs)
        if (e->flags & EDGE_ABNORMAL)
            ok = false;
        else if (e->flags & EDGE_EH) {
            /* thrown by a call the counters were written back before */
            gimple *last = last_stmt(b);
            if (!last || !is_gimple_call(last) || !counter_sync_point(last))
                ok = false;
        }
        for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi); gsi_next(&gsi)) {
            writes |= is_gimple_call(gsi_stmt(gsi)) && gimple_vdef(gsi_stmt(gsi));
            any_call |= is_gimple_call(gsi_stmt(gsi)) && !gimple_call_internal_p(gsi_stmt(gsi));
            if (!counter_sync_point(gsi_stmt(gsi)))
                continue;
            if (b->loop_father == loop) {
                syncs.safe_push(gsi_stmt(gsi));
                sync_blocks.safe_push(b);
            } else
                for (class loop *l = b->loop_father; l != loop; l = loop_outer(l))
                    if (loop_outer(l) == loop)
                        bitmap_set_bit(calling, l->num);
        }
    }
    free(body);
    for (class loop *in = loop->inner; in; in = in->next)
        if (bitmap_bit_p(calling, in->num)) {
            sync_blocks.safe_push(in->header);
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, in->header->preds)
            if (!flow_bb_inside_loop_p(in, e->src))
                sync_edges.safe_push(e);
        }
    auto_vec<edge> exits = get_loop_exit_edges(loop);
    unsigned nexits = 0;
    for (unsigned i = 0; i < exits.length(); i++)
        nexits += !(exits[i]->flags & EDGE_EH);
    /* a loop none of whose calls writes memory is GCC's store motion's
       (pi_counters_as_asm leaves its updates to it) unless
       callfree-counters=delta; one whose calls may write memory is
       promoted with loop-counters=register */
    if (!ok || nexits == 0)
        return 0;
    if (writes ? pi_opt.loop_counters_memory : pi_opt.callfree_gcc)
        return 0;
    if (!writes) {
        /* (callfree-counters=delta) only a loop with no call at all (a
           register live across one is spilled), no inner loop, that is
           the outermost call-free loop or inside one that calls (else
           store motion takes its counters out of the whole nest, once),
           in the local-exec TLS model (finaldead leaves the write-back
           asm out of f), not with counting-opt=full (GCC's own updates
           only); below, only the counters store motion would keep a
           flag for */
        if (loop->inner || any_call || DECL_TLS_MODEL(ctr) != TLS_MODEL_LOCAL_EXEC ||
            pi_opt.counting_opt == PI_COPT_FULL)
            return 0;
        class loop *o = loop_outer(loop);
        if (loop_outer(o)) {
            bool ocalls = false;
            basic_block *ob = get_loop_body(o);
            for (unsigned i = 0; !ocalls && i < o->num_nodes; i++)
                for (gimple_stmt_iterator gsi = gsi_start_bb(ob[i]); !gsi_end_p(gsi); gsi_next(&gsi))
                    if (is_gimple_call(gsi_stmt(gsi)) && gimple_vdef(gsi_stmt(gsi))) {
                        ocalls = true;
                        break;
                    }
            free(ob);
            if (!ocalls)
                return 0;
        }
    }
    /* every iteration calls: nothing to gain */
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, loop->header->preds)
    if (flow_bb_inside_loop_p(loop, e->src))
        for (unsigned i = 0; i < sync_blocks.length(); i++)
            if (dominated_by_p(CDI_DOMINATORS, e->src, sync_blocks[i]))
                return 0;

    /* the counters, hottest first: by the estimated frequency of their
       updates that no call follows in the block (before a call the
       write-back would follow the update at once) */
    auto_vec<HOST_WIDE_INT> ks;
    auto_vec<double> heat;
    auto_vec<bool> sometimes;
    for (unsigned i = 0; i < ups.length(); i++) {
        HOST_WIDE_INT k = pi_counter_index(gimple_assign_lhs(ups[i].store), ctr);
        double f = rel_freq(gimple_bb(ups[i].store), loop->header);
        for (gimple_stmt_iterator gsi = gsi_for_stmt(ups[i].store); !gsi_end_p(gsi); gsi_next(&gsi))
            if (counter_sync_point(gsi_stmt(gsi)))
                f = 0;
        unsigned j = 0;
        while (j < ks.length() && ks[j] != k)
            j++;
        if (j == ks.length()) {
            ks.safe_push(k);
            heat.safe_push(0);
            sometimes.safe_push(false);
        }
        heat[j] += f;
        /* (an update whose block is not run on every iteration before
           the loop can be left: store motion keeps a flag for it.  Here,
           before loop header copying, `while (c) body`'s body counts
           too, where store motion's add may become one add after the
           rotated loop: gawk's `while (*scan != fschar) scan++`, 4.6 %
           more instructions in sc_parse_field.count.0; left out, Lua's
           test files ran 1 % more: bench/RESULTS.md) */
        basic_block ub = gimple_bb(ups[i].store);
        if (!writes && (!loop->latch || !dominated_by_p(CDI_DOMINATORS, loop->latch, ub)))
            sometimes[j] = true;
        for (unsigned x = 0; !writes && x < exits.length(); x++)
            if (!(exits[x]->flags & EDGE_EH) && !dominated_by_p(CDI_DOMINATORS, exits[x]->src, ub))
                sometimes[j] = true;
    }
    /* a call-free loop: only the counters store motion would flag */
    if (!writes)
        for (unsigned j = 0; j < ks.length(); j++)
            if (!sometimes[j])
                heat[j] = -1;
    for (unsigned i = 1; i < ks.length(); i++)
        for (unsigned j = i; j > 0 && heat[j] > heat[j - 1]; j--) {
            std::swap(ks[j], ks[j - 1]);
            std::swap(heat[j], heat[j - 1]);
        }
    unsigned n = MIN(ks.length(), (unsigned)MAX_PROMOTED);
    n = MIN(n, MAX_EXIT_UPDATES / nexits);
    while (n > 0 && heat[n - 1] <= 0)
        n--;
    /* the write-backs at the calls against the updates kept in registers */
    double calls = 0, saved = 0;
    for (unsigned i = 0; i < syncs.length(); i++)
        calls += rel_freq(gimple_bb(syncs[i]), loop->header);
    for (unsigned i = 0; i < sync_edges.length(); i++) {
        bool known = false;
        sreal f = sync_edges[i]->count().to_sreal_scale(loop->header->count, &known);
        calls += known ? f.to_double() : 1.0;
    }
    for (unsigned i = 0; i < n; i++)
        saved += heat[i];
    while (n > 0 && calls * n * SYNC_WEIGHT > saved) {
        n--;
        saved -= heat[n];
    }
    if (n == 0) {
        if (pi_opt.verbose && !ks.is_empty())
            inform(gimple_location(ups[0].store), "perfinst: %qD: the counters of the loop at line %d stay in memory "
                   "(%u calls, %d in 100 iterations)", fun->decl, LOCATION_LINE(gimple_location(ups[0].store)),
                   syncs.length() + sync_edges.length(), (int)(calls * 100));
        return 0;
    }

    location_t loc = gimple_location(ups[0].store);
    for (unsigned c = 0; c < n; c++) {
        HOST_WIDE_INT k = ks[c];
        tree d = create_tmp_reg(uint64_type_node, "pi_loop");
        for (unsigned i = 0; i < ups.length(); i++) {
            if (pi_counter_index(gimple_assign_lhs(ups[i].store), ctr) != k)
                continue;
            gimple *ld = ups[i].load, *st = ups[i].store;
            gimple_set_vuse(ld, NULL_TREE);
            gimple_assign_set_rhs1(ld, d);
            update_stmt(ld);
            unlink_stmt_vdef(st);
            tree vdef = gimple_vdef(st);
            gimple_set_vdef(st, NULL_TREE);
            gimple_set_vuse(st, NULL_TREE);
            if (vdef && TREE_CODE(vdef) == SSA_NAME)
                release_ssa_name(vdef);
            gimple_assign_set_lhs(st, d);
            update_stmt(st);
        }
        FOR_EACH_EDGE(e, ei, loop->header->preds)
        if (!flow_bb_inside_loop_p(loop, e->src)) {
            gimple *z = gimple_build_assign(d, build_zero_cst(uint64_type_node));
            gimple_set_location(z, loc);
            gsi_insert_on_edge(e, z);
        }
        for (unsigned i = 0; i < exits.length(); i++)
            if (!(exits[i]->flags & EDGE_EH))
                gsi_insert_seq_on_edge(exits[i], write_back(ctr, k, d, false, loc));
        for (unsigned i = 0; i < syncs.length(); i++) {
            gimple_stmt_iterator gsi = gsi_for_stmt(syncs[i]);
            gsi_insert_seq_before(&gsi, write_back(ctr, k, d, true, gimple_location(syncs[i])), GSI_SAME_STMT);
        }
        for (unsigned i = 0; i < sync_edges.length(); i++)
            gsi_insert_seq_on_edge(sync_edges[i], write_back(ctr, k, d, true, loc));
    }
    if (pi_opt.verbose)
        inform(loc, "perfinst: %qD: %u counters of the loop at line %d in registers (of %u; %u exits, %u calls, "
               "%d in 100 iterations)", fun->decl, n, LOCATION_LINE(gimple_location(ups[0].store)), ks.length(), nexits,
               syncs.length() + sync_edges.length(), (int)(calls * 100));
    return n;
}

/* FUN (cfun), a counting copy: the counters of its loops in registers
 * (above).  Returns how many; pi_split_update must follow. */
unsigned pi_promote_loop_counters(function *fun)
{
    tree ctr = pi_counter_decl();
    if ((pi_opt.loop_counters_memory && pi_opt.callfree_gcc) || !ctr || !loops_for_fn(fun) || loops_state_satisfies_p(fun, LOOPS_NEED_FIXUP) ||
        !plain_counter_refs(fun, ctr))
        return 0;
    /* each loop's updates in its own blocks, of the counters referred to
       nowhere else in the function: no statement GCC sees reads or writes
       such a counter once it is in a register, so the write-back may be an
       asm GCC does not see write memory (write_back) */
    auto_vec<ctr_update> ups;
    auto_vec<int> ups_loop;
    hash_map<int_hash<HOST_WIDE_INT, -1, -2>, int> where; /* K -> the loop of its updates, or -1 */
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        class loop *l = bb->loop_father;
        int num = l && loop_outer(l) ? l->num : -1;
        auto_vec<gimple *> matched;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            ctr_update u;
            if (num >= 0 && is_gimple_assign(g) && gimple_assign_single_p(g) && gimple_vdef(g) &&
                pi_counter_index(gimple_assign_lhs(g), ctr) >= 0 && match_update(g, ctr, &u)) {
                ups.safe_push(u);
                ups_loop.safe_push(num);
                matched.safe_push(u.load);
                matched.safe_push(u.store);
            }
        }
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            if (!is_gimple_assign(g) || !gimple_assign_single_p(g))
                continue;
            HOST_WIDE_INT k = pi_counter_index(gimple_assign_lhs(g), ctr);
            if (k < 0)
                k = pi_counter_index(gimple_assign_rhs1(g), ctr);
            if (k < 0)
                continue;
            bool existed;
            int &w = where.get_or_insert(k, &existed);
            if (!matched.contains(g) || (existed && w != num))
                w = -1;
            else if (!existed)
                w = num;
        }
    }
    if (ups.is_empty())
        return 0;
    calculate_dominance_info(CDI_DOMINATORS);
    unsigned n = 0;
    for (auto loop : loops_list(fun, 0)) {
        auto_vec<ctr_update> mine;
        for (unsigned i = 0; i < ups.length(); i++)
            if (ups_loop[i] == loop->num && *where.get(pi_counter_index(gimple_assign_lhs(ups[i].store), ctr)) == loop->num)
                mine.safe_push(ups[i]);
        if (!mine.is_empty())
            n += promote_loop(fun, loop, mine, ctr);
    }
    if (n)
        gsi_commit_edge_inserts();
    return n;
}
