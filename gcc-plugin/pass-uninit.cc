/* pass-uninit.cc — instrumentation adds no warning of its own.
 *
 * A project that builds with -Wall -Wextra -Werror must build with
 * perfinst's flags as it does without.  Two things made GCC warn where the
 * plain build does not (both seen on zstd's legacy decoders):
 *
 * 1. The counting copy.  With counting=function a function F's counted
 *    body is a second function, F.count.N, made from F's own body: every
 *    warning of GCC's late passes (-Wmaybe-uninitialized, -Warray-bounds,
 *    -Wstringop-overflow, ...) that F's code deserves was given twice,
 *    the second time in a function the user never wrote:
 *
 *        zstd_v01.c: In function 'ZSTD_decompressSequences.count.0':
 *        zstd_v01.c:1849:35: warning: 'dumps' may be used uninitialized
 *
 *    F, the clean copy, gives the program's warnings under its own name;
 *    its counting copy gives none: warnings are inhibited (as -w does)
 *    while the copy goes through the passes after IPA
 *    (PLUGIN_ALL_PASSES_START/END, run for one function at a time).
 *    Errors are not affected.
 *
 * 2. Counter updates inside a function.  GCC's -Wmaybe-uninitialized (the
 *    late pass "uninit") proves a use initialised by relating the use's
 *    guard to the paths that define the variable, paths that jump
 *    threading and the other clean-ups before IPA have untangled.  They
 *    do not copy or merge a block that holds a counter update and a site
 *    marker, so in a function that still holds counter updates or probe
 *    calls (both copies in one function: -O1, -Og, counting=inline, a
 *    function pass-countfn cannot take; a caller into which counted code
 *    was inlined; one counting body, clean-copies=loops|none, whose
 *    updates may be asm statements by then) paths stay tangled that the plain build untangles, and
 *    the warning fires where the plain build's does not: an error return
 *    before an out-parameter is set, checked by the caller (zstd's legacy
 *    decoders at -O1).  For such a function -Wmaybe-uninitialized is off
 *    during "uninit":
 *
 *        perfinst_uninit_off   (before every instance of "uninit": -O1 and up, -Og)
 *            a function with counter updates: -Wmaybe-uninitialized off
 *        uninit                (GCC's)
 *        perfinst_uninit_on    (after it)
 *            the user's setting back
 *
 *    -Wuninitialized ("is used uninitialized": a use on every path) stays.
 *    Such a function's own maybe-uninitialized warnings are then given by
 *    the plain build only (docs/adopting.md, "Warnings").
 *
 * The proof: tests/plugin/t-warnings.sh (twice.c at -O2: the counting
 * copy's repeated warnings; errcode.c at -O1: a warning only with the
 * plugin, which failed a -Werror build); bench/warnings.sh (the warnings
 * of real projects' builds, with and without the flags; bench/RESULTS.md).
 */
#include "plugin.h"
#include "pass-gen.h"
#include "diagnostic.h"

/* 1. the counting copies: -w for their passes after IPA */

static int inhibited = -1; /* the user's -w while a counting copy is compiled */

static void all_passes_start(void *, void *)
{
    if (cfun && pi_countfn_origin(cfun->decl)) {
        inhibited = global_dc->dc_inhibit_warnings;
        global_dc->dc_inhibit_warnings = true;
    }
}

static void all_passes_end(void *, void *)
{
    if (inhibited >= 0) {
        global_dc->dc_inhibit_warnings = inhibited;
        inhibited = -1;
    }
}

void pi_quiet_counting_copies(const char *plugin_name)
{
    register_callback(plugin_name, PLUGIN_ALL_PASSES_START, all_passes_start, NULL);
    register_callback(plugin_name, PLUGIN_ALL_PASSES_END, all_passes_end, NULL);
}

/* 2. counter updates in the function: no -Wmaybe-uninitialized */

static int saved = -1; /* the user's -Wmaybe-uninitialized while it is off */

static bool uninit_off_gate(function *)
{
    return warn_maybe_uninitialized && !seen_error() && pi_unit_instrumented();
}

static unsigned int uninit_off_execute(function *fun)
{
    if (pi_split_instrumented(fun) || pi_kept_one_body(fun->decl)) {
        saved = warn_maybe_uninitialized;
        warn_maybe_uninitialized = 0;
    }
    return 0;
}

PI_GIMPLE_PASS_CLONABLE(uninit_off, PROP_ssa)

static bool uninit_on_gate(function *) { return saved >= 0; }

static unsigned int uninit_on_execute(function *)
{
    warn_maybe_uninitialized = saved;
    saved = -1;
    return 0;
}

PI_GIMPLE_PASS_CLONABLE(uninit_on, PROP_ssa)
