/* pass-countfn.cc — the counting copy as a function of its own
 * (-fplugin-arg-perfinst-counting=function; docs/indicators.md, "The
 * prologue").
 *
 * pass-split.cc puts both copies of an instrumented function in ONE
 * function, so GCC gives them one prologue: where the counting copy needs
 * callee-saved registers (a probe around a call), the clean copy pays the
 * pushes and pops before the dispatch even where -O2's function has no
 * frame.  This pass instead makes the counting copy a function of its own:
 *
 *     f(a, b) {                          f(a, b) {
 *       bb1: # perfinst site U 0           if (__perfinst_fnon[F] != 0)
 *            __perfinst_ctr[0] += 1   →       return f.count.0(a, b);   // a sibling call
 *            ...                           ...                           // no counters, no markers
 *     }                                  }
 *                                        static f.count.0(a, b) {        // the body as it was
 *                                          bb1: # perfinst site U 0
 *                                               __perfinst_ctr[0] += 1 ...
 *                                        }
 *
 * so f is the byte test plus exactly the code -O2 would make of it, and
 * shrink-wrapping leaves f's prologue after the test:
 *
 *     f:  cmpb $0, __perfinst_fnon+F(%rip)
 *         jne  .Lc                            (.Lc: jmp f.count.0)
 *         <-O2's f>
 *
 * Right after expansion, an RTL pass passes the sibling call's arguments
 * from the incoming registers themselves rather than from the pseudos the
 * entry copied them into: otherwise a parameter the clean body keeps in a
 * callee-saved register across a call is copied there above the test, for
 * both paths, and the prologue with it (half of SQLite's functions).
 *
 * The call is marked as a tail call: f.count.0 runs on f's frame, so a
 * stack taken inside it (threshold and trap handlers, samples) shows f's
 * caller above it, as with one function.  f.count.0 is f's clone
 * (DECL_ABSTRACT_ORIGIN f; pi_clone_origin): its site markers are f's
 * sites, its code is attributed to f by pass-ranges' CODE chunks, its
 * return blocks get f's deferred return site, and pass-split leaves it
 * alone (it counts whatever the mode).
 *
 * Where: a simple IPA pass after "simdclone", the last of GCC 12's late IPA
 * passes, i.e. after inlining and before any function is expanded (new
 * functions can be added here, as the OpenMP simd clones are); the inline
 * transforms are applied first (cgraph_node::get_body, as ipa-pta does).
 * The function then goes through every per-function pass as usual, and
 * the clean f is optimised without counters.
 *
 * Left to pass-split's in-function copies (one function, the same dispatch):
 * -O0/-Og or -fno-optimize-sibling-calls (no sibling call), -flto units,
 * entry=jump, variadic and nested functions, functions returning a value
 * in memory (a structure through a hidden pointer; one returned in
 * registers, as jq's 16-byte jv, is taken), functions GCC cannot version or
 * whose blocks cannot be copied (nonlocal labels), and the generated
 * registration code.  A function that calls setjmp is split here as any
 * other (its copy calls setjmp itself; a longjmp returns into the copy that
 * filled the buffer).  A function that keeps its labels'
 * addresses in a static table (computed goto), which GCC refuses to
 * version, is split here with a table of its own for the counting copy
 * (copy_label_tables, below); pass-split cannot copy its blocks.
 */
#include "plugin.h"
#include "cfgloop.h"
#include "cfganal.h"
#include "tree-inline.h"
#include "gimple-walk.h"
#include "tree-dfa.h"
#include "tree-into-ssa.h"
#include "tree-ssanames.h"
#include "tree-ssa.h"
#include "calls.h"
#include "tree-cfgcleanup.h"
#include "tree-ssa-dce.h"
#include "tm_p.h"
#include "except.h"
#include "regset.h"
#include "dumpfile.h"
#include "bb-reorder.h"
#include "cfgrtl.h"
#include "cfgcleanup.h"
#include "cfgbuild.h"

/* the f that dispatch to their f.count */
static hash_set<tree> *dispatching;

static bool usable_signature(tree decl)
{
    if (stdarg_p(TREE_TYPE(decl)) || DECL_STATIC_CHAIN(decl))
        return false;
    /* a value returned in registers, a small structure too (jq's jv, a
       C++ pair): the dispatch's sibling call returns it as f does; one
       returned in memory (through a hidden pointer) is left to pass-split */
    tree res = DECL_RESULT(decl);
    if (!res || aggregate_value_p(res, decl) || DECL_BY_REFERENCE(res))
        return false;
    for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p))
        if (!is_gimple_reg_type(TREE_TYPE(p)) && TREE_ADDRESSABLE(TREE_TYPE(p)))
            return false;
    return true;
}

static bool has_forced_label(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        glabel *l = dyn_cast<glabel *>(gsi_stmt(gsi));
        if (!l)
            break;
        if (FORCED_LABEL(gimple_label_label(l)))
            return true;
    }
    return false;
}

/* Can FUN be split into f and f.count?  (cfun == FUN)  A function that
 * keeps addresses of its labels in a static table (computed goto: a
 * threaded interpreter's dispatch) can, with a table of its own for the
 * copy (copy_label_tables). */
static bool splittable(function *fun)
{
    if (fun->has_nonlocal_label || fun->can_throw_non_call_exceptions)
        return false;
    /* a function of its own optimize attribute is counted in place at -O0
       and -Og, as a unit compiled so (countfn_gate): no pass after the
       split would take the clean copy's dead loads of the counters out
       (under -fPIC their __tls_get_addr calls stayed, naming no TLS
       symbol: an internal compiler error in final) */
    if (!opt_for_fn(fun->decl, optimize) || opt_for_fn(fun->decl, optimize_debug) ||
        !opt_for_fn(fun->decl, flag_optimize_sibling_calls))
        return false;
    /* (what GCC cannot duplicate within a function: a block with a label
       whose address is taken is copied by versioning, which maps labels) */
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    if (!can_duplicate_block_p(bb) && !has_forced_label(bb))
        return false;
    return true;
}

/* ---- label tables: computed goto ------------------------------------------
 *
 * GCC refuses to copy a function that stores the address of one of its
 * labels in a static variable (`static const void *const table[] =
 * { &&op_add, ... }`, then `goto *table[op]`): the copy would share the
 * table and jump into the original.  The counting copy gets a table of
 * its own instead, the same initializer with each label replaced by the
 * copy's label of that name, and its body reads that one:
 *
 *     f:          goto *table[op]        table:       { &&op_add, ... }   (f's labels)
 *     f.count.N:  goto *table.c[op]      table.c:     { &&op_add, ... }   (f.count.N's)
 *
 * So a threaded interpreter (Lua's luaV_execute) has a clean copy too,
 * and PERFINST_MODE=off runs it uninstrumented. */

struct label_map {
    hash_map<tree, tree> *labels; /* f's LABEL_DECL -> the copy's */
    bool missing;
};

static tree remap_label_addr(tree *tp, int *walk_subtrees, void *data)
{
    label_map *lm = (label_map *)data;
    if (TREE_CODE(*tp) == LABEL_DECL) {
        tree *nl = lm->labels->get(*tp);
        if (nl)
            *tp = *nl;
        else
            lm->missing = true;
        *walk_subtrees = 0;
    }
    return NULL_TREE;
}

static tree has_label_addr(tree *tp, int *walk_subtrees, void *)
{
    if (TREE_CODE(*tp) == ADDR_EXPR && TREE_CODE(TREE_OPERAND(*tp, 0)) == LABEL_DECL)
        return *tp;
    if (TYPE_P(*tp))
        *walk_subtrees = 0;
    return NULL_TREE;
}

struct var_swap {
    hash_map<tree, tree> *vars;
};

static tree swap_var(tree *tp, int *walk_subtrees, void *data)
{
    walk_stmt_info *wi = (walk_stmt_info *)data;
    var_swap *vs = (var_swap *)wi->info;
    if (VAR_P(*tp)) {
        if (tree *nv = vs->vars->get(*tp))
            *tp = *nv;
    }
    if (TYPE_P(*tp))
        *walk_subtrees = 0;
    return NULL_TREE;
}

/* The label tables of ORIG (static variables of its own whose initializer
 * takes a label's address), copied for COPY with COPY's labels; COPY's
 * body made to read them.  False (nothing changed) if a label has no
 * counterpart of the same name in COPY. */
static bool copy_label_tables(tree orig, tree copy)
{
    function *of = DECL_STRUCT_FUNCTION(orig), *cf = DECL_STRUCT_FUNCTION(copy);
    auto_vec<tree> tables;
    unsigned ix;
    tree var;
    FOR_EACH_LOCAL_DECL(of, ix, var)
    if (VAR_P(var) && TREE_STATIC(var) && DECL_CONTEXT(var) == orig && DECL_INITIAL(var) &&
        walk_tree_without_duplicates(&DECL_INITIAL(var), has_label_addr, NULL))
        tables.safe_push(var);
    if (tables.is_empty())
        return true;
    /* the copy's labels by name (labels whose address is taken are the
       user's: named, one of each name per function) */
    hash_map<tree, tree> by_name, labels;
    basic_block bb;
    FOR_EACH_BB_FN(bb, cf)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (glabel *l = dyn_cast<glabel *>(gsi_stmt(gsi)))
            if (DECL_NAME(gimple_label_label(l)))
                by_name.put(DECL_NAME(gimple_label_label(l)), gimple_label_label(l));
    FOR_EACH_BB_FN(bb, of)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if (glabel *l = dyn_cast<glabel *>(gsi_stmt(gsi)))
            if (DECL_NAME(gimple_label_label(l)))
                if (tree *nl = by_name.get(DECL_NAME(gimple_label_label(l))))
                    labels.put(gimple_label_label(l), *nl);
    label_map lm = {&labels, false};
    auto_vec<tree> inits;
    for (unsigned i = 0; i < tables.length(); i++) {
        tree init = unshare_expr(DECL_INITIAL(tables[i]));
        walk_tree(&init, remap_label_addr, &lm, NULL);
        inits.safe_push(init);
    }
    if (lm.missing)
        return false;
    hash_map<tree, tree> vars;
    for (unsigned i = 0; i < tables.length(); i++) {
        tree nv = copy_node(tables[i]);
        DECL_CONTEXT(nv) = copy;
        DECL_INITIAL(nv) = inits[i];
        SET_DECL_ASSEMBLER_NAME(nv, NULL_TREE);
        SET_DECL_RTL(nv, NULL_RTX);
        varpool_node::finalize_decl(nv);
        varpool_node *vn = varpool_node::get(nv);
        if (vn && !vn->analyzed)
            vn->analyze();
        add_local_decl(cf, nv);
        vars.put(tables[i], nv);
    }
    var_swap vs = {&vars};
    FOR_EACH_BB_FN(bb, cf)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        walk_stmt_info wi;
        memset(&wi, 0, sizeof wi);
        wi.info = &vs;
        walk_gimple_op(gsi_stmt(gsi), swap_var, &wi);
        update_stmt_if_modified(gsi_stmt(gsi));
    }
    push_cfun(cf);
    cgraph_edge::rebuild_references();
    pop_cfun();
    cf->has_forced_label_in_static = 1;
    return true;
}

/* In f (cfun): D at the entry, `if (SWITCH != 0) goto C; else goto
 * <f's body>;` and C: `[r =] f.count (params...); return [r];`. */
static gcall *add_dispatch(function *fun, tree copy, int fi)
{
    tree decl = fun->decl;
    basic_block d = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
    edge off = single_succ_edge(d);
    basic_block c = create_empty_bb(d);
    if (current_loops)
        add_bb_to_loop(c, current_loops->tree_root);

    edge on = pi_split_add_test(d, fi, c);
    /* the clean path is f's own: the fall-through, with the whole count */
    on->probability = profile_probability::unlikely();
    off->probability = on->probability.invert();
    c->count = d->count.apply_probability(on->probability);

    gimple_stmt_iterator gsi = gsi_start_bb(c);
    auto_vec<tree> args;
    for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p)) {
        if (is_gimple_reg(p))
            args.safe_push(get_or_create_ssa_default_def(fun, p));
        else if (!is_gimple_reg_type(TREE_TYPE(p)))
            args.safe_push(p); /* an aggregate, passed as it came */
        else {                 /* an addressable scalar: its value */
            tree v = make_ssa_name(TREE_TYPE(p));
            gsi_insert_after(&gsi, gimple_build_assign(v, p), GSI_NEW_STMT);
            args.safe_push(v);
        }
    }
    gcall *call = gimple_build_call_vec(copy, args);
    tree rtype = TREE_TYPE(DECL_RESULT(decl));
    /* (a structure returned in registers is a temporary, as GCC's own
       `return g ();` makes it) */
    tree r = VOID_TYPE_P(rtype)           ? NULL_TREE
             : is_gimple_reg_type(rtype) ? make_ssa_name(rtype)
                                         : create_tmp_var(rtype, "pi_ret");
    if (r)
        gimple_call_set_lhs(call, r);
    gimple_call_set_tail(call, true); /* nothing of f's frame is live: f.count runs on it */
    gimple_set_location(call, DECL_SOURCE_LOCATION(decl));
    gsi_insert_after(&gsi, call, GSI_NEW_STMT);
    greturn *ret = gimple_build_return(r);
    gsi_insert_after(&gsi, ret, GSI_NEW_STMT);
    make_edge(c, EXIT_BLOCK_PTR_FOR_FN(fun), 0)->probability = profile_probability::always();
    return call;
}

/* counting-opt=fast and lean: the counting copy compiled with cheaper
 * options than its function (DECL_FUNCTION_SPECIFIC_OPTIMIZATION, as
 * GCC's optimize attribute sets it; GCC switches global_options to them
 * whenever the copy becomes cfun, so every per-function pass after IPA
 * sees them).  The copy runs only while counting, so what a pass gains at
 * run time matters less there than what it costs the compile.
 * fast (the default): without RTL GCSE, the second scheduling pass and
 * the CSE rerun (as with -fno-gcse ...).  Tree PRE stays: without it a
 * load -O2 keeps out of a loop that calls (reloaded only after the calls)
 * was made every iteration (gawk's tree_clear, cint_lookup: fields 1.1 %
 * more instructions, for 1.3 % of all=count's compile of eval.c;
 * bench/RESULTS.md 2026-11-30, "gawk fields' counting cost").
 * lean: fast at -O1, as __attribute__((optimize("O1")))
 * gives it (no VRP, jump threading, peephole2, caller-saves ...), keeping
 * four of the unit's options that -O1 lacks: -fstrict-aliasing,
 * -fexpensive-optimizations, -free (redundant extension elimination) and
 * -fipa-ra (without it the copy records no register usage, and every
 * caller of f, which tail-calls f.count, assumes all call-clobbered
 * registers clobbered: the clean code around the call spills more, and
 * the off mode pays for it).
 * At plain -O1 zstd -3 counted in 4 % more instructions than with fast,
 * above -fprofile-generate; those two RTL options give back 3.5 of the 4
 * (VRP and jump threading in the copy cost instructions there), at a
 * compile cost near -O1's (bench/RESULTS.md 2026-11-29 10:00).  -f
 * options given on the command line keep their values, as under the
 * attribute.  Only where the function has no optimize attribute of its
 * own.  (Both also turn the copy's counter updates into one asm each:
 * split_off_counting, pi_counters_as_asm.) */
static hash_set<tree> *lean_copies; /* the copies given lean's options */

/* COPY given LEVEL's options (PI_COPT_FAST or PI_COPT_LEAN) */
static void copy_options(tree copy, int level)
{
    if (DECL_FUNCTION_SPECIFIC_OPTIMIZATION(copy) &&
        DECL_FUNCTION_SPECIFIC_OPTIMIZATION(copy) != optimization_default_node)
        return;
    cl_optimization saved;
    cl_optimization_save(&saved, &global_options, &global_options_set);
    if (level == PI_COPT_LEAN && parse_optimize_options) {
        /* (the C family's parser of optimize attributes: cc1 and cc1plus
           have it; pass-countfn never runs in lto1) */
        int strict_aliasing = flag_strict_aliasing;
        int expensive = flag_expensive_optimizations, ree = flag_ree, ipa_ra = flag_ipa_ra;
        parse_optimize_options(build_tree_list(NULL_TREE, build_string(2, "O1")), true);
        flag_strict_aliasing = strict_aliasing;
        flag_expensive_optimizations = expensive;
        flag_ree = ree;
        flag_ipa_ra = ipa_ra;
        /* and without eight RTL passes of -O1's, unless given on the
           command line: fwprop, both if-conversions, loop2's invariant
           motion, RTL DSE, the hard-register copy propagation, the
           compare elimination and the stack adjustments' combination
           after reload (and cse1 and postreload, which have no option:
           lean_gate) */
        struct {
            int *flag, set;
        } off[] = {
            {&flag_forward_propagate, global_options_set.x_flag_forward_propagate},
            {&flag_if_conversion, global_options_set.x_flag_if_conversion},
            {&flag_if_conversion2, global_options_set.x_flag_if_conversion2},
            {&flag_move_loop_invariants, global_options_set.x_flag_move_loop_invariants},
            {&flag_dse, global_options_set.x_flag_dse},
            {&flag_cprop_registers, global_options_set.x_flag_cprop_registers},
            {&flag_compare_elim_after_reload, global_options_set.x_flag_compare_elim_after_reload},
            {&flag_combine_stack_adjustments, global_options_set.x_flag_combine_stack_adjustments},
        };
        for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
            if (!off[i].set)
                *off[i].flag = 0;
        if (!lean_copies) {
            lean_copies = new hash_set<tree>;
            pi_gc_root_set(&lean_copies);
        }
        lean_copies->add(copy);
    }
    flag_gcse = 0;
    flag_gcse_after_reload = 0;
    flag_schedule_insns_after_reload = 0;
    flag_rerun_cse_after_loop = 0;
    DECL_FUNCTION_SPECIFIC_OPTIMIZATION(copy) = build_optimization_node(&global_options, &global_options_set);
    cl_optimization_restore(&global_options, &global_options_set, &saved);
}

/* lean's copies also skip two RTL passes that GCC runs at -O1 and that no
 * option turns off: cse1 (the GIMPLE passes before it did most of its
 * work) and postreload (reload_cse_regs; its reload_combine forgets what
 * it knows at every volatile insn, and each counter update is one, so in
 * a counting copy it costs much and finds little).  Both are
 * optimisations only: -O0 runs neither.  With clean-copies=late they were
 * 3 % of cc1's instructions on Lua's lparser.c (bench/RESULTS.md,
 * 2026-11-30 02:30).  PLUGIN_OVERRIDE_GATE: GCC_DATA is the gate's
 * answer. */
/* Shrink-wrapping (pro_and_epilogue) puts the prologue after an early
 * exit's test only if it may copy the blocks both ways share (the return
 * block), each within a size: param max-grow-copy-bb-insns times a jump's
 * length, 16 bytes on x86-64.  GCC sizes an asm at 128 bytes a line there,
 * so perfinst's asms -- a site marker, which is no code, a counter
 * update -- made every such block too big to copy: each counted function
 * pushed its registers before its first test, and so did its clean copy
 * made of that code (clean-copies=final; BusyBox's awk handle_special,
 * 3.3 instructions a call at -O2, ran 20 in the off mode).  For that pass
 * the parameter grows by what perfinst's asms add to the block that has
 * most of them, in jumps, and is restored at the next pass. */
static int sw_saved_param = -1;

static unsigned perfinst_asm_length(function *fun)
{
    unsigned most = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        unsigned len = 0;
        rtx_insn *insn;
        FOR_BB_INSNS(bb, insn) {
            const char *t = NONDEBUG_INSN_P(insn) ? pi_rtl_asm_template(insn) : NULL;
            if (t && (strncmp(t, "# perfinst", 10) == 0 || strstr(t, "__perfinst")))
                len += get_attr_min_length(insn);
        }
        most = len > most ? len : most;
    }
    return most;
}

static void shrinkwrap_allowance(bool run)
{
    if (sw_saved_param >= 0) {
        param_max_grow_copy_bb_insns = sw_saved_param;
        sw_saved_param = -1;
    }
    if (!run || strcmp(current_pass->name, "pro_and_epilogue") != 0 || !flag_shrink_wrap)
        return;
    /* (get_uncond_jump_length makes a label: only where perfinst's asms
       are, so that a function without them is numbered as -O2's) */
    unsigned len = perfinst_asm_length(cfun), jump = len ? get_uncond_jump_length() : 0;
    if (len && jump) {
        sw_saved_param = param_max_grow_copy_bb_insns;
        param_max_grow_copy_bb_insns += (len + jump - 1) / jump;
    }
}

static void lean_gate(void *gcc_data, void *)
{
    if (!cfun || !current_pass || current_pass->type != RTL_PASS || !current_pass->name) {
        shrinkwrap_allowance(false);
        return;
    }
    shrinkwrap_allowance(*(bool *)gcc_data);
    /* clean-copies=final: f's RTL is one asm, which throws nothing: RTL's
       "nothrow" would mark f nothrow, and a caller compiled after it
       would list no call site for its calls of f, so that an exception
       thrown through f terminated (t-flow.sh's flow-exc.cc).  f throws
       what its body, f.count.N's code, throws: IPA's flag stays. */
    if (strcmp(current_pass->name, "nothrow") == 0 && pi_countfn_final_body(cfun->decl)) {
        *(bool *)gcc_data = false;
        return;
    }
    if (!lean_copies || !lean_copies->contains(cfun->decl))
        return;
    if (strcmp(current_pass->name, "cse1") == 0 || strcmp(current_pass->name, "postreload") == 0)
        *(bool *)gcc_data = false;
}

void pi_countfn_register_gates(const char *plugin_name)
{
    register_callback(plugin_name, PLUGIN_OVERRIDE_GATE, lean_gate, NULL);
}

static void copy_decl_finish(cgraph_node *node, cgraph_node *copy, int level);
static bool countfn_gate(function *fun);

/* Label tables hidden from GCC's versioning (copy_label_tables: the one
 * reason it refuses that this pass overcomes), then restored. */
static bool hide_tables(function *fun)
{
    bool tables = fun->has_forced_label_in_static;
    fun->has_forced_label_in_static = 0;
    fun->cannot_be_copied_set = 0;
    fun->cannot_be_copied_reason = NULL;
    return tables;
}

static void restore_tables(function *fun, bool tables)
{
    fun->has_forced_label_in_static = tables;
    fun->cannot_be_copied_set = 0;
    fun->cannot_be_copied_reason = NULL;
}

/* NODE's body versioned as f.count.N, with label tables of its own; NULL
 * (nothing made) if it cannot be or GO (asked with cfun == FUN) says no. */
static cgraph_node *version_counting(cgraph_node *node, function *fun, bool (*go)(function *))
{
    tree decl = node->decl;
    bool tables = hide_tables(fun);
    bool ok = tree_versionable_function_p(decl);
    if (ok) {
        push_cfun(fun);
        ok = go(fun);
        pop_cfun();
    }
    cgraph_node *copy = ok ? node->create_version_clone_with_body(vNULL, NULL, NULL, NULL, NULL, "count") : NULL;
    restore_tables(fun, tables);
    if (copy && tables && !copy_label_tables(decl, copy->decl)) {
        /* a label the copy lacks: leave f one counting body */
        copy->remove();
        copy = NULL;
    }
    return copy;
}

static bool split_now(function *fun)
{
    return pi_split_instrumented(fun) && splittable(fun) && !pi_single_body(fun);
}

/* clean-copies=late: will FUN (cfun, after IPA) be split by latecopy? */
bool pi_countfn_late_ok(function *fun)
{
    tree decl = fun->decl;
    if (!countfn_gate(fun) || pi_is_own_decl(decl) || pi_countfn_origin(decl) || !usable_signature(decl) ||
        !splittable(fun))
        return false;
    /* Exception regions that choose by type (a catch, an exception
       specification): GCC's versioning after the GIMPLE passes refuses
       them (duplicate_eh_regions_1 wants no filter lists yet, which
       lower_eh_dispatch has made, and the copy would need the function's
       type tables), so such a function is split right after IPA, as by
       default; cleanups (destructors run on the way out) and regions that
       must not throw copy as they are */
    eh_region r;
    if (fun->eh && fun->eh->region_tree)
        FOR_ALL_EH_REGION_FN(r, fun)
            if (r->type == ERT_TRY || r->type == ERT_ALLOWED_EXCEPTIONS)
                return false;
    bool tables = hide_tables(fun);
    bool ok = tree_versionable_function_p(decl);
    restore_tables(fun, tables);
    return ok;
}

/* FUN (cfun) made the clean f of its counting copy COPY: counters, markers
 * and probes deleted (DEAD: the values the counters stored), the dispatch
 * to COPY at its entry. */
static void make_clean(function *fun, tree copy, bitmap dead)
{
    auto_vec<basic_block> bbs;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) bbs.safe_push(bb);
    pi_split_strip(bbs, dead);
    add_dispatch(fun, copy, pi_split_switch_index(fun->decl));
    pi_split_update(fun);
}

/* One of GCC's GIMPLE passes run on FUN (cfun) here, its TODOs done. */
static void run_pass(opt_pass *pass, function *fun)
{
    if (!pass->gate(fun))
        return;
    unsigned int todo = pass->execute(fun) | pass->todo_flags_finish;
    if (todo & TODO_update_ssa_any)
        update_ssa(todo & TODO_update_ssa_any);
    if (todo & TODO_cleanup_cfg)
        cleanup_tree_cfg();
}

/* NODE's f.count, and f made clean; false if NODE stays as it is. */
static bool split_off_counting(cgraph_node *node)
{
    tree decl = node->decl;
    /* a clone of ipa-cp/ipa-sra not made yet (GCC 12 makes them when
       their body is first asked for, as at expansion) */
    if (node->clone_of)
        node->get_untransformed_body();
    if (node->clone_of)
        return false;
    if (pi_is_own_decl(decl) || !usable_signature(decl))
        return false;
    node->get_body();
    function *fun = DECL_STRUCT_FUNCTION(decl);
    if (!fun || !fun->cfg)
        return false;
    /* (clean-copies=loops|none: a function that keeps one body is
       pass-split's, which leaves it whole; late: latecopy's) */
    cgraph_node *copy = version_counting(node, fun, split_now);
    if (!copy)
        return false;
    copy_decl_finish(node, copy, pi_opt.counting_opt);

    /* the counting copy: f's return blocks get their deferred site
       marker (return-site.cc), as pass-split's counting copy does */
    push_cfun(DECL_STRUCT_FUNCTION(copy->decl));
    {
        auto_vec<basic_block> bbs;
        basic_block bb;
        FOR_EACH_BB_FN(bb, cfun) bbs.safe_push(bb);
        pi_return_site_mark(cfun, bbs);
        /* loop-counters=register: a loop's counters in registers */
        if (pi_promote_loop_counters(cfun))
            pi_split_update(cfun);
        /* counting-opt=fast or lean: its counter updates as one asm each */
        if (pi_opt.counting_opt != PI_COPT_FULL && pi_counters_as_asm(cfun, false))
            pi_split_update(cfun);
    }
    pop_cfun();

    push_cfun(fun);
    auto_bitmap dead;
    make_clean(fun, copy->decl, dead);
    /* switch-again=yes: as pass-split does for its clean copy */
    if (pi_opt.switch_again && !pi_counted_late(decl)) {
        simple_dce_from_worklist(dead);
        cleanup_tree_cfg();
        unsigned int todo = pi_split_rerun_early_passes(fun);
        if (todo & TODO_update_ssa_any)
            update_ssa(todo & TODO_update_ssa_any);
        if (todo & TODO_cleanup_cfg)
            cleanup_tree_cfg();
    }
    cgraph_edge::rebuild_edges();
    pop_cfun();
    if (pi_opt.verbose)
        inform(DECL_SOURCE_LOCATION(decl), "perfinst: %qD counts in %qD", decl, copy->decl);
    return true;
}

/* NODE's version COPY, its counting copy, declared as such: linkage, comdat
 * group, options (LEVEL: counting-opt='s, PI_COPT_FULL for the unit's own),
 * f.count.N -> f noted, f dispatching. */
static void copy_decl_finish(cgraph_node *node, cgraph_node *copy, int level)
{
    tree decl = node->decl;
    /* The counting copy of an exported f is exported too, so that a
       handler that names the pc's function with dladdr (-rdynamic) finds
       f.count.N where it found f; protected, so that f's call binds to it
       locally (no PLT, no interposition).  Of a static, hidden, weak or
       comdat f it stays local, as create_version_clone_with_body makes it;
       and in code for a shared object (-fPIC): a library's dynamic symbol
       table is its interface, which counting must not change (its
       .symtab still names the copy, for pmopt; dladdr then finds no name). */
    if (!flag_shlib && TREE_PUBLIC(decl) && DECL_VISIBILITY(decl) == VISIBILITY_DEFAULT && !DECL_WEAK(decl) &&
        !DECL_COMDAT(decl) && !DECL_ONE_ONLY(decl) && !DECL_EXTERNAL(decl)) {
        TREE_PUBLIC(copy->decl) = 1;
        DECL_VISIBILITY(copy->decl) = VISIBILITY_PROTECTED;
        DECL_VISIBILITY_SPECIFIED(copy->decl) = 1;
        copy->externally_visible = true;
        copy->local = false;
    }
    /* The counting copy of a COMDAT f (an inline or template function of
       C++) joins f's group, as GCC's own local clones of it do: where the
       linker keeps another object's f, it drops this f.count with it, and
       its CODE chunks (pass-ranges.cc) with it. */
    if (node->get_comdat_group() && !copy->get_comdat_group())
        copy->add_to_same_comdat_group(node);
    if (level != PI_COPT_FULL)
        copy_options(copy->decl, level);
    pi_countfn_note(copy->decl, decl);
    if (!dispatching) {
        dispatching = new hash_set<tree>;
        pi_gc_root_set(&dispatching);
    }
    dispatching->add(decl);
}

static unsigned int countfn_execute(function *)
{
    auto_vec<cgraph_node *> todo;
    cgraph_node *node;
    FOR_EACH_DEFINED_FUNCTION(node)
    if (node->has_gimple_body_p() && (!node->clone_of || node->clone_of->decl != node->decl) &&
        !node->inlined_to && !node->thunk &&
        !pi_countfn_origin(node->decl))
        todo.safe_push(node);
    for (unsigned i = 0; i < todo.length(); i++)
        split_off_counting(todo[i]);
    return 0;
}

/* ---- the arguments of the sibling call, in RTL ----------------------------
 *
 * Expanded, C's call passes f's parameters from the pseudos the entry
 * block copied the argument registers into.  A parameter the clean body
 * keeps across a call lives in a callee-saved register, so that copy
 * (`mov %rdi,%r14`) is used on both paths and must stay above the test,
 * and the prologue that saves %r14 with it: shrink-wrapping cannot put it
 * after the test (706 of SQLite's 1358 dispatching functions).  So, right
 * after expansion, C passes each such argument from its incoming register
 * itself (nothing between the entry and the call sets it: the test is a
 * load and a compare): the copy is then used by the clean path alone, and
 * shrink-wrapping's prepare_shrink_wrap sinks it there with the prologue. */

/* The only set of pseudo P in the function, or NULL. */
static rtx_insn *only_set(unsigned p)
{
    rtx_insn *found = NULL;
    for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn))
        if (INSN_P(insn) && reg_set_p(regno_reg_rtx[p], insn)) {
            if (found)
                return NULL;
            found = insn;
        }
    return found;
}

static unsigned int countfn_args_execute(function *fun)
{
    /* only where a parameter may have to live across a call: in a function
       without calls the change only moved registers around (cell_info in
       tests/count/countfn.c got a `mov` before its `jmp *`) */
    bool calls = false;
    for (rtx_insn *insn = get_insns(); insn && !calls; insn = NEXT_INSN(insn))
        calls = CALL_P(insn) && !SIBLING_CALL_P(insn);
    if (!calls)
        return 0;
    basic_block first = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    {
        rtx_insn *call = BB_END(bb);
        if (!CALL_P(call) || !SIBLING_CALL_P(call) || !single_pred_p(bb) || single_pred(bb) != first)
            continue;
        rtx fn = get_call_rtx_from(call); /* (call (mem (symbol_ref f.count)) ...) */
        rtx sym = fn && MEM_P(XEXP(fn, 0)) ? XEXP(XEXP(fn, 0), 0) : NULL_RTX;
        if (!sym || GET_CODE(sym) != SYMBOL_REF || !SYMBOL_REF_DECL(sym) ||
            !pi_countfn_origin(SYMBOL_REF_DECL(sym)))
            continue;
        /* no call in the first block or in C before the sibling call */
        bool clean = true;
        for (rtx_insn *i = BB_HEAD(first); clean && i != NEXT_INSN(BB_END(first)); i = NEXT_INSN(i))
            clean = !CALL_P(i);
        for (rtx_insn *i = BB_HEAD(bb); clean && i != call; i = NEXT_INSN(i))
            clean = !CALL_P(i);
        if (!clean)
            continue;
        for (rtx_insn *i = BB_HEAD(bb), *next; i != call; i = next) {
            next = NEXT_INSN(i);
            rtx set = NONJUMP_INSN_P(i) ? single_set(i) : NULL_RTX;
            if (!set || !REG_P(SET_DEST(set)) || !HARD_REGISTER_P(SET_DEST(set)) || !REG_P(SET_SRC(set)) ||
                HARD_REGISTER_P(SET_SRC(set)))
                continue;
            unsigned hard = REGNO(SET_DEST(set));
            if (!FUNCTION_ARG_REGNO_P(hard) || !find_reg_fusage(call, USE, SET_DEST(set)))
                continue;
            /* the pseudo: a copy of the same incoming register in the first block */
            rtx_insn *def = only_set(REGNO(SET_SRC(set)));
            rtx dset = def ? single_set(def) : NULL_RTX;
            if (!dset || BLOCK_FOR_INSN(def) != first || !REG_P(SET_SRC(dset)) || REGNO(SET_SRC(dset)) != hard ||
                GET_MODE(SET_SRC(dset)) != GET_MODE(SET_DEST(set)))
                continue;
            /* nothing else sets the register from the entry to the call */
            bool kept = true;
            for (rtx_insn *k = BB_HEAD(first); kept && k != NEXT_INSN(BB_END(first)); k = NEXT_INSN(k))
                kept = !INSN_P(k) || k == def || !reg_set_p(SET_DEST(set), k);
            for (rtx_insn *k = BB_HEAD(bb); kept && k != call; k = NEXT_INSN(k))
                kept = !INSN_P(k) || k == i || !reg_set_p(SET_DEST(set), k);
            if (kept)
                delete_insn(i); /* the register still holds the argument */
        }
        /* The entry's copies of the arguments that only the clean path
           uses now go on the edge into it: a parameter the register
           allocator spills is then stored there, not above the test
           (vdbeSorterCompareText's `mov %ecx,0x8(%rsp)`). */
        edge clean_edge = EDGE_SUCC(first, 0)->dest == bb ? EDGE_SUCC(first, 1) : EDGE_SUCC(first, 0);
        if (EDGE_COUNT(first->succs) != 2 || clean_edge->dest == bb || (clean_edge->flags & EDGE_COMPLEX) ||
            !single_pred_p(first))
            continue; /* (entered once: no path back into it where the registers changed) */
        bool moved = false;
        for (rtx_insn *i = BB_HEAD(first), *next; i != NEXT_INSN(BB_END(first)); i = next) {
            next = NEXT_INSN(i);
            rtx set = NONJUMP_INSN_P(i) ? single_set(i) : NULL_RTX;
            if (!set || set != PATTERN(i) || !REG_P(SET_DEST(set)) || HARD_REGISTER_P(SET_DEST(set)) ||
                !REG_P(SET_SRC(set)) || !HARD_REGISTER_P(SET_SRC(set)) ||
                !FUNCTION_ARG_REGNO_P(REGNO(SET_SRC(set))))
                continue;
            rtx p = SET_DEST(set);
            bool alone = only_set(REGNO(p)) == i;
            for (rtx_insn *k = BB_HEAD(first); alone && k != NEXT_INSN(BB_END(first)); k = NEXT_INSN(k))
                alone = k == i || !INSN_P(k) || (!reg_mentioned_p(p, PATTERN(k)) &&
                                                 (k == BB_END(first) || !reg_set_p(SET_SRC(set), k)));
            for (rtx_insn *k = BB_HEAD(bb); alone && k != NEXT_INSN(BB_END(bb)); k = NEXT_INSN(k))
                alone = !INSN_P(k) || !reg_mentioned_p(p, PATTERN(k));
            if (!alone)
                continue;
            rtx pat = copy_rtx(PATTERN(i));
            delete_insn(i);
            insert_insn_on_edge(pat, clean_edge);
            moved = true;
        }
        if (moved)
            commit_edge_insertions();
    }
    return 0;
}

static bool countfn_args_gate(function *fun) { return dispatching && dispatching->contains(fun->decl); }
PI_RTL_PASS(countfn_args)

/* ---- site markers that alone keep a block (bare-markers=drop) ----
 *
 * A counting copy's block whose count the spanning tree derives (or that
 * shares its dominator's counter) holds its site marker and nothing else
 * once its code is gone: the join after an if, the block a switch's
 * `break`s reach before the loop's latch.  Where -O2 has an empty
 * forwarder that the CFG cleanup removes, sending its predecessors'
 * jumps straight on, the marker (a volatile asm) keeps the block, and
 * each jump into it takes a second jump out: a jump chain (gawk's
 * interpreter loop: a case's jump to such a block, its jump to the latch,
 * the latch's jump to the loop's head).  Right before jump2's CFG cleanup
 * the markers of the counting copy's blocks that hold nothing but site
 * markers and end in a simple jump or fall through to one block are
 * deleted: the site keeps its count (the counters and the flow graph were
 * made before) and has no code range, as a site whose code GCC deleted.
 * A marker that carries its block's counter update (one asm, a body kept
 * whole) is code, not bare.  tests/count/t-bare-markers.sh. */
static bool bare_marker_p(rtx_insn *insn)
{
    const char *t = pi_rtl_asm_template(insn);
    return t && strncmp(t, PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) == 0 && !strchr(t, '\n');
}

static unsigned int baremarkers_execute(function *fun)
{
    basic_block bb;
    unsigned dropped = 0;
    FOR_EACH_BB_FN(bb, fun)
    {
        if (!single_succ_p(bb) || single_succ(bb) == EXIT_BLOCK_PTR_FOR_FN(fun) ||
            (single_succ_edge(bb)->flags & (EDGE_ABNORMAL | EDGE_EH)))
            continue;
        auto_vec<rtx_insn *, 4> markers;
        bool other = false;
        rtx_insn *insn;
        FOR_BB_INSNS(bb, insn)
        {
            if (!NONDEBUG_INSN_P(insn))
                continue;
            if (JUMP_P(insn))
                other |= !simplejump_p(insn);
            else if (bare_marker_p(insn))
                markers.safe_push(insn);
            else
                other = true;
        }
        if (other || markers.is_empty())
            continue;
        for (unsigned i = 0; i < markers.length(); i++)
            delete_insn(markers[i]);
        dropped += markers.length();
    }
    if (pi_opt.verbose && dropped)
        inform(DECL_SOURCE_LOCATION(fun->decl), "perfinst: bare markers of %qs: %u deleted",
               IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), dropped);
    return 0;
}

static bool baremarkers_gate(function *fun)
{
    return !pi_opt.bare_markers_keep && optimize > 0 && !seen_error() && pi_countfn_origin(fun->decl);
}
PI_RTL_PASS(baremarkers)

/* ---- a loop's latch copied into the blocks that jump to it (latch-copy=yes) ----
 *
 * An interpreter's loop: the cases of a switch end in a jump to one small
 * latch block (gawk's `pc = pc->nexti`, two loads), which jumps back to
 * the loop's head.  -O2's bb-reorder copies such a latch into the cases,
 * so that each case goes straight back to the head, when the latch ends
 * up a trace of its own: in gawk's r_interpret because the switch's empty
 * cases go straight to it, a hot edge from the dispatch, whose end of a
 * trace makes the latch the next trace's seed.  In the counting copy that
 * edge is critical and off the spanning tree: its counter sits in a block
 * of its own between the dispatch and the latch, which takes the latch's
 * place as the seed and pulls the latch into its trace, so no case gets a
 * copy: each case jumps to the latch and the latch to the head (2.3 M
 * taken jumps more in gawk fields at the small scale).  No counter moves
 * to fix that (the flow needs one on each of the switch's ways to the
 * latch, or one on the hot way round).  Instead, right before bb-reorder,
 * a counting copy's loop latch -- a block its one successor dominates,
 * reached from two blocks or more, that bb-reorder would copy by its
 * size (its site markers weigh nothing: they emit no code; no other asm,
 * no call) -- is copied into each predecessor that ends in a plain jump
 * to it and runs at least a tenth as often as the function is called (as
 * bb-reorder's own threshold), merged with it, as GCC's computed-goto
 * duplication does.  The counts do not change: a copy's marker is the
 * latch's site, and ranges (pass-ranges.cc) takes each copy's code.
 * tests/count/t-latch-copy.sh. */
static bool latch_copyable(basic_block bb, int max_size)
{
    if (EDGE_COUNT(bb->preds) < 2 || !single_succ_p(bb))
        return false;
    edge out = single_succ_edge(bb);
    if (out->dest == EXIT_BLOCK_PTR_FOR_FN(cfun) || (out->flags & EDGE_COMPLEX) || out->dest == bb ||
        !dominated_by_p(CDI_DOMINATORS, bb, out->dest) || BB_PARTITION(out->dest) != BB_PARTITION(bb))
        return false;
    if (!optimize_bb_for_speed_p(bb) || !can_duplicate_block_p(bb))
        return false;
    int size = 0;
    rtx_insn *insn;
    FOR_BB_INSNS(bb, insn)
    {
        if (!INSN_P(insn) || DEBUG_INSN_P(insn) || bare_marker_p(insn))
            continue;
        if (CALL_P(insn) || (JUMP_P(insn) && !simplejump_p(insn)) || asm_noperands(PATTERN(insn)) >= 0 ||
            GET_CODE(PATTERN(insn)) == ASM_INPUT)
            return false;
        if (targetm.cannot_copy_insn_p && targetm.cannot_copy_insn_p(insn))
            return false;
        size += get_attr_min_length(insn);
        if (size > max_size)
            return false;
    }
    return true;
}

static unsigned int latchcopy_execute(function *fun)
{
    int max_size = get_uncond_jump_length() * param_max_grow_copy_bb_insns;
    profile_count entry = ENTRY_BLOCK_PTR_FOR_FN(fun)->count;
    profile_count threshold = entry.initialized_p() ? entry.apply_scale(100, 1000) : profile_count::uninitialized();
    calculate_dominance_info(CDI_DOMINATORS);
    auto_vec<basic_block> latches;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    if (latch_copyable(bb, max_size))
        latches.safe_push(bb);
    free_dominance_info(CDI_DOMINATORS);
    unsigned copies = 0, copied = 0;
    for (unsigned i = 0; i < latches.length(); i++) {
        basic_block latch = latches[i];
        unsigned before = copies;
        edge e;
        edge_iterator ei;
        for (ei = ei_start(latch->preds); (e = ei_safe_edge(ei));) {
            basic_block pred = e->src;
            /* as GCC's computed-goto duplication: a copy merged with PRED */
            if (pred == latch || pred->index < NUM_FIXED_BLOCKS || !single_succ_p(pred) || (e->flags & EDGE_COMPLEX) ||
                (JUMP_P(BB_END(pred)) && (!simplejump_p(BB_END(pred)) || CROSSING_JUMP_P(BB_END(pred)))) ||
                BB_PARTITION(pred) != BB_PARTITION(latch) || !optimize_edge_for_speed_p(e) ||
                (threshold.initialized_p() && e->count().initialized_p() && e->count() < threshold) ||
                EDGE_COUNT(latch->preds) < 2) {
                ei_next(&ei);
                continue;
            }
            basic_block copy = duplicate_block(latch, e, NULL);
            emit_barrier_after_bb(copy);
            reorder_insns_nobb(BB_HEAD(copy), BB_END(copy), BB_END(pred));
            merge_blocks(pred, copy);
            copies++;
        }
        copied += copies > before;
    }
    if (copies) {
        cleanup_cfg(0);
        fixup_partitions();
    }
    if (pi_opt.verbose && copies)
        inform(DECL_SOURCE_LOCATION(fun->decl), "perfinst: latches of %qs: %u copied into %u blocks",
               IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fun->decl)), copied, copies);
    return 0;
}

static bool latchcopy_gate(function *fun)
{
    return pi_opt.latch_copy && optimize > 0 && !seen_error() && pi_countfn_origin(fun->decl) &&
           (flag_reorder_blocks || flag_reorder_blocks_and_partition) && optimize_function_for_speed_p(fun) &&
           !targetm.cannot_modify_jumps_p();
}
PI_RTL_PASS(latchcopy)

static bool countfn_gate(function *fun)
{
    return pi_opt.counting_function && !seen_error() && pi_unit_instrumented() && optimize && !optimize_debug &&
           flag_optimize_sibling_calls && !in_lto_p && !(flag_lto && *flag_lto) && !pi_entry_jump_usable();
}
PI_SIMPLE_IPA_PASS(countfn)

/* ---- clean-copies=late: the copies split at the end of GIMPLE -------------
 *
 * With the default, f.count.N is made above, right after IPA, and each copy
 * then goes through every late GIMPLE pass and the RTL passes: two full
 * compiles of each counted function (2.2x plain -O2's cc1 instructions on
 * Lua's lparser.c).  With clean-copies=late f keeps its one, counting body
 * through the GIMPLE passes (pass-split leaves it whole, its updates one
 * asm each, as clean-copies=none does), and this pass, the last before
 * "expand", splits that optimised body:
 *
 *   - f.count.N is a version of it as it is (counters, site markers,
 *     return sites: the counts and the profile's CFG are the one body's,
 *     those of clean-copies=none);
 *   - f loses its counters, markers and probes, gets the dispatch of
 *     add_dispatch, and what the counters kept alive goes (DCE, CFG
 *     cleanup), then goes on to expand;
 *   - f.count.N is compiled right away, before f, from "expand" on
 *     (pass_startwith: GCC's passes up to expand skip it, as for a
 *     __GIMPLE function of the C front end, but those that provide a
 *     property, lowerings with nothing left to lower), so that f's callers
 *     know what registers f uses (-fipa-ra, as with callees expanded
 *     first).
 *
 * So the GIMPLE passes run once per function and only expansion and the
 * RTL passes twice.  The clean f is the counting body optimised with its
 * counters, then without them: off mode runs code that GCC optimised
 * around asm statements (no if-conversion or vectorisation of a block that
 * counted), not -O2's own.  Computed goto: f.count.N's label tables of its
 * own, as above. */

/* COPY (a function of its own, made during f's passes) compiled now:
 * from "expand" on, then f's RTL state made anew, as before its passes. */
static void expand_now(cgraph_node *copy, function *f)
{
    opt_pass *pass = current_pass;
    FILE *df = dump_file;
    dump_flags_t flags = dump_flags;
    const char *dname = dump_file_name;
    location_t loc = input_location;
    bitmap_obstack regs = reg_obstack; /* (expand initialises and releases it) */
    DECL_STRUCT_FUNCTION(copy->decl)->pass_startwith = xstrdup("expand");
    copy->process = 0;
    copy->expand();
    reg_obstack = regs;
    current_pass = pass;
    dump_file = df;
    dump_flags = flags;
    dump_file_name = dname;
    input_location = loc;
    if (cfun != f)
        set_cfun(f);
    current_function_decl = f->decl;
    init_function_start(f->decl);
    gimple_register_cfg_hooks(); /* (the copy's RTL passes left RTL's) */
}

static bool true_gate(function *) { return true; }

/* late: FUN (cfun) made the clean f of COPY, in GIMPLE */
static void clean_late(function *fun, cgraph_node *copy)
{
    auto_bitmap dead;
    make_clean(fun, copy->decl, dead);
    simple_dce_from_worklist(dead);
    cleanup_tree_cfg();
    static opt_pass *dce, *tailc;
    if (!dce) {
        dce = make_pass_dce(g);
        tailc = make_pass_tail_calls(g);
    }
    /* what the counters alone used (an inline cache's loads and
       compares, a counter kept in a register across a loop), then a
       call the counters kept from the tail (a return site's marker
       after it) made a sibling call again, as at -O2: GCC's DCE and
       "tailc" */
    run_pass(dce, fun);
    run_pass(tailc, fun);
    cgraph_edge::rebuild_edges();
}

/* ---- clean-copies=final: f from f.count.N's assembly ----------------------
 *
 * As late, but f.count.N is compiled at the unit's own options and f is
 * not compiled: its body becomes the dispatch and one basic asm holding
 * f.count.N's assembly less its counter updates (finalcopy.cc), so that
 * expansion and the RTL passes run once per function.  Where that cannot
 * be, f is late's clean copy (final_refusal, pi_final_derive). */

static hash_set<tree> *final_bodies;

bool pi_countfn_final_body(tree f) { return final_bodies && final_bodies->contains(f); }

static tree mentions_decl(tree *tp, int *walk_subtrees, void *d)
{
    if (*tp == (tree)d)
        return *tp;
    if (TYPE_P(*tp))
        *walk_subtrees = 0;
    return NULL_TREE;
}

/* Why FUN's (cfun's) clean copy cannot be its counting copy's code less
 * the counter updates, before the copy is made; NULL if it can. */
static const char *final_refusal(function *fun)
{
    tree ctr = pi_counter_decl();
    if (!ctr)
        return "no counters";
    /* the update must be `addq $N, %fs:CTR@tpoff+K`, or under -fPIC
       `addq $N, %fs:D(%REG)` through the offset of one asm (pass-tls.cc),
       nothing else */
    bool pic = pi_counter_offset_decl() != NULL_TREE;
    if (!pi_opt.counter_address_abs)
        return "counters through a base register (counter-address=base)";
    if (pic ? !pi_ctr_base_asm_ok() : DECL_TLS_MODEL(ctr) != TLS_MODEL_LOCAL_EXEC)
        return "counters through GCC's TLS model (-ftls-model, or -fPIC with retpolines, Intel syntax or -mcmodel=large)";
    if (pic && (fun->calls_setjmp || fun->has_nonlocal_label))
        return "-fPIC's counters through GCC's TLS model (setjmp, a nonlocal label)";
    if (pi_opt.counting_opt == PI_COPT_FULL)
        return "counting-opt=full (GCC's own counter updates)";
    /* finalcopy.cc reads and writes AT&T's syntax */
    if (ix86_asm_dialect != ASM_ATT)
        return "Intel syntax (-masm=intel)";
    if (profile_flag || flag_instrument_function_entry_exit)
        return "-pg or -finstrument-functions";
    if (fun->has_forced_label_in_static)
        return "label addresses in a static table (computed goto)";
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (is_a<gasm *>(g) || is_gimple_debug(g))
            continue;
        /* a call-free loop's counters are GCC's loads and stores (store
           motion's), which f keeps and leaves out: one counter at a
           constant index each, else f could not tell a store into the
           counters from the program's */
        for (unsigned i = 0; i < gimple_num_ops(g); i++) {
            tree op = gimple_op(g, i);
            if (op && walk_tree_without_duplicates(&op, mentions_decl, ctr) &&
                (!gimple_assign_single_p(g) || i > 1 || pi_counter_index(op, ctr) < 0))
                return "the counters' address taken or at a variable index";
            /* (under -fPIC a cache is GIMPLE's loads and stores through
               the offset: pass-count.cc icall_as_asm) */
            if (op && pic && pi_icall_decl() && walk_tree_without_duplicates(&op, mentions_decl, pi_icall_decl()))
                return "-fPIC: an indirect call's inline cache";
        }
    }
    return NULL;
}

/* FUN (cfun) made a naked function of one basic asm: the dispatch to
 * COPY, then BODY (COPY's code less its counters, as assembly).  Naked: GCC
 * gives it no prologue, no frame and no epilogue (a local or a parameter
 * left in FUN's declarations would otherwise get a stack slot and a
 * prologue above the body, which has its own: the off mode crashed so in
 * zstd, gawk and ninja), and collects no register usage of it for
 * -fipa-ra (its callers assume the ABI's).  No stack protector either: the
 * body has the copy's, and expand would still store the canary of a
 * function that called alloca (-fstack-protector) or of every function
 * (-fstack-protector-all) into a frame FUN does not have — its caller's
 * (libsodium's sodium_stackzero crashed in the off mode). */
static void make_final(function *fun, tree copy, const char *body)
{
    tree decl = fun->decl;
    const char *fnon = pi_fnon_asm_name();
    int fi = pi_split_switch_index(decl);
    /* (past the copy's own test, copy-calls=direct: pass-tailjump.cc) */
    const char *on = pi_copy_entry_label(decl);
    /* the function's switch byte; a function with none of its own (C++'s
       implicit destructors, whose only code is their members' inlined
       destructors: they get no site of their own) tests the mode register
       as late's dispatch does, through the GOT (an int of libperfinst's;
       %r11 is free at a function's entry) */
    char *test = fi >= 0 && fnon ? xasprintf("cmpb\t$0, %d+%s(%%rip)", fi, fnon)
                                 : xstrdup("movq\t__perfinst_on@GOTPCREL(%rip), %r11\n\tcmpl\t$0, (%r11)");
    char *text = xasprintf("%s\n\tjne\t%s\n%s", test, on ? on : pi_asm_name(copy), body);
    free(test);
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    basic_block b = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
    remove_edge(single_succ_edge(b));
    gimple_stmt_iterator gsi = gsi_start_bb(b);
    gasm *a = gimple_build_asm_vec(ggc_strdup(text), NULL, NULL, NULL, NULL);
    free(text);
    gimple_asm_set_volatile(a, true);
    gimple_asm_set_input(a, true);
    gimple_set_location(a, DECL_SOURCE_LOCATION(decl));
    gsi_insert_after(&gsi, a, GSI_NEW_STMT);
    gcall *u = gimple_build_call(builtin_decl_implicit(BUILT_IN_UNREACHABLE), 0);
    gimple_call_set_ctrl_altering(u, true);
    gsi_insert_after(&gsi, u, GSI_NEW_STMT);
    delete_unreachable_blocks();
    /* f has no exception regions of its own now (its body's exception
       table, if any, is in the asm: finalcopy.cc) */
    if (fun->eh && fun->eh->region_tree) {
        fun->eh = NULL;
        init_eh_for_function();
    }
    pi_split_update(fun);
    fun->local_decls = NULL;
    fun->calls_alloca = 0;
    DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("naked"), NULL_TREE, DECL_ATTRIBUTES(decl));
    DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("no_stack_protector"), NULL_TREE, DECL_ATTRIBUTES(decl));
    cgraph_edge::rebuild_edges();
}

static unsigned int latecopy_execute(function *fun)
{
    tree decl = fun->decl;
    cgraph_node *node = cgraph_node::get(decl);
    if (!node || !pi_countfn_late_ok(fun))
        return 0;
    const char *refusal = NULL;
    if (pi_opt.clean_copies == PI_CLEAN_FINAL)
        refusal = final_refusal(fun);
    bool final = pi_opt.clean_copies == PI_CLEAN_FINAL && !refusal;
    /* (the late passes leave calls they made without a call graph edge,
       which versioning wants) */
    cgraph_edge::rebuild_edges();
    cgraph_node *copy = version_counting(node, fun, true_gate);
    if (!copy) {
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(decl), "perfinst: %qD keeps one, counting body", decl);
        return 0;
    }
    /* final: the copy's code is also the off mode's, so counting-opt=fast's
       options (lean's -O1 would make f -O1's code); lparser.c with lean's
       fallbacks: 1.32x plain -O2's instructions, 1.40x at the unit's own
       options (bench/RESULTS.md 2026-11-30 09:24) */
    copy_decl_finish(node, copy, final ? PI_COPT_FAST : pi_opt.counting_opt);
    if (!final)
        clean_late(fun, copy);
    /* the one GIMPLE pass after this one that the copy needs: its counters
       through %fs in -fPIC code (pass-tls.cc; the copy skips the passes up
       to expand) */
    {
        static opt_pass *tls;
        if (!tls)
            tls = pi_make_tls_pass(g);
        push_cfun(DECL_STRUCT_FUNCTION(copy->decl));
        run_pass(tls, cfun);
        /* final: the calls f may make tail calls (finalcopy.cc) */
        if (final)
            pi_final_mark_tail_calls(cfun);
        pop_cfun();
    }
    if (!final) {
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(decl), "perfinst: %qD counts in %qD, split after the GIMPLE passes%s%s%s",
                   decl, copy->decl, refusal ? " (not from its assembly: " : "", refusal ? refusal : "",
                   refusal ? ")" : "");
        expand_now(copy, fun);
        return 0;
    }
    pi_final_capture_start();
    expand_now(copy, fun);
    size_t len;
    char *text = pi_final_capture_end(&len);
    pi_final_write(text, len);
    char *body = NULL, *chunks = NULL, *cold = NULL;
    const char *why = "nothing captured";
    bool ok = text && pi_final_derive(text, len, pi_asm_name(copy->decl), pi_asm_name(decl),
                                      pi_asm_name(pi_counter_decl()),
                                      pi_icall_decl() ? pi_asm_name(pi_icall_decl()) : NULL, pi_ranges_unique_id,
                                      &body, &chunks, &cold, &why);
    free(text);
    if (!ok) {
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(decl),
                   "perfinst: %qD counts in %qD, split after the GIMPLE passes (not from its assembly: %s)", decl,
                   copy->decl, why);
        clean_late(fun, copy);
        return 0;
    }
    if (chunks)
        pi_final_write(chunks, strlen(chunks));
    /* f's cold part, an FDE of its own in the cold section (finalcopy.cc) */
    if (cold)
        pi_final_write(cold, strlen(cold));
    make_final(fun, copy->decl, body);
    free(body);
    free(chunks);
    free(cold);
    if (!final_bodies) {
        final_bodies = new hash_set<tree>;
        pi_gc_root_set(&final_bodies);
    }
    final_bodies->add(decl);
    if (pi_opt.verbose)
        inform(DECL_SOURCE_LOCATION(decl), "perfinst: %qD counts in %qD, %qD made of its assembly", decl,
               copy->decl, decl);
    return 0;
}

static bool latecopy_gate(function *fun)
{
    return (pi_opt.clean_copies == PI_CLEAN_LATE || pi_opt.clean_copies == PI_CLEAN_FINAL) && !seen_error() &&
           pi_kept_one_body(fun->decl) &&
           !pi_countfn_origin(fun->decl);
}
PI_GIMPLE_PASS(latecopy, PROP_cfg | PROP_ssa)
