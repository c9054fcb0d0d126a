# inline-counts=estimate|keep (gcc-plugin/pass-feedback.cc, docs/layout.md
# "Counts through the inliner"), on inlcounts.c trained once, its helpers
# inlined by IPA as functions called once (the early inliner kept off
# them, as it is off a larger helper: zstd's HUF_buildTree):
# - estimate (the default): GCC estimates work's counts again after
#   inlining; build's loop (0x515), which ran 2,047 times a call, is
#   judged never run and lies in work.cold;
# - keep: the profile's counts stay as the inliner scaled them: the loop
#   is in work's hot part, and the split forces far fewer zeros;
# - both print what -O2 prints, at -O2 and -O3 with GCC's checking;
# - a bad value is refused.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/inlcounts.c
X="--param early-inlining-insns=0 -fno-inline-small-functions"

gcc -O2 $X -o o2 "$src"
./o2 > o2.out
./o2 3 > o2-3.out
pi_cc -O2 $X -fplugin-arg-perfinst-all=count -c "$src" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > train.out
cmp o2.out train.out || fail "the training build prints something else"
"$PMOPT" plan -o plan.fb ./train train.pit > plan.out
assert_contains "work has a branch profile" plan.fb "branch-profile fn=work .*counts=50,"
assert_contains "build's loop ran 2,047 times a call" plan.fb "branch-profile fn=build .*counts=.*102350"

for k in estimate keep; do
    pi_cc -O2 $X -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-inline-counts=$k \
        -fplugin-arg-perfinst-verbose -c "$src" -o $k.o 2> $k.err || { cat $k.err; fail "inline-counts=$k"; }
done
pi_cc -O2 $X -fplugin-arg-perfinst-feedback=plan.fb -c "$src" -o def.o
same_code estimate.o def.o "inline-counts=estimate should be the default"
ok "inline-counts=estimate is the default"

assert_eq "estimate: build's loop in work.cold" 1 "$(has estimate.o work.cold '0x515')"
assert_eq "estimate: not in work's hot part" 0 "$(has estimate.o work '0x515')"
assert_eq "keep: build's loop in work's hot part" 1 "$(has keep.o work '0x515')"
assert_eq "keep: not in work.cold" 0 "$(has keep.o work.cold '0x515')"
forced() { sed -n "s/.*split of .work.: [0-9]* blocks never ran (\([0-9]*\) of them not yet cold for GCC).*/\1/p" "$1"; }
fe=$(forced estimate.err) fk=$(forced keep.err)
echo "blocks forced to zero: estimate $fe, keep $fk"
[ -n "$fe" ] && [ -n "$fk" ] && [ "$fk" -lt "$fe" ] || fail "keep should force fewer zeros ($fk) than estimate ($fe)"
ok "keep: the inlined loops keep their counts"

PI_CC_EXTRA="$X" checked_builds "$src" plan.fb inline-counts "estimate keep" 3 o2.out o2-3.out

expect_fail "a bad value" pi_cc -O2 -fplugin-arg-perfinst-inline-counts=maybe -c "$src" -o bad.o
assert_contains "why" err "inline-counts"
