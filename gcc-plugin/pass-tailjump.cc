/* pass-tailjump.cc — the clean copy's entry test branches straight to its
 * counting copy (entry-branch=direct, the default; docs/design.md, "The
 * mode register costs one branch per call").
 *
 * With counting=function the clean copy f is `if (switch) return
 * f.count.0(...); <-O2's f>`.  GCC has no conditional sibling call on
 * x86-64, so when the test comes before any prologue it branches to a
 * block at f's end that holds only the sibling call:
 *
 *     f:    cmpb $0, __perfinst_fnon+F(%rip)        f:    cmpb $0, __perfinst_fnon+F(%rip)
 *           jne  .L9                          →           jne  f.count.0
 *           ...                                           ...
 *     .L9:  jmp  f.count.0                          .L9:  jmp  f.count.0   (no longer reached)
 *
 * In count mode each call then ran two branches and touched two
 * instruction-cache lines of f (its first and its last); the direct `jne`
 * is one branch and one line.  Nothing runs between the `jne` and the
 * `jmp` (the pass requires that the label's first instruction is the
 * sibling call), so the registers, the stack and the unwind state at the
 * `jne` are those at the `jmp`.  Runs right before branch shortening,
 * after the CFG is gone; the `jne` is an ASM_INPUT naming the copy's
 * local symbol, and the tail block stays where it is (5 unreached bytes).
 * Where code comes before the test (a prologue, loads of the arguments
 * passed on the stack, stores into the frame) or the tail block runs some
 * before its `jmp` (an epilogue, those arguments stored back, %al cleared
 * for a callee without a prototype), hoist_test moves the test in front of
 * it all when it can show that the tail leaves the sibling call the
 * entry's state (below); where a hot/cold split put the tail block in the
 * cold part, nothing changes.
 */
#include "plugin.h"
#include "rtl.h"
#include "emit-rtl.h"
#include "memmodel.h"
#include "tm_p.h"
#include "output.h"
#include "hard-reg-set.h"
#include "regs.h"

static const char *copy_target(rtx sym);

/* The counting copy that INSN (a sibling call) jumps to, or NULL_TREE. */
static tree sibcall_copy(rtx_insn *insn, rtx *sym)
{
    if (!insn || !CALL_P(insn) || !SIBLING_CALL_P(insn))
        return NULL_TREE;
    rtx call = get_call_rtx_from(insn);
    if (!call || !MEM_P(XEXP(call, 0)))
        return NULL_TREE;
    rtx addr = XEXP(XEXP(call, 0), 0);
    if (GET_CODE(addr) != SYMBOL_REF || !SYMBOL_REF_LOCAL_P(addr) || !SYMBOL_REF_DECL(addr))
        return NULL_TREE;
    tree d = SYMBOL_REF_DECL(addr);
    if (TREE_CODE(d) != FUNCTION_DECL || pi_countfn_origin(d) != current_function_decl)
        return NULL_TREE;
    *sym = addr;
    return d;
}

/* X in the function's first section: no hot/cold switch before it (a
 * tail block in the cold part opens that part's unwind info, so it must
 * stay reached). */
static bool in_first_section(rtx_insn *x)
{
    for (rtx_insn *i = get_insns(); i && i != x; i = NEXT_INSN(i))
        if (NOTE_P(i) && NOTE_KIND(i) == NOTE_INSN_SWITCH_TEXT_SECTIONS)
            return false;
    return true;
}

/* INSN a conditional jump on the zero flag alone, `jne LABEL` or `je
 * LABEL` whatever the flags' mode: NE or EQ; otherwise UNKNOWN. */
static rtx_code zf_jump(rtx_insn *insn)
{
    if (!insn || !JUMP_P(insn) || !any_condjump_p(insn) || !JUMP_LABEL(insn) || !LABEL_P(JUMP_LABEL(insn)))
        return UNKNOWN;
    rtx set = pc_set(insn);
    if (!set || GET_CODE(SET_SRC(set)) != IF_THEN_ELSE)
        return UNKNOWN;
    rtx ite = SET_SRC(set), cond = XEXP(ite, 0);
    if (GET_CODE(XEXP(ite, 1)) != LABEL_REF || XEXP(ite, 2) != pc_rtx ||
        (GET_CODE(cond) != NE && GET_CODE(cond) != EQ) || !REG_P(XEXP(cond, 0)) ||
        REGNO(XEXP(cond, 0)) != FLAGS_REG || XEXP(cond, 1) != const0_rtx)
        return UNKNOWN;
    return GET_CODE(cond);
}

/* The location of an asm put in INSN's place: final prints an asm's file
 * and line, so it needs a known one (the function's, where INSN has none). */
static location_t asm_location(rtx_insn *insn)
{
    location_t loc = INSN_LOCATION(insn);
    return LOCATION_LOCUS(loc) == UNKNOWN_LOCATION ? DECL_SOURCE_LOCATION(current_function_decl) : loc;
}

/* ---- the test moved to the entry: what runs before it and in the tail ----
 *
 * Where GCC put code before the switch test — the prologue, copies into
 * saved registers, loads of the arguments passed on the stack, stores into
 * the frame — and the tail block undoes it before its sibling call,
 *
 *     f:    push %r12 ...                        f:    cmpb $0, __perfinst_fnon+F(%rip)
 *           sub  $0x28, %rsp                           jne  f.count.0
 *           cmpb $0, __perfinst_fnon+F(%rip)     →     push %r12 ...
 *           mov  0x60(%rsp), %rax                      sub  $0x28, %rsp
 *           mov  %rax, 0x18(%rsp)                      mov  0x60(%rsp), %rax ...
 *           jne  .L9                                   ...
 *           ...
 *     .L9:  mov 0x18(%rsp), %rax; mov %rax, 0x60(%rsp)
 *           add $0x28, %rsp; pop %r12 ...; jmp f.count.0   (no longer reached)
 *
 * the test moves in front of it all as one asm, once the straight line from
 * the entry through the `jne` and the tail block to the sibling call is shown
 * to leave at the call what the entry had: sym_state runs it over symbolic
 * values (each register and each stack slot by what it held at the entry),
 * and the call must find the stack pointer, every argument register, every
 * call-saved register and every argument slot on the stack holding their
 * entry values; what else changed is the dead frame below the return
 * address and the registers no call may expect (%rax — %al only tells a
 * variadic function how many vector registers it got, and f is not one —
 * %r10, the static chain, which f has not, %r11 and the flags).  No label
 * may come before the jump (the test would run again where the code jumps
 * back).  An insn the walk does not know, a store anywhere
 * but the stack, a volatile access or a call stops it, and nothing moves.
 * gawk's sc_parse_field (nine arguments, three on the stack, one a bool
 * the tail stores back), tree_lookup (an argument saved in the frame) and
 * POP_SCALAR (declared without a prototype: the sibling call clears %al)
 * are of these shapes. */

/* A value: what register or stack slot held it at the entry (SV_REG: hard
 * register REG; SV_MEM: the OFF bytes above the entry stack pointer, SIZE
 * of them), zero, or not known. */
enum sym_kind { SV_UNKNOWN, SV_REG, SV_MEM, SV_ZERO };
struct sym_val {
    sym_kind kind;
    HOST_WIDE_INT off;
    unsigned size, reg;
};
struct sym_slot {
    HOST_WIDE_INT off;
    unsigned size;
    sym_val v;
};
struct sym_state {
    sym_val regs[FIRST_PSEUDO_REGISTER];
    HOST_WIDE_INT sp;      /* the stack pointer, from the entry's (0 or less) */
    auto_vec<sym_slot> mem; /* the stack slots written, by entry offset */
};

static void sym_init(sym_state *st)
{
    for (unsigned r = 0; r < FIRST_PSEUDO_REGISTER; r++)
        st->regs[r] = sym_val{SV_REG, 0, 0, r};
    st->sp = 0;
}

/* X, an address: the stack pointer plus a constant (*OFF, from the
 * entry's), or a push's or pop's auto-modified stack pointer (*AUTO: the
 * change, which applies before the access for a push, after it for a pop). */
static bool sym_stack_addr(const sym_state *st, rtx x, unsigned size, HOST_WIDE_INT *off, HOST_WIDE_INT *autoinc)
{
    *autoinc = 0;
    if (GET_CODE(x) == PRE_DEC && XEXP(x, 0) == stack_pointer_rtx) {
        *autoinc = -(HOST_WIDE_INT)size;
        *off = st->sp - size;
        return true;
    }
    if (GET_CODE(x) == POST_INC && XEXP(x, 0) == stack_pointer_rtx) {
        *autoinc = size;
        *off = st->sp;
        return true;
    }
    if (x == stack_pointer_rtx) {
        *off = st->sp;
        return true;
    }
    if (GET_CODE(x) == PLUS && XEXP(x, 0) == stack_pointer_rtx && CONST_INT_P(XEXP(x, 1))) {
        *off = st->sp + INTVAL(XEXP(x, 1));
        return true;
    }
    return false;
}

/* What a load of SIZE bytes at entry offset OFF reads. */
static sym_val sym_load(const sym_state *st, HOST_WIDE_INT off, unsigned size)
{
    for (unsigned i = 0; i < st->mem.length(); i++) {
        const sym_slot &s = st->mem[i];
        if (s.off == off && s.size >= size)
            return s.v;
        if (s.off < off + (HOST_WIDE_INT)size && off < s.off + (HOST_WIDE_INT)s.size)
            return sym_val{SV_UNKNOWN, 0, 0, 0}; /* (a part of a slot) */
    }
    return sym_val{SV_MEM, off, size, 0};
}

static bool sym_store(sym_state *st, HOST_WIDE_INT off, unsigned size, sym_val v)
{
    if (off >= 0 && off < 8)
        return false; /* the return address */
    for (unsigned i = 0; i < st->mem.length(); i++) {
        sym_slot &s = st->mem[i];
        if (s.off == off && s.size == size) {
            s.v = v;
            return true;
        }
        if (s.off < off + (HOST_WIDE_INT)size && off < s.off + (HOST_WIDE_INT)s.size)
            return false;
    }
    st->mem.safe_push(sym_slot{off, size, v});
    return true;
}

/* The value SRC (a register, a stack slot, zero) has, or false for what the
 * walk does not follow (a load from elsewhere gives SV_UNKNOWN). */
static bool sym_value(sym_state *st, rtx src, unsigned size, sym_val *v)
{
    if (REG_P(src) && HARD_REGISTER_P(src)) {
        if (REGNO(src) == STACK_POINTER_REGNUM || REGNO(src) == FRAME_POINTER_REGNUM ||
            REGNO(src) == ARG_POINTER_REGNUM) {
            *v = sym_val{SV_UNKNOWN, 0, 0, 0}; /* (the stack pointer is st->sp) */
            return true;
        }
        sym_val r = st->regs[REGNO(src)];
        /* a narrower read of a register: its low bytes, the same bytes of
           the slot it was loaded from (little-endian) */
        if (r.kind == SV_MEM && size > r.size)
            r.kind = SV_UNKNOWN;
        *v = r;
        return true;
    }
    if (src == const0_rtx) {
        *v = sym_val{SV_ZERO, 0, 0, 0};
        return true;
    }
    if (MEM_P(src)) {
        if (MEM_VOLATILE_P(src))
            return false;
        HOST_WIDE_INT off, inc;
        if (sym_stack_addr(st, XEXP(src, 0), size, &off, &inc)) {
            if (inc < 0)
                return false;
            *v = sym_load(st, off, size);
            st->sp += inc;
            return true;
        }
        /* a load from elsewhere (it runs only in off mode once the test
           is first: leaving it out of the counting path faults nothing) */
        subrtx_iterator::array_type array;
        FOR_EACH_SUBRTX(it, array, XEXP(src, 0), ALL)
        if (GET_RTX_CLASS(GET_CODE(*it)) == RTX_AUTOINC)
            return false;
        *v = sym_val{SV_UNKNOWN, 0, 0, 0};
        return true;
    }
    /* a constant, arithmetic: a value not followed, if it reads nothing
       volatile and changes nothing itself */
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(it, array, src, ALL)
    if ((MEM_P(*it) && MEM_VOLATILE_P(*it)) || GET_RTX_CLASS(GET_CODE(*it)) == RTX_AUTOINC ||
        GET_CODE(*it) == UNSPEC_VOLATILE || GET_CODE(*it) == ASM_OPERANDS || GET_CODE(*it) == CALL)
        return false;
    *v = sym_val{SV_UNKNOWN, 0, 0, 0}; /* (zero was taken above) */
    return true;
}

/* INSN run over ST; false if the walk does not follow it.  A compare
 * (of anything but a volatile access) only sets the flags. */
static bool sym_step(sym_state *st, rtx_insn *insn)
{
    if (!NONJUMP_INSN_P(insn))
        return false;
    rtx p = PATTERN(insn), set = NULL_RTX;
    if (GET_CODE(p) == SET)
        set = p;
    else if (GET_CODE(p) == PARALLEL) {
        /* one set and clobbers of the flags or of memory (a stack
           adjustment's blockage) */
        for (int i = 0; i < XVECLEN(p, 0); i++) {
            rtx e = XVECEXP(p, 0, i);
            if (GET_CODE(e) == SET && !set)
                set = e;
            else if (GET_CODE(e) == CLOBBER &&
                     ((REG_P(XEXP(e, 0)) && REGNO(XEXP(e, 0)) == FLAGS_REG) ||
                      (MEM_P(XEXP(e, 0)) && GET_MODE(XEXP(e, 0)) == BLKmode)))
                st->regs[FLAGS_REG] = sym_val{SV_UNKNOWN, 0, 0, 0};
            else
                return false;
        }
    }
    if (!set)
        return false;
    rtx dst = SET_DEST(set), src = SET_SRC(set);
    if (REG_P(dst) && REGNO(dst) == FLAGS_REG) {
        subrtx_iterator::array_type array;
        FOR_EACH_SUBRTX(it, array, src, ALL)
        if ((MEM_P(*it) && MEM_VOLATILE_P(*it)) || GET_RTX_CLASS(GET_CODE(*it)) == RTX_AUTOINC)
            return false;
        st->regs[FLAGS_REG] = sym_val{SV_UNKNOWN, 0, 0, 0};
        return true;
    }
    if (dst == stack_pointer_rtx) {
        /* sp = sp + N */
        if (GET_CODE(src) != PLUS || XEXP(src, 0) != stack_pointer_rtx || !CONST_INT_P(XEXP(src, 1)))
            return false;
        st->sp += INTVAL(XEXP(src, 1));
        return true;
    }
    if (GET_MODE(dst) == VOIDmode || !GET_MODE_SIZE(GET_MODE(dst)).is_constant())
        return false;
    unsigned size = GET_MODE_SIZE(GET_MODE(dst)).to_constant();
    if (REG_P(dst) && HARD_REGISTER_P(dst) && REGNO(dst) != STACK_POINTER_REGNUM &&
        REG_NREGS(dst) == 1) {
        rtx s = src;
        if (GET_CODE(s) == ZERO_EXTEND && MEM_P(XEXP(s, 0)))
            s = XEXP(s, 0); /* (its low bytes are the slot's) */
        unsigned ssize = GET_MODE(s) == VOIDmode ? size : GET_MODE_SIZE(GET_MODE(s)).to_constant();
        sym_val v;
        if (!sym_value(st, s, ssize, &v))
            return false;
        /* what the whole register then holds: a slot's bytes are its low
           bytes; a narrower write of a register's value leaves bytes
           above it that are not followed; zero if at least 32 bits (x86-64
           clears the upper half) */
        if (v.kind == SV_MEM && v.size > ssize)
            v.size = ssize;
        if ((v.kind == SV_REG && size < 8) || (v.kind == SV_ZERO && size < 4) || (v.kind == SV_MEM && size < 4))
            v.kind = SV_UNKNOWN;
        st->regs[REGNO(dst)] = v;
        return true;
    }
    if (MEM_P(dst) && !MEM_VOLATILE_P(dst)) {
        sym_val v;
        if (!sym_value(st, src, size, &v))
            return false;
        HOST_WIDE_INT off, inc;
        if (!sym_stack_addr(st, XEXP(dst, 0), size, &off, &inc) || inc > 0)
            return false;
        st->sp += inc;
        /* a narrower store of a slot's value keeps its low bytes */
        if (v.kind == SV_MEM && v.size > size)
            v.size = size;
        return sym_store(st, off, size, v);
    }
    return false;
}

/* At the sibling call: everything the counting copy may read as it was at
 * the entry? */
static bool sym_as_entry(const sym_state *st)
{
    if (st->sp != 0)
        return false;
    for (unsigned r = 0; r < FIRST_PSEUDO_REGISTER; r++) {
        const sym_val &v = st->regs[r];
        if (v.kind == SV_REG && v.reg == r)
            continue;
        /* free at a call: %rax (%al counts vector registers for a
           variadic callee only), %r11, the flags */
        if (r == FLAGS_REG || r == R11_REG || r == R10_REG ||
            (r == AX_REG && !stdarg_p(TREE_TYPE(current_function_decl))))
            continue;
        return false;
    }
    for (unsigned i = 0; i < st->mem.length(); i++) {
        const sym_slot &s = st->mem[i];
        if (s.off < 0)
            continue; /* the frame, gone at the call */
        if (s.v.kind != SV_MEM || s.v.off != s.off || s.v.size < s.size)
            return false;
    }
    return true;
}

static void hoist_test(void)
{
    rtx_insn *first = next_active_insn(get_insns()), *insn, *cmp = NULL;
    if (!first)
        return;
    sym_state st;
    sym_init(&st);
    for (insn = get_insns(); insn != first; insn = NEXT_INSN(insn))
        if (LABEL_P(insn))
            return;
    for (insn = first; insn && !JUMP_P(insn); insn = NEXT_INSN(insn)) {
        if (LABEL_P(insn))
            return;
        if (!active_insn_p(insn))
            continue;
        rtx set = NONJUMP_INSN_P(insn) ? single_set(insn) : NULL_RTX;
        if (!cmp && set && REG_P(SET_DEST(set)) && REGNO(SET_DEST(set)) == FLAGS_REG &&
            GET_CODE(SET_SRC(set)) == COMPARE && MEM_P(XEXP(SET_SRC(set), 0)) &&
            GET_MODE(XEXP(SET_SRC(set), 0)) == QImode && XEXP(SET_SRC(set), 1) == const0_rtx) {
            subrtx_iterator::array_type array;
            FOR_EACH_SUBRTX(it, array, XEXP(XEXP(SET_SRC(set), 0), 0), ALL)
            if (GET_CODE(*it) == SYMBOL_REF && strncmp(XSTR(*it, 0), "__perfinst_", 11) == 0)
                cmp = insn;
            if (cmp)
                continue;
        }
        if (cmp)
            st.regs[FLAGS_REG] = sym_val{SV_REG, 0, 0, FLAGS_REG}; /* (the test's flags) */
        if (!sym_step(&st, insn))
            return;
        if (cmp && st.regs[FLAGS_REG].kind != SV_REG)
            return; /* (the flags set again before the jump) */
    }
    rtx_insn *jump = insn;
    if (!cmp || zf_jump(jump) != NE)
        return;
    /* the tail block: the walk goes on to the sibling call */
    rtx_insn *t = next_active_insn(as_a<rtx_insn *>(JUMP_LABEL(jump)));
    rtx sym;
    if (cmp == first && next_active_insn(cmp) == jump && sibcall_copy(t, &sym))
        return; /* (the test first and its tail the call: the plain case, tailjump_execute) */
    for (; t && !sibcall_copy(t, &sym); t = next_active_insn(t))
        if (!sym_step(&st, t))
            return;
    if (!t || !sym_as_entry(&st) || DECL_STATIC_CHAIN(current_function_decl) || !in_first_section(t))
        return;
    char text[512];
    rtx mem = XEXP(SET_SRC(single_set(cmp)), 0);
    snprintf(text, sizeof text, "cmpb\t$0, %%0\n\tjne\t%s", copy_target(sym));
    rtx op = gen_rtx_ASM_OPERANDS(VOIDmode, ggc_strdup(text), "", 0, gen_rtvec(1, copy_rtx(mem)),
                                  gen_rtvec(1, gen_rtx_ASM_INPUT(QImode, "m")), rtvec_alloc(0), asm_location(jump));
    MEM_VOLATILE_P(op) = 1;
    rtx_insn *a = emit_insn_before(op, first);
    INSN_LOCATION(a) = INSN_LOCATION(first);
    SET_INSN_DELETED(cmp);
    SET_INSN_DELETED(jump);
}

/* ---- a counting copy's own entry; calls between counting copies ---------
 *
 * (copy-calls=direct, the default.)  A counting copy g.count.N is entered
 * through g: in count mode every call runs g's test and its `jne`, a
 * taken branch, and touches g's first instruction-cache line for those two
 * instructions alone (gawk fields: 48 of the 496 lines its counting run
 * executes once a record or more, against -O2's 300 lines in all).  So g's
 * counting copy opens with a test of g's switch byte of its own, which
 * falls through in count mode,
 *
 *     g.count.N:  cmpb $0, __perfinst_fnon+G(%rip)
 *                 je   g                   (g switched off: the clean copy)
 *     .Lpi_on.g.count.N:
 *                 <the counting copy as it was>
 *
 * a counting copy's direct calls (and sibling calls) go to g.count.N, and
 * g's own test (calls through a pointer, from clean code) branches past
 * the copy's, `jne .Lpi_on.g.count.N`.  Each call still tests g's own
 * switch (an overlay may turn g off while its caller counts) with the same
 * two instructions, but they fall through where g.count.N's code starts.
 * The test is the copy's first instruction, before its prologue, where the
 * registers and the stack are the call's: `je g` is a tail jump.  The
 * redirected call keeps g's decl (SYMBOL_REF_DECL) under the copy's name,
 * so that -fipa-ra takes g's clobbered registers for it, which hold those
 * of g.count.N (g's sibling call) and of g's clean body.
 *
 * The calls: of a function of the unit that has a counting copy, when it
 * binds locally (`je g` must reach this g), has a switch byte of its own
 * and is in no COMDAT group (has_copy_entry: where the link keeps another
 * object's copy of the group, a call from outside it would name a
 * discarded section); of a function of another unit (public, not weak,
 * not built in, not declared in a system header, not noreturn, not the
 * runtime's, of a signature pass-countfn splits, not a C++ constructor or
 * destructor: the program's own functions that all=count splits; not in
 * code for a shared object, where g seldom binds locally),
 * at `g.pi_entry`, which g's unit defines at g.count.N for an exported g
 * that is not weak or in a COMDAT group (global, hidden, without a type:
 * the address is g.count.N's) -- each calling unit adds a weak hidden
 * stand-in `g.pi_entry: jmp g` in a `.text` section of a COMDAT group of
 * that name, used where g's unit has no entry (compiled without the
 * plugin, g not split: a jump more a call).  The stand-in is no function
 * (no type, no `.text.NAME` section: pmopt's plan and relink order the
 * functions of `.text.NAME` sections).  Not with -fcf-protection=branch
 * (the copy would open with endbr64).  tests/count/t-copy-calls.sh. */

/* (with clean-copies=final too: f, made of its copy's assembly, leaves
   out the copy's test and calls the functions, finalcopy.cc) */
static bool copy_calls_target(void)
{
    return !pi_opt.copy_calls_entry && TARGET_64BIT && ix86_asm_dialect == ASM_ATT && !(flag_cf_protection & CF_BRANCH);
}

static bool has_copy_entry(tree g)
{
    cgraph_node *n = cgraph_node::get(g);
    return copy_calls_target() && pi_countfn_copy(g) && pi_fnon_asm_name() && pi_split_switch_index(g) >= 0 &&
           targetm.binds_local_p(g) && !DECL_COMDAT(g) && !DECL_ONE_ONLY(g) && !DECL_WEAK(g) &&
           !(n && n->get_comdat_group());
}

/* Is G's entry global (other units call it)? */
static bool entry_exported(tree g)
{
    return TREE_PUBLIC(g) && !DECL_EXTERNAL(g);
}

/* Would G's unit split G, as far as its declaration tells (pass-countfn's
 * usable_signature: no aggregate returned in memory, no argument of an
 * addressable type)?  A C++ constructor or destructor is often an alias
 * of another (C1 of C2), which has the copy. */
static bool may_split(tree g)
{
    tree type = TREE_TYPE(g), res = TREE_TYPE(type);
    if (stdarg_p(type) || DECL_CXX_CONSTRUCTOR_P(g) || DECL_CXX_DESTRUCTOR_P(g))
        return false;
    if (!VOID_TYPE_P(res) && (!is_gimple_reg_type(res) || aggregate_value_p(res, type)))
        return false;
    for (tree a = TYPE_ARG_TYPES(type); a && TREE_VALUE(a) != void_type_node; a = TREE_CHAIN(a))
        if (!is_gimple_reg_type(TREE_VALUE(a)) && TREE_ADDRESSABLE(TREE_VALUE(a)))
            return false;
    return true;
}

/* May a counting copy call G, a function of another unit, at G's entry? */
static bool remote_entry_ok(tree g)
{
    cgraph_node *n = cgraph_node::get(g);
    return copy_calls_target() && !flag_shlib && TREE_PUBLIC(g) && DECL_EXTERNAL(g) && !(n && n->definition) &&
           !DECL_WEAK(g) && !pi_is_own_decl(g) && !fndecl_built_in_p(g) && !DECL_IN_SYSTEM_HEADER(g) &&
           may_split(g) && !TREE_THIS_VOLATILE(g) && !lookup_attribute("alias", DECL_ATTRIBUTES(g)) &&
           !lookup_attribute("ifunc", DECL_ATTRIBUTES(g));
}

static const char *entry_name(tree g)
{
    return ggc_strdup(ACONCAT((pi_asm_name(g), ".pi_entry", NULL)));
}

/* The label after COPY's own test. */
static const char *copy_on_label(tree copy)
{
    return ggc_strdup(ACONCAT((".Lpi_on.", pi_asm_name(copy), NULL)));
}

/* The label past g.count.N's own test (make_final's branch too), or NULL */
const char *pi_copy_entry_label(tree g)
{
    return has_copy_entry(g) ? copy_on_label(pi_countfn_copy(g)) : NULL;
}

/* Where the clean copy's test branches to reach its counting copy (SYM):
 * past the copy's own test when it has one. */
static const char *copy_target(rtx sym)
{
    tree copy = SYMBOL_REF_DECL(sym), g = copy ? pi_countfn_origin(copy) : NULL_TREE;
    const char *on = g ? pi_copy_entry_label(g) : NULL;
    return on ? on : targetm.strip_name_encoding(XSTR(sym, 0));
}

/* The counting copy's own test, before anything else of it. */
static void add_copy_test(void)
{
    tree copy = current_function_decl, g = pi_countfn_origin(copy);
    rtx_insn *at = get_insns();
    while (at && !LABEL_P(at) && !active_insn_p(at))
        at = NEXT_INSN(at);
    char text[2048];
    const char *e = entry_name(g);
    int n = 0;
    if (entry_exported(g))
        n = snprintf(text, sizeof text, ".globl\t%s\n\t.hidden\t%s\n%s:\n\t", e, e, e);
    snprintf(text + n, sizeof text - n, "cmpb\t$0, %s+%d(%%rip)\n\tje\t%s\n%s:", pi_fnon_asm_name(),
             pi_split_switch_index(g), pi_asm_name(g), copy_on_label(copy));
    /* the line of the code it precedes (a profile's samples at the copy's
       first address, its entry block's, land on that block's line) */
    location_t loc = at && INSN_P(at) && INSN_HAS_LOCATION(at) ? INSN_LOCATION(at) : DECL_SOURCE_LOCATION(copy);
    if (LOCATION_LOCUS(loc) == UNKNOWN_LOCATION)
        loc = DECL_SOURCE_LOCATION(copy);
    rtx body = gen_rtx_ASM_INPUT_loc(VOIDmode, ggc_strdup(text), loc);
    rtx_insn *a = at ? emit_insn_before(body, at) : emit_insn(body);
    INSN_LOCATION(a) = loc;
}

/* the other units' entries this unit calls (their weak stand-ins, written
   at the unit's end) */
static hash_set<nofree_string_hash> *remote_entries;

/* CALL (a call's rtx, to the symbol ADDR) made a call of NAME, defined in
 * the link (no PLT), that keeps DECL for -fipa-ra's clobbers */
static void retarget_call(rtx call, rtx addr, const char *name, tree decl)
{
    rtx to = gen_rtx_SYMBOL_REF(Pmode, name);
    SYMBOL_REF_FLAGS(to) = SYMBOL_REF_FLAGS(addr) | SYMBOL_FLAG_LOCAL;
    SET_SYMBOL_REF_DECL(to, decl);
    XEXP(XEXP(call, 0), 0) = to;
}

/* The counting copy's direct calls of functions with an entry: to it. */
static void redirect_calls(void)
{
    for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
        if (!CALL_P(insn))
            continue;
        rtx call = get_call_rtx_from(insn);
        if (!call || !MEM_P(XEXP(call, 0)))
            continue;
        rtx addr = XEXP(XEXP(call, 0), 0);
        if (GET_CODE(addr) != SYMBOL_REF || !SYMBOL_REF_DECL(addr) ||
            TREE_CODE(SYMBOL_REF_DECL(addr)) != FUNCTION_DECL)
            continue;
        tree g = SYMBOL_REF_DECL(addr);
        const char *name;
        if (remote_entry_ok(g)) {
            name = entry_name(g);
            if (!remote_entries)
                remote_entries = new hash_set<nofree_string_hash>;
            if (!remote_entries->contains(name))
                remote_entries->add(xstrdup(name));
        } else if (SYMBOL_REF_LOCAL_P(addr) && has_copy_entry(g))
            name = ggc_strdup(pi_asm_name(pi_countfn_copy(g)));
        else
            continue;
        retarget_call(call, addr, name, g);
    }
}

/* At the unit's end: a weak stand-in for each other unit's entry called. */
void pi_copy_entries_finish(void)
{
    if (!remote_entries || !asm_out_file)
        return;
    for (hash_set<nofree_string_hash>::iterator it = remote_entries->begin(); it != remote_entries->end(); ++it) {
        const char *name = *it;
        size_t n = strlen(name) - strlen(".pi_entry");
        fprintf(asm_out_file,
                "\t.pushsection\t.text,\"axG\",@progbits,%s,comdat\n\t.weak\t%s\n\t.hidden\t%s\n"
                "%s:\n\tjmp\t%.*s\n\t.popsection\n",
                name, name, name, name, (int)n, name);
    }
    delete remote_entries;
    remote_entries = NULL;
}

static unsigned int tailjump_execute(function *fun)
{
    if (tree g = pi_countfn_origin(fun->decl)) {
        if (has_copy_entry(g))
            add_copy_test();
        redirect_calls();
        return 0;
    }
    if (!(flag_cf_protection & CF_BRANCH))
        hoist_test(); /* (with endbr64 first the asm would have to go after it: not done) */
    for (rtx_insn *insn = get_insns(), *next; insn; insn = next) {
        next = NEXT_INSN(insn);
        rtx_code code = zf_jump(insn);
        if (code == UNKNOWN)
            continue;
        rtx sym;
        rtx_insn *t = next_active_insn(as_a<rtx_insn *>(JUMP_LABEL(insn)));
        if (!sibcall_copy(t, &sym) || !in_first_section(t))
            continue;
        char text[512];
        snprintf(text, sizeof text, "%s\t%s", code == NE ? "jne" : "je", code == NE ? copy_target(sym) : targetm.strip_name_encoding(XSTR(sym, 0)));
        rtx_insn *j = emit_insn_before(gen_rtx_ASM_INPUT_loc(VOIDmode, ggc_strdup(text), asm_location(insn)), insn);
        INSN_LOCATION(j) = INSN_LOCATION(insn);
        SET_INSN_DELETED(insn); /* (its label keeps its use: the tail block stays as it was) */
    }
    /* the sibling calls that remain (a test the walk could not move, a
       tail in the cold part): past the copy's own test too */
    if (has_copy_entry(fun->decl))
        for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
            rtx sym;
            if (!sibcall_copy(insn, &sym))
                continue;
            retarget_call(get_call_rtx_from(insn), sym, copy_on_label(SYMBOL_REF_DECL(sym)), SYMBOL_REF_DECL(sym));
        }
    return 0;
}

/* clean copies of counting functions, x86-64 AT&T syntax (pi_entry_jump_usable's rule);
   with a hot/cold split, where the tail block is in the first section (in_first_section);
   and the counting copies (their own test, their calls) */
static bool tailjump_gate(function *fun)
{
    if (!TARGET_64BIT || ix86_asm_dialect != ASM_ATT)
        return false;
    if (pi_countfn_origin(fun->decl))
        return copy_calls_target();
    return !pi_opt.entry_branch_tail && pi_countfn_has_copy(fun->decl);
}
PI_RTL_PASS(tailjump)
