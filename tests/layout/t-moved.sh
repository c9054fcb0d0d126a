#!/bin/bash
# A profile follows the code, not the place of the tree: a plan taken in
# one checkout, whose build passes absolute source paths (as zstd's and
# CMake's do), applies whole to a feedback rebuild in a second checkout of
# the same tree, with byte-identical objects; so does a rebuild from
# another directory, whose keys differ, when the plan has one key of the
# file's name and none of the unit's own (stale when edited: a warning); a
# rebuild whose file has another name as well warns without being asked
# and names the key the profile has, and
# -fplugin-arg-perfinst-prefix-map=OLD=NEW makes it match (docs/layout.md,
# "Keys and staleness"), trained at cfg or after the early inliner (where
# the unit's functions are fewer: moved-late.c; before, a late plan's moved
# unit never ran the late pass and said nothing).
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
mkdir -p one/src one/build
cp "$T/layout/branch.c" one/src/
cd one/build
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$PWD/../src/branch.c" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > /dev/null
"$PMOPT" plan -o plan.fb ./train train.pit > /dev/null
assert_contains "the plan's keys are relative to the build directory" plan.fb " src=\.\./src/branch\.c "
cd ../..
cp -r one two
for t in one two; do
    (cd $t/build && pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-verbose \
        -c "$PWD/../src/branch.c" -o rebuilt.o 2> rebuilt.err)
    assert_contains "$t: every profile applies" $t/build/rebuilt.err "plan\.fb: 2 function profiles matched, 0 stale, 0 malformed in \.\./src/branch\.c \(100\.0% of the profile.s block executions matched\)"
    assert_not_contains "$t: no warning" $t/build/rebuilt.err "warning"
done
cmp one/build/rebuilt.o two/build/rebuilt.o || fail "the two checkouts' rebuilds differ"
ok "the two checkouts' rebuilds are byte-identical"
# another file of the tree with the same functions (a copy, fribidi's two
# conformance tests' helpers) and no profile of its own: not a move
cp one/src/branch.c one/src/copy.c
(cd one/build && pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$PWD/../src/copy.c" -o copy.o 2> copy.err)
assert_not_contains "a copy under another name in the tree: no warning" one/build/copy.err "warning"
# another file whose functions have the same names and other code,
# compiled from another directory, where the profile's key names no file
# (libjpeg-turbo's jctrans.c, compiled in build/ for the static library,
# was said to be ../../src/jccoefct.c moved: the shared library's objects
# were trained in build/sharedlib/, and both files have a static
# start_pass_coef and compress_output)
cat > one/src/other.c << 'C'
#include <stdio.h>
__attribute__((noinline)) static void work(int i, volatile int *acc)
{
    for (int k = 0; k < i; k++)
        acc[k & 3] += k;
}
int main(void)
{
    volatile int acc[4] = { 0, 0, 0, 0 };
    work(10, acc);
    printf("%d\n", acc[0]);
    return 0;
}
C
(cd one && pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -c "$PWD/src/other.c" -o other.o 2> other.err)
assert_not_contains "functions of the same names in another file, from another directory: no warning" one/other.err "warning"
rm one/src/other.c
# ... also when one of them has the trained function's CFG, among several
# functions of its own (jctrans.c's start_pass_coef is jccoefct.c's)
{ sed -n '/^__attribute__((noinline)) static void work/,/^}/p' one/src/branch.c
  for f in f1 f2 f3 f4; do printf 'int %s(int x) { return x * 3 + %d; }\n' $f ${#f}; done
  printf 'int main(void) { volatile int a[4] = {0, 0, 0, 0}; work(3, a); return f1(a[0]) + f2(1) + f3(2) + f4(3); }\n'; } > one/src/other.c
(cd one && pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -c "$PWD/src/other.c" -o other.o 2> other.err)
assert_not_contains "another file with one function of the trained CFG among others, from another directory: no warning" one/other.err "warning"
rm one/src/other.c
rm one/src/copy.c

# the same tree built from another directory: the keys differ (src/branch.c,
# the plan's ../src/branch.c), and the plan has one key of that file name
# and none of the unit's own: its profiles apply (CMake compiles a shared
# library's objects in a directory of their own and the static library's
# in another: libjpeg-turbo's 57 units of its static library warned)
cd two
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -c "$PWD/src/branch.c" -o other.o 2> other.err
assert_not_contains "another directory, the same file name: no warning" other.err "warning"
cmp other.o build/rebuilt.o || fail "the rebuild from another directory differs from the rebuild in build/"
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -fplugin-arg-perfinst-verbose -c "$PWD/src/branch.c" -o other.o 2> other.err
assert_contains "verbose: every profile applied, under the plan's key" other.err \
    "2 function profiles matched, 0 stale, 0 malformed in src/branch\.c \(in the plan: \.\./src/branch\.c, compiled from another directory\) \(100\.0%"
# two keys of that name in the plan (two files of one name): none is taken
sed 's|src=\.\./src/branch\.c|src=../lib/branch.c|' build/plan.fb | grep -v '^end' > two.body
grep ' fn=work ' build/plan.fb | grep -v '^end' | head -1 | sed 's/^[0-9]*/99/' >> two.body
reseal two.body two.fb
pi_cc -O2 -fplugin-arg-perfinst-feedback=two.fb -c "$PWD/src/branch.c" -o two.o 2> two.err
assert_contains "two keys of the file's name: a warning names one" two.err "warning: perfinst: two\.fb: no function profile is keyed to this unit.s source .src/branch\.c."
# a file of another name with the same functions (renamed): no key of its
# name; unasked, a warning names the profile's key
cp src/branch.c src/renamed.c
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -c "$PWD/src/renamed.c" -o renamed.o 2> other.err
assert_contains "unasked, a warning names the profile's key" other.err "warning: perfinst: build/plan\.fb: no function profile is keyed to this unit.s source .src/renamed\.c., but 2 of its functions are profiled under .\.\./src/branch\.c.: was the tree moved"
# bench/suite.sh stops on it (bench/lib.sh plan_missed, run on each
# rebuild's compiler messages from where its build began)
. "$PERFINST_TOP/bench/lib.sh"
plan_missed other.err > missed.txt || fail "plan_missed: the moved unit's warning not found"
assert_contains "plan_missed prints the warning" missed.txt "no function profile is keyed to this unit"
if plan_missed other.err "$(stat -c %s other.err)" > /dev/null; then fail "plan_missed: read before the byte it was given"; fi
if plan_missed ../one/build/rebuilt.err > /dev/null; then fail "plan_missed: a rebuild that applied its plan"; fi
ok "plan_missed: the moved unit, nothing before BYTES, nothing in a rebuild that matched"
# the layout benchmarks' SQLite rebuild (bench/lib.sh sqlite_build) fails
# on it, and compiles again next time (no stamp)
mkdir -p sq
cp src/branch.c sq/sqlite3.c
if (SQ=$PWD/sq DEFS= here=$PERFINST_TOP/bench B=$B
    sqlite_build sqb -O2 -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=build/plan.fb) 2> sqb.err; then
    fail "sqlite_build: a rebuild that did not apply its plan succeeded"
fi
assert_contains "sqlite_build names the warning" sqb.err "warning: perfinst: build/plan\.fb: no function profile is keyed to this unit"
assert_contains "sqlite_build says why it failed" sqb.err "sqb: sqlite3\.c did not apply its plan \\(in sqb/cc\.err\\)"
[ ! -e sqb/stamp ] && [ ! -e sqb/workload.o ] || fail "sqlite_build: a stamp or workload.o after the failed rebuild"
ok "sqlite_build fails on a rebuild that did not apply its plan, and leaves no stamp"
# ... also when its functions changed too (by name: none has the profile's
# CFG; sqlite3.c's late profiles built from another directory matched none)
sed -e 's/acc\[3\] -= i;/acc[3] -= i; if (i == 12345) acc[0] = 1;/' \
    -e 's/return 0;/if (n == 7) puts("seven");\n    return 0;/' src/branch.c > src/edited.c
grep -q 12345 src/edited.c && grep -q seven src/edited.c || fail "the edit of branch.c"
cp src/edited.c src/branch.c
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -fplugin-arg-perfinst-verbose -c "$PWD/src/branch.c" -o edited.o 2> edited.err
assert_contains "edited: stale under the plan's key, a warning" edited.err "warning: perfinst: build/plan\.fb: 0 function profiles matched, 2 stale, 0 malformed in src/branch\.c \(in the plan: \.\./src/branch\.c, compiled from another directory\)"
cp src/edited.c src/renamed.c
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -fplugin-arg-perfinst-verbose -c "$PWD/src/renamed.c" -o edited.o 2> edited.err
assert_not_contains "edited and renamed: no profile matches its CFG elsewhere" edited.err "profile of .* matches"
assert_not_contains "edited and renamed: only names match, another file (as jctrans.c): no warning" edited.err "warning"
cp ../one/src/branch.c src/branch.c
# the unit's key outlives GCC's garbage collections (collected at every
# chance here: the key was GC memory, and the warning printed freed bytes)
cp src/branch.c src/renamed.c
pi_cc -O2 --param ggc-min-expand=0 --param ggc-min-heapsize=0 -fplugin-arg-perfinst-feedback=build/plan.fb \
    -c "$PWD/src/renamed.c" -o gc.o 2> gc.err
assert_contains "after collections the warning still names the unit's key" gc.err \
    "warning: perfinst: build/plan\.fb: no function profile is keyed to this unit.s source .src/renamed\.c., but 2"
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -fplugin-arg-perfinst-prefix-map="$PWD=.." \
    -fplugin-arg-perfinst-verbose -c "$PWD/src/branch.c" -o mapped.o 2> mapped.err
assert_contains "prefix-map: every profile applies" mapped.err "2 function profiles matched, 0 stale, 0 malformed in \.\./src/branch\.c \(100\.0%"
cmp mapped.o build/rebuilt.o || fail "the mapped rebuild differs from the rebuild in build/"
ok "the mapped rebuild is the rebuild in build/"
expect_fail "a prefix map without =" pi_cc -fplugin-arg-perfinst-prefix-map=nothing -c src/branch.c -o x.o
assert_contains "says what it expects" err "prefix-map=nothing.*expected OLD=NEW"

# trained after the early inliner (the default): moved-late.c's `twice` is
# inlined before the late point, so the moved build looks up three
# functions at cfg and two after it; the two late profiles, by name, warn
# (edited too: no CFG matches)
cd ..
mkdir -p late/src late/build
cp "$T/layout/moved-late.c" late/src/
(cd late/build && pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$PWD/../src/moved-late.c" -o train.o &&
    pi_ld -O2 -o train train.o && PERFINST_OUT=train.pit ./train > /dev/null &&
    "$PMOPT" plan -o plan.fb ./train train.pit > /dev/null) || fail "the late training build"
assert_contains "late: the plan's profiles are late" late/build/plan.fb " fn=work src=\.\./src/moved-late\.c .* at=late "
cd late
sed -i 's/return i - 1;/return i - 3;\n    if (i == 12345) return 9;/; s/printf("%d\\n", s);/if (n == 7) puts("seven");\n    printf("%d\\n", s);/' src/moved-late.c
grep -q 12345 src/moved-late.c && grep -q seven src/moved-late.c || fail "the edit of moved-late.c"
pi_cc -O2 -fplugin-arg-perfinst-feedback=build/plan.fb -c "$PWD/src/moved-late.c" -o other.o 2> other.err
assert_contains "late, edited, from another directory: stale under the plan's key, a warning" other.err \
    "warning: perfinst: build/plan\.fb: 0 function profiles matched, 2 stale, 0 malformed in src/moved-late\.c \(in the plan: \.\./src/moved-late\.c, compiled from another directory\)"

# a unit whose functions never ran shares a header's helper with one that
# did (snappy's tests and its library): the helper's profile under the
# other unit's key is no sign of a move, and the unit says nothing
cd ..
mkdir hdr && cd hdr
cp "$T/layout/moved-hdr.h" "$T/layout/moved-hdr-a.c" "$T/layout/moved-hdr-b.c" .
for u in a b; do pi_cc -O2 -fplugin-arg-perfinst-all=count -c moved-hdr-$u.c -o $u.o || fail "compile $u"; done
pi_ld -O2 -o train a.o b.o && PERFINST_OUT=train.pit ./train > /dev/null && "$PMOPT" plan -o plan.fb ./train train.pit > /dev/null ||
    fail "the header helper's training"
assert_contains "the helper is profiled under a's key" plan.fb " fn=hdr_mix src=moved-hdr-a\.c "
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c moved-hdr-b.c -o b2.o 2> b2.err || fail "rebuild b"
assert_not_contains "a unit sharing only a header's helper: no warning" b2.err "warning"
mkdir other && cp moved-hdr.h moved-hdr-a.c other/
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$PWD/other/moved-hdr-a.c" -o a2.o 2> a2.err || fail "rebuild a elsewhere"
assert_not_contains "a, from another directory: its profiles apply under the plan's key, no warning" a2.err "warning"
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-verbose -c "$PWD/other/moved-hdr-a.c" -o a2.o 2> a2.err
assert_contains "a, from another directory: every profile applied" a2.err \
    "function profiles matched, 0 stale, 0 malformed in other/moved-hdr-a\.c \(in the plan: moved-hdr-a\.c, compiled from another directory\) \(100\.0%"
