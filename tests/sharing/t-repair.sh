# sharing repair: `pmopt plan --sharing` turns false sharing into a feedback
# file; the rebuild with -fplugin-arg-perfinst-feedback applies it without
# a source change: each thread's written data starts a line and no two
# threads' written data share one (from the addresses the fixture prints),
# re-running detection finds no false sharing, the output is unchanged;
# true sharing is never padded; feedback-only applies recommendations by
# number; --advise prints the same fixes as source advice.
. "$PERFINST_TOP/tests/lib.sh"
# exact mode: every access to a shared line checked (the default samples; t-sampled.sh)
export PERFINST_SHARING_PERIOD=1
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/fixtures.c" -o f.o
pi_ld -O2 -o f f.o
gcc -O2 -pthread "$T/sharing/fixtures.c" -o plain

# check_addrs FILE: lines "addr T<k> LO HI" -> each LO starts a line, the
# threads' lines are disjoint
check_addrs() {
    python3 "$T/sharing/check-addrs.py" "$1" || fail "$1: written data not on lines of their own"
    ok "$1: each thread's written data starts a line; no line shared"
}

for m in globals mixed linreg hidden; do
    PERFINST_OUT=$m.pit ./f $m > /dev/null 2> /dev/null
    "$PMOPT" plan --sharing -o $m.fb f $m.pit
    ./plain $m > $m.want 2> /dev/null
    # the repaired program, uninstrumented
    gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=$m.fb -O2 -pthread -g "$T/sharing/fixtures.c" \
        "$B/libperfinst.a" -o $m.fixed
    ./$m.fixed $m > $m.got 2> $m.addr
    diff -u $m.want $m.got || fail "$m: the repaired program's output differs"
    ok "$m: output unchanged after the repair"
    check_addrs $m.addr
    # and detection on the repaired program
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-feedback=$m.fb \
        -c "$T/sharing/fixtures.c" -o r.o
    pi_ld -O2 -o r r.o
    PERFINST_OUT=r$m.pit ./r $m > /dev/null 2>&1
    "$PMOPT" report --sharing r r$m.pit > r$m.rep
    assert_contains "$m: no false sharing after the repair" r$m.rep "reloads: [0-9]+ true, 0 false\)$"
done
assert_contains "globals: both globals moved" globals.fb "^1 align-global name=hits_[ab] "
assert_contains "globals: ..." globals.fb "^2 align-global name=hits_[ab] "
assert_contains "mixed: field a padded" mixed.fb "^[12] pad-field type=mixed field=a scope=whole-program "
assert_contains "mixed: field b padded" mixed.fb "^[12] pad-field type=mixed field=b scope=whole-program "
assert_not_contains "mixed: the truly shared field is never padded" mixed.fb "field=shared"
assert_contains "mixed: the true sharing stays" rmixed.rep "reloads: 1998 true, 0 false\)$"
assert_contains "linreg: the struct's stride" linreg.fb "pad-field type=acc field=\* scope=whole-program"
assert_contains "linreg: the allocation site" linreg.fb "align-alloc func=main file=fixtures.c line=[0-9]+ "
assert_contains "hidden: the predicted case is fixed too" hidden.fb "align-global name=halves "

# true sharing only: nothing to fix
PERFINST_OUT=atomic.pit ./f atomic > /dev/null 2>&1
"$PMOPT" plan --sharing -o atomic.fb f atomic.pit
assert_contains "atomic: an empty plan" atomic.fb "^end 0 "
"$PMOPT" plan --sharing --advise f atomic.pit > atomic.adv
assert_contains "atomic: advice says nothing to fix" atomic.adv "no false sharing found"

# arrays of scalars: advice only, never a silent layout change
PERFINST_OUT=adjacent.pit ./f adjacent > /dev/null 2>&1
"$PMOPT" plan --sharing -o adjacent.fb f adjacent.pit
assert_contains "adjacent: advice as a comment" adjacent.fb "^# advice \(not applied automatically\): c: "
assert_contains "adjacent: no recommendation" adjacent.fb "^end 0 "

# selection by number: only hits_b
n=$(sed -n 's/^\([0-9]\) align-global name=hits_b .*/\1/p' globals.fb)
gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=globals.fb -fplugin-arg-perfinst-feedback-only=$n \
    -O2 -pthread "$T/sharing/fixtures.c" "$B/libperfinst.a" -o sel
nm -S sel | grep -E " hits_[ab]$" > sel.nm
assert_contains "feedback-only: hits_b padded to a line" sel.nm "0000000000000040 [bB] hits_b$"
assert_contains "feedback-only: hits_a left alone" sel.nm "0000000000000008 [bB] hits_a$"

# advice
"$PMOPT" plan --sharing --advise f linreg.pit > linreg.adv
assert_contains "advice: the allocation site" linreg.adv "^[12]\. fixtures.c:[0-9]+ \(in main\): allocate with \`aligned_alloc\(64"
assert_contains "advice: alignas on the struct, at its declaration" linreg.adv "^[12]\. fixtures.c:[0-9]+: struct acc: \`alignas\(64\)\` its first member"
"$PMOPT" plan --sharing --advise f mixed.pit > mixed.adv
assert_contains "advice: alignas on a member, at its line" mixed.adv "fixtures.c:[0-9]+: struct mixed: \`alignas\(64\)\` on member \`a\`"
expect_fail "plan --sharing needs -o or --advise" "$PMOPT" plan --sharing f linreg.pit
assert_contains "  ... says so" err "expected -o FEEDBACK"

# a recommendation that names a field the struct does not have: a warning
# naming the file, the build goes on
python3 - <<'PY'
import zlib
body = "perfinst-feedback 1\nprogram f\n1 pad-field type=acc field=nope\n2 align-global name=hits_a\n"
open("bad.fb", "w").write(body + "end 2 0x%08x\n" % zlib.crc32(body.encode()))
PY
gcc -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=bad.fb -O2 -pthread -c "$T/sharing/fixtures.c" -o bad.o 2> bad.err ||
    { cat bad.err >&2; fail "a bad recommendation stopped the build"; }
assert_contains "unknown field: warned, with the file" bad.err "warning: perfinst: bad.fb:3: recommendation 1 \(pad-field\) not applied: struct acc has no field nope"
nm -S bad.o | grep -E " hits_a$" > bad.nm
assert_contains "the other recommendation still applied" bad.nm "0000000000000040 [bB] hits_a$"
