/* pass-tls.cc — a function's counters through one base register: the
 * counters of a shared object without __tls_get_addr, and shorter updates.
 *
 * The counters are `static __thread` (unit.cc).  In an executable GCC
 * gives them the local-exec model: `addq $1, %fs:__perfinst_ctr@tpoff+8*K`.
 * Compiled -fPIC for a shared object they get a dynamic model (local- or
 * global-dynamic), whose address is a call of __tls_get_addr: GCC makes
 * one on each path to a counter update, so a counting copy called often
 * spends more in __tls_get_addr than in its own code (libyaml: 30 % of the
 * counting run, bench/RESULTS.md).
 *
 * Here, the last GIMPLE pass, a function's counter loads and stores at a
 * constant offset K become %fs-relative (GCC's __seg_fs address space)
 * from one offset computed where it dominates them all, outside any loop:
 *
 *     off = __perfinst_ctr_off;                 mov __perfinst_ctr_off(%rip), %rax
 *     if (off == 0)                             test %rax, %rax; je .Lslow
 *         off = &__perfinst_ctr - %fs:0;        (.Lslow: __tls_get_addr, sub %fs:0)
 *     ... *(__seg_fs uint64_t *)(off + 8*K) += 1 ...     addq $1, %fs:8*K(%rax)
 *
 * __perfinst_ctr_off is a plain static the unit's constructor sets to the
 * offset from the thread pointer when the runtime finds the array in the
 * static TLS block (__perfinst_tls_static_offset, runtime/thread.c): a
 * module loaded at start-up, or one a dlopen placed in the static surplus,
 * has its block at the same offset from every thread's pointer.
 * Otherwise (a dlopen'ed module glibc gives per-thread blocks, code that
 * runs before the constructor, a runtime that cannot tell) it stays 0 and
 * the address comes from GCC's own model, once per call of the function.
 * Either way the counters are the thread's own, where the runtime reads
 * them through the unit's getter (which keeps GCC's model).  In AT&T
 * syntax without retpolines the load, its test and the slow path are one
 * asm of one output (unit.cc pi_ctr_base_asm_template), whose slow path,
 * out of line, calls the runtime's register-saving stub
 * (__perfinst_ctr_base_stub: the getter, once per thread, then a cache):
 * GCC sees no call, so no value is moved into a call-saved register
 * around it, and clean-copies=final's f leaves the asm out with the
 * updates (finalcopy.cc).  A counting
 * copy's updates are asms (copies.cc, pi_counters_as_asm) written in the
 * local-exec form, which a shared object cannot link: here every one
 * becomes `addq $N, %fs:8*K(%reg)` through the offset
 * (pi_counter_asm_rebase).
 *
 * With counter-address=base (not the default: more instructions, the
 * movq on every call, a push and pop where the base lives across calls),
 * executables (the local-exec model) get the same base, there a constant
 * of the link:
 *
 *     movq $__perfinst_ctr@tpoff+BIAS, %reg     (7 bytes, once per call)
 *     addq $1, %fs:8*K-BIAS(%reg)               (6 bytes with a disp8)
 *
 * against `addq $1, %fs:__perfinst_ctr@tpoff+8*K`, 10 bytes (an absolute
 * address through a SIB byte).  A counting copy's updates are asms there
 * (copies.cc, pi_counters_as_asm): each becomes an asm with the base as
 * its one register operand (pi_counter_asm_rebase); GCC's own loads and
 * stores (loops without calls) become %fs MEM_REFs off the base, as
 * under -fPIC.  The movq is an asm too (GCC has no constant for a TLS
 * offset).  A function with fewer than MIN_UPDATES updates keeps the
 * absolute form.
 *
 * Under -fPIC the inline caches of indirect calls (__perfinst_ctr_icall,
 * pass-count.cc add_icall_cache: two loads, a compare, an add per call
 * site) go through the same offset: the module's TLS block is one piece
 * in every thread (static or not), so the caches lie at a constant of the
 * link from the counters (off0: their offset, before any bias), x@dtpoff
 * being x's offset in the block:
 *
 *     icall_off = off0 + __perfinst_ctr_icall@dtpoff - __perfinst_ctr@dtpoff
 *     ... cmpq %fs:32*S(icall_off), %reg ...      (an asm: leaq + subq)
 *
 * (linked into an executable, ld resolves both as @tpoff: the same
 * difference).  The miss call's slot address is %fs:0 + icall_off + 32*S,
 * with no __tls_get_addr either.  A cache made one asm (clean-copies=final:
 * pass-count.cc icall_as_asm, written in the local-exec form) gets off0 as
 * its second operand and makes icall_off itself, in %r11
 * (pi_icall_asm_rebase).  In a function this pass leaves to GCC's model
 * (setjmp ..., below) such an asm is given the slots' address by GCC's
 * model instead: the local-exec form would not link into a shared object.
 * Executables keep the caches' local-exec form.
 *
 * The bias (both models): a disp8 reaches 32 eight-byte counters,
 * base-128 .. base+120; the window is put where the function's updates
 * weigh most (GCC's estimated block frequencies), its first counter at
 * base-128; the others get a disp32.  Under -fPIC the bias is an add on
 * every call: only with counter-address=base, and only where it brings
 * 2 more updates to a disp8.
 *
 * Left to GCC's model: a reference at a variable offset, the address
 * taken (the getter), -flto (units share a partition), functions
 * calling setjmp or with nonlocal labels.  -O0 is rewritten too (a
 * CMake project's Debug build, libgit2's default, puts -O0 after the
 * user's flags): its updates stay GIMPLE loads and stores (copies.cc
 * makes no asms there), each through the one offset, not a call of
 * __tls_get_addr per update (libgit2's workload: 2.03x plain's
 * instructions counted; tests/count/t-shlib-tls-o0.sh).
 */
#include "plugin.h"
#include "cfgloop.h"
#include "tree-dfa.h"
#include "tm_p.h"
#include "sreal.h"

/* REF (a load's or a store's memory operand) at a constant byte offset in
 * CTR: that offset in *OFF. */
static bool counter_offset(tree ref, tree ctr, HOST_WIDE_INT *off)
{
    if (!ref || TREE_CODE(ref) == SSA_NAME || is_gimple_min_invariant(ref) || (DECL_P(ref) && ref != ctr))
        return false;
    poly_int64 p;
    tree base = get_addr_base_and_unit_offset(ref, &p);
    return base == ctr && p.is_constant(off) && *off >= 0;
}

/* DISP8 reach of one base: the offsets base-128 .. base+120 */
#define WINDOW 248

/* The bias: the start of the window of 32 counters whose updates weigh
 * most (estimated executions), + 128; the others get a disp32. */
struct weight {
    HOST_WIDE_INT first; /* a counter's byte offset */
    double second;       /* its update's estimated executions a call */
};

static int by_offset(const void *a, const void *b)
{
    HOST_WIDE_INT x = ((const weight *)a)->first, y = ((const weight *)b)->first;
    return (x > y) - (x < y);
}

static HOST_WIDE_INT choose_bias(auto_vec<weight> &w)
{
    w.qsort(by_offset);
    HOST_WIDE_INT best = w[0].first;
    double best_sum = -1, sum = 0;
    for (unsigned lo = 0, hi = 0; lo < w.length(); sum -= w[lo].second, lo++) {
        while (hi < w.length() && w[hi].first <= w[lo].first + WINDOW)
            sum += w[hi++].second;
        if (sum > best_sum) {
            best_sum = sum;
            best = w[lo].first;
        }
    }
    return best + 128;
}

/* %fs:0, the thread pointer (the TCB's first word points to itself), as
 * a load of a pointer-sized integer */
static tree thread_pointer(void)
{
    tree uptr = pointer_sized_int_node;
    tree fs_uptr = build_qualified_type(uptr, ENCODE_QUAL_ADDR_SPACE(DEFAULT_TLS_SEG_REG));
    tree fs_uptr_ptr = build_pointer_type(fs_uptr);
    tree ref = build2(MEM_REF, fs_uptr, build_int_cst(fs_uptr_ptr, 0), build_int_cst(fs_uptr_ptr, 0));
    TREE_THIS_NOTRAP(ref) = 1; /* (-fnon-call-exceptions: no EH edge wanted) */
    return ref;
}

/* OUT = asm TEXT (its one operand, an output), before *GSI, which then
 * points after it; VOLATILE_P: kept where it is (a memory load GCC does
 * not see), its size for the estimates one instruction */
static void insert_offset_asm(gimple_stmt_iterator *gsi, const char *text, tree out, bool volatile_p, location_t loc)
{
    vec<tree, va_gc> *outputs = NULL;
    vec_safe_push(outputs, pi_asm_operand("=r", out));
    gasm *a = gimple_build_asm_vec(ggc_strdup(text), NULL, outputs, NULL, NULL);
    if (volatile_p) {
        gimple_asm_set_volatile(a, true);
        gimple_asm_set_inline(a, true);
    }
    SSA_NAME_DEF_STMT(out) = a;
    gimple_set_location(a, loc);
    gsi_insert_before(gsi, a, GSI_SAME_STMT);
    *gsi = gsi_for_stmt(a);
    gsi_next(gsi);
}

/* functions left to GCC's model */
static bool tls_skip(function *fun)
{
    return pi_is_own_decl(fun->decl) || fun->calls_setjmp || fun->has_nonlocal_label;
}

static bool tls_gate(function *fun)
{
    tree ctr = pi_counter_decl();
    if (seen_error() || !ctr)
        return false;
    /* -fPIC: the offset (above), or the inline caches' asms given the
       slots' address where there is none; an executable: its constant
       offset */
    return pi_counter_offset_decl() ||
           (!tls_skip(fun) && DECL_TLS_MODEL(ctr) == TLS_MODEL_LOCAL_EXEC && !pi_opt.counter_address_abs);
}

/* -fPIC, a function left to GCC's model: its caches' asms given the slots'
 * address, &__perfinst_ctr_icall by that model */
static unsigned int flat_caches(function *fun)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (!pi_is_icall_asm(g))
            continue;
        tree icall = pi_icall_decl();
        tree p = make_ssa_name(build_pointer_type(TREE_TYPE(icall))), a = make_ssa_name(pointer_sized_int_node);
        gsi_insert_before(&gsi, gimple_build_assign(p, build_fold_addr_expr(icall)), GSI_SAME_STMT);
        gsi_insert_before(&gsi, gimple_build_assign(a, NOP_EXPR, p), GSI_SAME_STMT);
        pi_icall_asm_rebase(g, a, true);
        gsi = gsi_for_stmt(SSA_NAME_DEF_STMT(a));
        gsi_next(&gsi);
    }
    return 0;
}

/* An executable's function keeps the local-exec form unless it has at
 * least MIN_UPDATES updates (the base's 7 bytes and register would cost
 * what they save) and, when it makes a call (the base then lives in a
 * callee-saved register: a push and a pop, often a stack adjustment, on
 * every call of the function), its updates run at least MIN_RUNS times
 * a call by GCC's estimate (a loop's, an interpreter's) and number at
 * least MIN_CALLER_UPDATES. */
#define MIN_UPDATES 3
#define MIN_RUNS 8.0
#define MIN_CALLER_UPDATES 6

static unsigned int tls_execute(function *fun)
{
    tree ctr = pi_counter_decl(), offv = pi_counter_offset_decl();
    if (tls_skip(fun))
        return offv && pi_icall_decl() ? flat_caches(fun) : 0;
    /* -fPIC: the inline caches of indirect calls too, from the same offset */
    tree icall = offv ? pi_icall_decl() : NULL_TREE;
    struct use {
        gimple *g;
        unsigned op;   /* the operand; ~0u: an update asm (copies.cc); ~1u: a cache's asm */
        HOST_WIDE_INT off, add;
        bool icall;    /* in __perfinst_ctr_icall, not __perfinst_ctr */
        bool addr;     /* its address, call argument OP (the cache's miss call) */
    };
    bool icalls = false; /* a reference to the caches in GIMPLE's form */
    auto_vec<use> uses;
    auto_vec<weight> weights;
    calculate_dominance_info(CDI_DOMINATORS);
    basic_block bb, dom = NULL;
    bool calls = false;
    double runs = 0;
    /* U, in BB (estimated executions W a call): the rewrite's base must
       dominate it; a counter's use weighs in the bias and the runs */
    auto note = [&](const use &u, basic_block bb, double w) {
        uses.safe_push(u);
        dom = dom ? nearest_common_dominator(CDI_DOMINATORS, dom, bb) : bb;
        if (u.icall)
            icalls |= u.op != ~1u;
        else {
            weights.safe_push({u.off, w});
            runs += w;
        }
    };
    FOR_EACH_BB_FN(bb, fun)
    {
        bool known = false;
        sreal f = bb->count.to_sreal_scale(ENTRY_BLOCK_PTR_FOR_FN(fun)->count, &known);
        double w = known ? f.to_double() : 1.0;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *g = gsi_stmt(gsi);
            HOST_WIDE_INT off, add;
            if (is_gimple_call(g) && !gimple_call_internal_p(g))
                calls = true;
            if (pi_counter_asm_parse(g, ctr, &add, &off)) { /* (-fPIC's too: every one) */
                note({g, ~0u, off, add, false, false}, bb, w);
                continue;
            }
            if (icall && pi_is_icall_asm(g)) {
                note({g, ~1u, 0, 0, true, false}, bb, w);
                continue;
            }
            if (icall && is_gimple_call(g))
                for (unsigned i = 0; i < gimple_call_num_args(g); i++) {
                    tree a = gimple_call_arg(g, i);
                    if (TREE_CODE(a) == ADDR_EXPR && counter_offset(TREE_OPERAND(a, 0), icall, &off))
                        note({g, i, off, 0, true, true}, bb, w);
                }
            if (!is_gimple_assign(g) || !gimple_assign_single_p(g))
                continue;
            for (unsigned i = 0; i < 2; i++)
                if (counter_offset(gimple_op(g, i), ctr, &off))
                    note({g, i, off, 0, false, false}, bb, w);
                else if (icall && counter_offset(gimple_op(g, i), icall, &off))
                    note({g, i, off, 0, true, false}, bb, w);
        }
    }
    if (uses.is_empty())
        return 0;
    if (!offv && (uses.length() < MIN_UPDATES ||
                  (calls && (runs < MIN_RUNS || uses.length() < MIN_CALLER_UPDATES))))
        return 0;
    HOST_WIDE_INT bias = weights.is_empty() ? 0 : choose_bias(weights);
    if (offv && pi_opt.counter_address_abs)
        bias = 0; /* -fPIC: the bias is one add a call (counter-address=base only) */
    else if (offv) {
        /* and not worth it for fewer than 2 more updates at a disp8 than
           without it */
        unsigned with = 0, without = 0;
        for (const use &u : uses) {
            with += !u.icall && u.off - bias >= -128 && u.off - bias <= 127;
            without += !u.icall && u.off <= 127;
        }
        if (with < without + 2)
            bias = 0;
    }
    /* out of every loop: once per call, not per iteration */
    if (loops_for_fn(fun) && !loops_state_satisfies_p(fun, LOOPS_NEED_FIXUP))
        while (dom->loop_father && loop_outer(dom->loop_father))
            dom = get_immediate_dominator(CDI_DOMINATORS, dom->loop_father->header);
    if (dom == ENTRY_BLOCK_PTR_FOR_FN(fun))
        dom = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));

    tree uptr = pointer_sized_int_node;
    addr_space_t fs = DEFAULT_TLS_SEG_REG;
    location_t loc = DECL_SOURCE_LOCATION(fun->decl);
    gimple_stmt_iterator gsi = gsi_after_labels(dom);
    tree off = make_ssa_name(uptr), off0 = NULL_TREE, icall_off = NULL_TREE;
    basic_block join;
    if (!offv) {
        /* an executable: off = the array's offset + the bias, a constant of
           the link (movq $ctr@tpoff+BIAS, %reg) */
        const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr));
        char text[256];
        snprintf(text, sizeof text, "{movq $%s@tpoff+%lld, %%0|mov %%0, OFFSET FLAT:%s@tpoff+%lld}", name,
                 (long long)bias, name, (long long)bias);
        insert_offset_asm(&gsi, text, off, false, loc);
        join = dom;
    } else {
        off0 = make_ssa_name(uptr);
        if (pi_ctr_base_asm_ok()) {
            /* one asm: the load, its test and the stub's call out of line
               (unit.cc pi_ctr_base_asm_template), which changes no register
               but off0: no call for GCC to keep values around */
            char *text = pi_ctr_base_asm_template();
            insert_offset_asm(&gsi, text, off0, true, loc);
            free(text);
            join = dom;
        } else {
            tree off_fast = make_ssa_name(uptr);
            gimple *load = gimple_build_assign(off_fast, offv);
            gimple_set_location(load, loc);
            gsi_insert_before(&gsi, load, GSI_SAME_STMT);
            gcond *test = gimple_build_cond(EQ_EXPR, off_fast, build_zero_cst(uptr), NULL_TREE, NULL_TREE);
            gimple_set_location(test, loc);
            basic_block slow = insert_cond_bb(dom, load, test, profile_probability::very_unlikely());
            edge fast_e = find_edge(dom, single_succ(slow));
            join = single_succ(slow);

            /* slow: off = &__perfinst_ctr - %fs:0 (GCC's model for the address) */
            gimple_stmt_iterator sg = gsi_start_bb(slow);
            tree addr = make_ssa_name(build_pointer_type(TREE_TYPE(ctr)));
            gsi_insert_after(&sg, gimple_build_assign(addr, build_fold_addr_expr(ctr)), GSI_CONTINUE_LINKING);
            tree a = make_ssa_name(uptr);
            gsi_insert_after(&sg, gimple_build_assign(a, NOP_EXPR, addr), GSI_CONTINUE_LINKING);
            tree tp = make_ssa_name(uptr);
            gsi_insert_after(&sg, gimple_build_assign(tp, thread_pointer()), GSI_CONTINUE_LINKING);
            tree off_slow = make_ssa_name(uptr);
            gsi_insert_after(&sg, gimple_build_assign(off_slow, MINUS_EXPR, a, tp), GSI_CONTINUE_LINKING);
            for (gimple_stmt_iterator i = gsi_start_bb(slow); !gsi_end_p(i); gsi_next(&i))
                gimple_set_location(gsi_stmt(i), loc);

            /* join: the offset + the bias */
            gphi *phi = create_phi_node(off0, join);
            add_phi_arg(phi, off_fast, fast_e, UNKNOWN_LOCATION);
            add_phi_arg(phi, off_slow, single_succ_edge(slow), UNKNOWN_LOCATION);
            gsi = gsi_after_labels(join);
        }
        if (bias)
            gsi_insert_before(&gsi, gimple_build_assign(off, PLUS_EXPR, off0, build_int_cst(uptr, bias)),
                              GSI_SAME_STMT);
        else
            gsi_insert_before(&gsi, gimple_build_assign(off, off0), GSI_SAME_STMT);
        if (icalls) {
            /* the caches' offset: the counters' + their distance in the
               module's TLS block, a constant of the link (the block is one
               piece in every thread, static or not).  x@dtpoff is x's
               offset in the block (in an executable ld makes both @tpoff:
               the same difference) */
            const char *cn = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr));
            const char *in = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(icall));
            char text[512];
            snprintf(text, sizeof text,
                     "{leaq %s@dtpoff(%%1), %%0\n\tsubq $%s@dtpoff, %%0|lea %%0, [%%1+%s@dtpoff]\n\tsub %%0, "
                     "OFFSET FLAT:%s@dtpoff}",
                     in, cn, in, cn);
            vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
            icall_off = make_ssa_name(uptr);
            vec_safe_push(inputs, pi_asm_operand("r", off0));
            vec_safe_push(outputs, pi_asm_operand("=r", icall_off));
            gasm *ia = gimple_build_asm_vec(ggc_strdup(text), inputs, outputs, NULL, NULL);
            SSA_NAME_DEF_STMT(icall_off) = ia;
            gimple_set_location(ia, loc);
            gsi_insert_before(&gsi, ia, GSI_SAME_STMT);
        }
    }
    /* the offset as a pointer into %fs */
    tree fs_char_ptr = build_pointer_type(build_qualified_type(char_type_node, ENCODE_QUAL_ADDR_SPACE(fs)));
    tree base = make_ssa_name(fs_char_ptr);
    gsi_insert_before(&gsi, gimple_build_assign(base, NOP_EXPR, off), GSI_SAME_STMT);
    tree icall_base = NULL_TREE;
    if (icall_off) {
        icall_base = make_ssa_name(fs_char_ptr);
        gsi_insert_before(&gsi, gimple_build_assign(icall_base, NOP_EXPR, icall_off), GSI_SAME_STMT);
    }

    for (const use &u : uses) {
        if (u.op == ~0u) {
            pi_counter_asm_rebase(u.g, u.add, u.off - bias, off);
            continue;
        }
        if (u.op == ~1u) {
            pi_icall_asm_rebase(u.g, off0, false);
            continue;
        }
        if (u.addr) {
            /* the miss call's slot address: %fs:0 + the caches' offset + OFF */
            gimple_stmt_iterator cg = gsi_for_stmt(u.g);
            tree tp = make_ssa_name(uptr), a = make_ssa_name(uptr), p = make_ssa_name(uptr);
            gsi_insert_before(&cg, gimple_build_assign(tp, thread_pointer()), GSI_SAME_STMT);
            gsi_insert_before(&cg, gimple_build_assign(a, PLUS_EXPR, tp, icall_off), GSI_SAME_STMT);
            gsi_insert_before(&cg, gimple_build_assign(p, PLUS_EXPR, a, build_int_cst(uptr, u.off)), GSI_SAME_STMT);
            tree arg = gimple_call_arg(u.g, u.op);
            tree ptr = make_ssa_name(TREE_TYPE(arg));
            gsi_insert_before(&cg, gimple_build_assign(ptr, NOP_EXPR, p), GSI_SAME_STMT);
            gimple_call_set_arg(u.g, u.op, ptr);
            update_stmt(u.g);
            continue;
        }
        tree ref = gimple_op(u.g, u.op);
        tree type = TREE_TYPE(ref);
        tree fs_type = build_qualified_type(type, TYPE_QUALS(type) | ENCODE_QUAL_ADDR_SPACE(fs));
        tree mem = u.icall ? build2(MEM_REF, fs_type, icall_base, build_int_cst(reference_alias_ptr_type(ref), u.off))
                           : build2(MEM_REF, fs_type, base, build_int_cst(reference_alias_ptr_type(ref), u.off - bias));
        TREE_THIS_VOLATILE(mem) = TREE_THIS_VOLATILE(ref);
        TREE_SIDE_EFFECTS(mem) = TREE_SIDE_EFFECTS(ref);
        TREE_THIS_NOTRAP(mem) = 1;
        gimple_set_op(u.g, u.op, mem);
        update_stmt(u.g);
    }
    /* (the new loads need their virtual uses) */
    return TODO_update_ssa_only_virtuals;
}

PI_GIMPLE_PASS(tls, PROP_cfg | PROP_ssa)
