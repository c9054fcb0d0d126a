# The plan's model check (docs/layout.md "The model's check"): an order the
# cache model predicts to hit less than the layout it replaces is not
# written, and the relink keeps that layout.  keep.c in a 4 KiB
# direct-mapped model cache (--cache=4096,1,64): the rebuild's own layout
# (its hot tier in link order: a1 b1 a2 b2 a3 b3 a4 b4 run) fills the 64
# sets once; the order by samples (a1 a2 a3 a4 run b1 b2 b3 b4) leaves a
# gap after each 1 KiB-aligned a and the b functions wrap onto a1's and
# a2's sets.  So `pmopt plan --order=none --rebuild` predicts the rebuild's
# layout, says the order would hit less, writes no order-functions, and
# `pmopt relink` of the rebuild leaves every function where the rebuild has
# it; with --no-model-check the order is written, and the relinked program
# has more cachegrind I1 misses in that cache than the rebuild.
. "$PERFINST_TOP/tests/lib.sh"
F="-O2 -falign-functions=64 -fno-toplevel-reorder"
pi_cc $F -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/relink/keep.c" -o t.o
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t > /dev/null
"$PMOPT" plan --order=none --rebuild --cache=4096,1,64 --reserve-sets=0 -o keep.fb t t.pit > plan.out
cat plan.out
assert_contains "the plan models the rebuilt program's layout" plan.out \
    "^  the rebuild \(predicted\) +[0-9]+ hot lines"
assert_contains "and estimates both layouts' misses under independent references" plan.out \
    "^  independent references \(Che's approximation of LRU\): the rebuild \(predicted\) 0 misses, the plan [1-9][0-9]*$"
rb=$(sed -n 's/^  the rebuild (predicted).*hit ratio \([0-9.]*\),.*/\1/p' plan.out)
af=$(sed -n 's/^  after the order .*hit ratio \([0-9.]*\),.*/\1/p' plan.out)
awk -v a="$af" -v b="$rb" 'BEGIN { exit !(a < b) }' || fail "model: the order ($af) should hit less than the rebuild ($rb)"
ok "model: the order by samples hits $af, the rebuild's layout $rb"
assert_contains "the plan says why it writes no order" plan.out \
    "the planned order is predicted to miss more than the rebuilt program's own layout .*not written, pmopt relink keeps that layout"
assert_not_contains "no order-functions in the file" keep.fb "^[0-9]+ order-functions"
assert_contains "the rebuild kinds are still there" keep.fb "^[0-9]+ branch-profile fn=run "

pi_cc $F -fplugin-arg-perfinst-feedback=keep.fb -fplugin-arg-perfinst-sections -c "$T/relink/keep.c" -o r.o
pi_ld -O2 -o r r.o
readelf -SW r.o | grep -q '\.text\.hot\.b4 ' || fail "b4 is not in the rebuild's hot tier"
"$PMOPT" relink r --feedback keep.fb -o r.opt --smoke 100 > rel.out 2> rel.err
cat rel.out rel.err
fns() { nm "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(run|a[1-4]|b[1-4]|main)$/ {print $3, $1}' | sort; }
fns r > r.syms
fns r.opt > opt.syms
cat r.syms
cmp r.syms opt.syms || { diff r.syms opt.syms; fail "the relink moved functions of the rebuild"; }
ok "the relinked program has every function where the rebuild has it"

# the same order written anyway: more misses than the layout kept
"$PMOPT" plan --order=none --rebuild --cache=4096,1,64 --reserve-sets=0 --no-model-check -o forced.fb t t.pit > forced.out
assert_contains "--no-model-check writes the order" forced.fb "^[0-9]+ order-functions alg=none functions=a1,a2,a3,a4,run,b1,b2,b3,b4"
"$PMOPT" relink r --feedback forced.fb -o r.forced --smoke 100 > /dev/null
[ "$(./r 1000)" = "$(./r.forced 1000)" ] || fail "the forced relink prints something else"
if command -v valgrind > /dev/null; then
    cg() {
        valgrind --tool=cachegrind --cache-sim=yes --I1=4096,1,64 --D1=32768,8,64 --LL=8388608,16,64 \
            --cachegrind-out-file=/dev/null "$1" 1000 2>&1 > /dev/null | sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' | tr -d ,
    }
    kept=$(cg ./r.opt) forced=$(cg ./r.forced)
    [ "$forced" -gt "$kept" ] || fail "cachegrind: the forced order has $forced I1 misses, the kept layout $kept"
    ok "cachegrind (4 KiB direct-mapped I1): kept layout $kept misses, the order written anyway $forced"
else
    echo "valgrind missing: the cachegrind comparison is not made"
fi

# Where the cyclic stream cannot tell the layouts apart -- a 1 KiB cache,
# every set overflows for both (hit ratio 0.000), as on SQLite -- Che's
# estimate decides: it predicts the order 1.1 % more misses than the
# rebuild's layout, so the order is not written.
"$PMOPT" plan --order=none --rebuild --cache=1024,1,64 --reserve-sets=0 -o m.fb t t.pit > m.out
cat m.out
assert_contains "every set overflows for both layouts" m.out "^  the rebuild \(predicted\) .*16 of 16 sets over 1 ways .*hit ratio 0\.000"
assert_contains "Che's estimate decides: the rebuild's layout is kept" m.out \
    "hit ratio 0\.000 against 0\.000; independent references: 177206 misses against 175254\): not written"
assert_not_contains "no order-functions" m.fb "^[0-9]+ order-functions"
