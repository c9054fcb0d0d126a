#!/bin/bash
# -fplugin-arg-perfinst-feedback=FILE / feedback-only=LIST: the plugin loads
# the plan with common/pifeedback, refuses bad files with file:line and the
# problem (no ICE), selects by number, and says which kinds it does not apply.
source "$PERFINST_TOP/tests/lib.sh"
echo 'int main(void) { return 0; }' > x.c
# mkfb OUT LINE...: a well-formed feedback file with these recommendation lines
mkfb() {
    python3 - "$@" <<'PY'
import sys, zlib
out, lines = sys.argv[1], sys.argv[2:]
body = "perfinst-feedback 1\n" + "".join(l + "\n" for l in lines)
open(out, "w").write(body + "end %d 0x%08x\n" % (len(lines), zlib.crc32(body.encode())))
PY
}
mkfb good.fb "1 no-such-kind a=1" "2 no-such-kind b=2"
pi_cc -fplugin-arg-perfinst-feedback=good.fb -c x.c 2> warn
assert_contains "unknown kind reported with file:line" warn "good.fb:2: recommendation 1 \('no-such-kind'|‘no-such-kind’\) is not one this plugin applies"
pi_cc -fplugin-arg-perfinst-feedback=good.fb -fplugin-arg-perfinst-feedback-only=2 -c x.c 2> warn
assert_not_contains "selection drops recommendation 1" warn "recommendation 1 "
assert_contains "selection keeps recommendation 2" warn "recommendation 2 "
expect_fail "selecting a missing number" pi_cc -fplugin-arg-perfinst-feedback=good.fb -fplugin-arg-perfinst-feedback-only=3 -c x.c
assert_contains "names the number" err "good.fb: has no recommendation 3"
expect_fail "feedback-only alone" pi_cc -fplugin-arg-perfinst-feedback-only=1 -c x.c
assert_contains "needs feedback=" err "needs .*-fplugin-arg-perfinst-feedback=FILE"
sed 's/a=1/a=9/' good.fb > edited.fb
expect_fail "edited file" pi_cc -fplugin-arg-perfinst-feedback=edited.fb -c x.c
assert_contains "checksum" err "edited.fb:4: checksum mismatch"
head -n 2 good.fb > cut.fb
expect_fail "truncated file" pi_cc -fplugin-arg-perfinst-feedback=cut.fb -c x.c
assert_contains "truncated" err "cut.fb: truncated"
expect_fail "a trace is not a plan" pi_cc -fplugin-arg-perfinst-feedback="$B/pmopt" -c x.c
assert_contains "foreign" err "not a perfinst feedback file|NUL byte"
assert_not_contains "no internal compiler error" err "internal compiler error"
