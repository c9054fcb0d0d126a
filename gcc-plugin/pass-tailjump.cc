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
 * Where the prologue comes before the test (the tail block pops
 * registers before its `jmp`), hoist_test moves the test in front of it
 * (below); where a hot/cold split put the tail block in the cold part (a
 * feedback rebuild), nothing changes.
 */
#include "plugin.h"
#include "rtl.h"
#include "emit-rtl.h"
#include "memmodel.h"
#include "tm_p.h"
#include "output.h"
#include "hard-reg-set.h"
#include "regs.h"

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

/* An insn a prologue may hold before the entry test: a frame-related one
 * (a push, the stack adjustment), or a copy into a callee-saved register
 * (saved by the prologue, restored by every epilogue). */
static bool prologue_insn(rtx_insn *insn)
{
    if (!NONJUMP_INSN_P(insn))
        return false;
    if (RTX_FRAME_RELATED_P(insn))
        return true;
    rtx p = PATTERN(insn);
    return GET_CODE(p) == SET && REG_P(SET_DEST(p)) && REG_P(SET_SRC(p)) &&
           !fixed_regs[REGNO(SET_DEST(p))] && !this_target_hard_regs->x_call_used_regs[REGNO(SET_DEST(p))];
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

/* The switch test after a prologue, its tail block an epilogue and the
 * sibling call:
 *
 *     f:    push %r12 ...                        f:    cmpb $0, __perfinst_fnon+F(%rip)
 *           mov  %rsi, %r12                            jne  f.count.0
 *           cmpb $0, __perfinst_fnon+F(%rip)     →     push %r12 ...
 *           jne  .L9                                   mov  %rsi, %r12
 *           ...                                        ...
 *     .L9:  pop %r12 ...; jmp f.count.0          .L9:  pop %r12 ...; jmp f.count.0   (no longer reached)
 *
 * The prologue only saves registers, moves the stack and copies values
 * into saved registers, and the tail block only undoes it: at the entry
 * the state is the one the sibling call sees.  The test moves in front of
 * the prologue as one asm; the two insns it was are deleted. */
static void hoist_test(void)
{
    rtx_insn *first = NULL, *insn;
    for (insn = next_active_insn(get_insns()); insn && prologue_insn(insn); insn = next_active_insn(insn))
        if (!first)
            first = insn;
    if (!first || !insn || !NONJUMP_INSN_P(insn))
        return; /* (no prologue before the test: the plain case) */
    rtx_insn *cmp = insn, *jump = next_active_insn(cmp);
    rtx set = single_set(cmp);
    if (!set || !REG_P(SET_DEST(set)) || REGNO(SET_DEST(set)) != FLAGS_REG || GET_CODE(SET_SRC(set)) != COMPARE)
        return;
    rtx mem = XEXP(SET_SRC(set), 0);
    if (!MEM_P(mem) || GET_MODE(mem) != QImode || XEXP(SET_SRC(set), 1) != const0_rtx)
        return;
    subrtx_iterator::array_type array;
    bool switch_byte = false;
    FOR_EACH_SUBRTX(it, array, XEXP(mem, 0), ALL)
    if (GET_CODE(*it) == SYMBOL_REF && strncmp(XSTR(*it, 0), "__perfinst_", 11) == 0)
        switch_byte = true;
    if (!switch_byte || zf_jump(jump) != NE)
        return;
    /* the tail block: frame-related insns (the epilogue), then the call */
    rtx_insn *t = next_active_insn(as_a<rtx_insn *>(JUMP_LABEL(jump)));
    while (t && NONJUMP_INSN_P(t) && RTX_FRAME_RELATED_P(t))
        t = next_active_insn(t);
    rtx sym;
    if (!sibcall_copy(t, &sym))
        return;
    char text[512];
    snprintf(text, sizeof text, "cmpb\t$0, %%0\n\tjne\t%s", targetm.strip_name_encoding(XSTR(sym, 0)));
    rtx op = gen_rtx_ASM_OPERANDS(VOIDmode, ggc_strdup(text), "", 0, gen_rtvec(1, copy_rtx(mem)),
                                  gen_rtvec(1, gen_rtx_ASM_INPUT(QImode, "m")), rtvec_alloc(0), asm_location(jump));
    MEM_VOLATILE_P(op) = 1;
    rtx_insn *a = emit_insn_before(op, first);
    INSN_LOCATION(a) = INSN_LOCATION(first);
    SET_INSN_DELETED(cmp);
    SET_INSN_DELETED(jump);
}

static unsigned int tailjump_execute(function *)
{
    if (!(flag_cf_protection & CF_BRANCH))
        hoist_test(); /* (with endbr64 first the asm would have to go after it: not done) */
    for (rtx_insn *insn = get_insns(), *next; insn; insn = next) {
        next = NEXT_INSN(insn);
        rtx_code code = zf_jump(insn);
        if (code == UNKNOWN)
            continue;
        rtx sym;
        if (!sibcall_copy(next_active_insn(as_a<rtx_insn *>(JUMP_LABEL(insn))), &sym))
            continue;
        char text[512];
        snprintf(text, sizeof text, "%s\t%s", code == NE ? "jne" : "je", targetm.strip_name_encoding(XSTR(sym, 0)));
        rtx_insn *j = emit_insn_before(gen_rtx_ASM_INPUT_loc(VOIDmode, ggc_strdup(text), asm_location(insn)), insn);
        INSN_LOCATION(j) = INSN_LOCATION(insn);
        SET_INSN_DELETED(insn); /* (its label keeps its use: the tail block stays as it was) */
    }
    return 0;
}

/* clean copies of counting functions, x86-64 AT&T syntax (pi_entry_jump_usable's rule),
   in one section: where a hot/cold split put the tail block in the cold part (a feedback
   rebuild), the cold part's unwind info starts from that block, which must stay reached */
static bool tailjump_gate(function *fun)
{
    return !pi_opt.entry_branch_tail && TARGET_64BIT && ix86_asm_dialect == ASM_ATT &&
           !crtl->has_bb_partition && pi_countfn_has_copy(fun->decl);
}
PI_RTL_PASS(tailjump)
