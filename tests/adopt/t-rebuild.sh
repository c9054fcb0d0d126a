# The rebuild loop through the flags: a counted training build, a plan, and
# the feedback rebuild (-fplugin-arg-perfinst-feedback=F, no counting
# directive).  The optimised program does not depend on the runtime: no
# DT_NEEDED libperfinst.so, no RUNPATH of ours, no perfinst symbol; it
# gives the same output.  A rebuild that still counts something (a
# `#pragma perfinst count` in the source) keeps the runtime.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
base="-O2 $PI_CFLAGS -fplugin-arg-perfinst-sections"
gcc $base -fplugin-arg-perfinst-all=count -c "$A/src/walk.c" -o walk.o
gcc $base -fplugin-arg-perfinst-all=count -c "$A/src/steps.c" -o steps.o
gcc $PI_LIBS -o train steps.o walk.o
PERFINST_OUT=train.pit ./train 8 > train.out
"$PMOPT" plan --order=exttsp --rebuild -o steps.fb train train.pit > plan.out
grep -q '^[0-9]* branch-profile' steps.fb || { cat steps.fb; fail "no branch-profile in the plan"; }
gcc $base -fplugin-arg-perfinst-feedback=steps.fb -c "$A/src/walk.c" -o walk.opt.o
gcc $base -fplugin-arg-perfinst-feedback=steps.fb -c "$A/src/steps.c" -o steps.opt.o
gcc $PI_LIBS -o opt steps.opt.o walk.opt.o
readelf -dW opt > opt.d
assert_not_contains "no DT_NEEDED libperfinst" opt.d 'libperfinst'
assert_not_contains "no RUNPATH or RPATH" opt.d 'R(UN)?PATH'
nm opt > opt.nm
assert_not_contains "no perfinst symbol" opt.nm 'perfinst_'
"$PMOPT" dump-meta opt > opt.meta
assert_contains "still relinkable: translation table and recipe" opt.meta 'translation table, link recipe'
assert_eq "same output" "$(cat train.out)" "$(./opt 8)"
"$PMOPT" relink opt --feedback steps.fb -o opt.relinked --smoke 8 > relink.out 2>&1 ||
    { cat relink.out; fail "pmopt relink of the rebuild"; }
readelf -dW opt.relinked > rel.d
assert_not_contains "the relinked rebuild: no DT_NEEDED libperfinst" rel.d 'libperfinst'

# A rebuild that also counts (a directive in the source): the runtime stays.
{ echo '#pragma perfinst count'; cat "$A/src/walk.c"; } > counted.c
gcc $base -I"$PERFINST_TOP/include" -fplugin-arg-perfinst-feedback=steps.fb -c counted.c -o counted.o
gcc $PI_LIBS -o counted steps.opt.o counted.o
readelf -dW counted > counted.d
assert_contains "counting something: the runtime" counted.d 'NEEDED.*\[libperfinst\.so\]'
PERFINST_OUT=counted.pit ./counted 8 > /dev/null
assert_eq "and it counts: step entered 24 times" 24 "$(function_entries counted counted.pit step)"
