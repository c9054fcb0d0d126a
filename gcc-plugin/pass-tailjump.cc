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
 * registers before its `jmp`), or a hot/cold split put the tail block in
 * the cold part (a feedback rebuild), nothing changes.
 */
#include "plugin.h"
#include "rtl.h"
#include "emit-rtl.h"
#include "memmodel.h"
#include "tm_p.h"
#include "output.h"

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

static unsigned int tailjump_execute(function *)
{
    for (rtx_insn *insn = get_insns(), *next; insn; insn = next) {
        next = NEXT_INSN(insn);
        if (!JUMP_P(insn) || !any_condjump_p(insn) || !JUMP_LABEL(insn) || !LABEL_P(JUMP_LABEL(insn)))
            continue;
        rtx set = pc_set(insn);
        if (!set || GET_CODE(SET_SRC(set)) != IF_THEN_ELSE)
            continue;
        rtx ite = SET_SRC(set), cond = XEXP(ite, 0);
        if (GET_CODE(XEXP(ite, 1)) != LABEL_REF || XEXP(ite, 2) != pc_rtx)
            continue;
        /* ZF alone, whatever the flags' mode: jne / je */
        if ((GET_CODE(cond) != NE && GET_CODE(cond) != EQ) || !REG_P(XEXP(cond, 0)) ||
            REGNO(XEXP(cond, 0)) != FLAGS_REG || XEXP(cond, 1) != const0_rtx)
            continue;
        rtx sym;
        if (!sibcall_copy(next_active_insn(as_a<rtx_insn *>(JUMP_LABEL(insn))), &sym))
            continue;
        char text[512];
        snprintf(text, sizeof text, "%s\t%s", GET_CODE(cond) == NE ? "jne" : "je",
                 targetm.strip_name_encoding(XSTR(sym, 0)));
        /* (final prints an ASM_INPUT's file and line: it needs a known one) */
        location_t loc = INSN_LOCATION(insn);
        if (LOCATION_LOCUS(loc) == UNKNOWN_LOCATION)
            loc = DECL_SOURCE_LOCATION(current_function_decl);
        rtx_insn *j = emit_insn_before(gen_rtx_ASM_INPUT_loc(VOIDmode, ggc_strdup(text), loc), insn);
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
