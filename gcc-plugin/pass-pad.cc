/* pass-pad.cc — pad=hot: GCC's alignment padding inside a function only
 * where training ran it much (-fplugin-arg-perfinst-pad=hot; docs/layout.md
 * "Padding").
 *
 *   gcc -O2 -fplugin=perfinst.so -fplugin-arg-perfinst-feedback=prog.fb \
 *       -fplugin-arg-perfinst-pad=hot -c x.c
 *
 *     a function of the hot tier          any other function
 *       .p2align 4,,10   (loop head)        (no padding: its loop head and
 *       .p2align 3                          jump targets follow the code
 *     .L3: ...                              before them)
 *
 * GCC pads a loop head or a jump target to 16 bytes (at most 10 bytes of
 * nops, x86-64's -O2) where the block runs often enough against the
 * function's hottest block (compute_alignments, the RTL pass "alignments";
 * -falign-loops, -falign-jumps).  The padding pays where a loop runs many
 * times; in code that runs a few times a run (start-up, a parser, what
 * training ran little) it only spreads the code over more cache lines: on
 * Lua's start-up, the rebuild's touched lines held 4,227 bytes of nops
 * against BOLT's 2,809, which strips them (bench/RESULTS.md, 2026-12-02
 * 10:50).  pad=none drops them everywhere, hot loops included.
 *
 * Two RTL passes around "alignments", in every function when pad=hot and
 * a feedback file is read: perfinst_pad (before) leaves GCC's loop and
 * jump alignment as the options set it in a function of the hot tier
 * (`function-tier tier=hot`, its own or, for a clone, its origin's:
 * pi_feedback_hot_tier) and sets both to none in any other;
 * perfinst_pad_restore (after) sets them back.  Label alignment
 * (-falign-labels, read again by "shorten") is none at x86-64's -O2, and
 * functions keep -falign-functions.
 */
#include "plugin.h"

static align_flags loops_as_set, jumps_as_set;
static bool saved;

static bool pad_gate(function *fun)
{
    /* (in lto1 pad=none too: cc1's flags cannot reach lto1, pass-feedback.cc fblto) */
    return fun && fun->decl && pi_feedback_on(fun->decl) &&
           (pi_opt.pad == PI_PAD_HOT || (in_lto_p && pi_opt.pad == PI_PAD_NONE));
}

static unsigned int pad_execute(function *fun)
{
    if (!saved) {
        loops_as_set = align_loops;
        jumps_as_set = align_jumps;
        saved = true;
    }
    if (pi_opt.pad == PI_PAD_NONE || !pi_feedback_hot_tier(fun->decl)) {
        align_loops = align_flags();
        align_jumps = align_flags();
    }
    return 0;
}
PI_RTL_PASS(pad)

static bool pad_restore_gate(function *fun) { return pad_gate(fun); }
static unsigned int pad_restore_execute(function *)
{
    if (saved) {
        align_loops = loops_as_set;
        align_jumps = jumps_as_set;
    }
    return 0;
}
PI_RTL_PASS(pad_restore)
