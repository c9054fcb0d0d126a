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
# (the loop's training build, README's: clean-copies=all, whose clean
# copies' sizes the plan's model takes for the rebuild's)
pi_cc $F -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=all -fplugin-arg-perfinst-sections \
    -c "$T/relink/keep.c" -o t.o
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
assert_contains "the relink says the plan keeps the rebuild's layout" rel.err \
    "^pmopt: note: keep.fb: no order-functions, order-data or reserve recommendation \(the plan predicted no order to miss less than the rebuild's layout\): r relinked as it is$"
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
    "hit ratio 0\.000 against 0\.000; independent references: 177207 misses against 175255\): not written"
assert_not_contains "no order-functions" m.fb "^[0-9]+ order-functions"

# A rebuild made with another plan's order (bench/projects.sh's zstd CLI:
# compiled with its library's plan, whose order names the library sources
# the CLI compiles too, then relinked with a plan of its own).  In a 32 KiB
# 8-way model cache every hot line fits, both estimates predict no miss for
# any order, and the check writes each plan's order: A by samples (a1 a2 a3
# a4 run b1 b2 b3 b4), B Ext-TSP's (b3 b2 b1 b4 run a1 a2 a3 a4).  The
# program is A's rebuild (.text.sorted sections in A's order); B's check
# compared B's order with the rebuild B would make, not with this one, so
# the relink with B keeps A's rebuild's .text as linked and says so.
# Placed anyway (--place-sorted), B's order has more cachegrind I1 misses
# in the 4 KiB direct-mapped cache than A's rebuild kept.  A plan without
# the rebuild kinds (made on the program itself, as relink2's) is placed.
for a in none exttsp; do
    "$PMOPT" plan --order=$a --rebuild --cache=32768,8,64 --reserve-sets=0 -o $a.fb t t.pit > $a.out
    assert_contains "$a: both estimates predict no miss" $a.out \
        "independent references \(Che's approximation of LRU\): the rebuild \(predicted\) 0 misses, the plan 0$"
done
assert_contains "A: the check writes the order by samples" none.fb \
    "^[0-9]+ order-functions alg=none functions=a1,a2,a3,a4,run,b1,b2,b3,b4,main( |$)"
assert_contains "B: the check writes Ext-TSP's order" exttsp.fb \
    "^[0-9]+ order-functions alg=exttsp functions=main,b3,b2,b1,b4,run,a1,a2,a3,a4( |$)"
pi_cc $F -fplugin-arg-perfinst-feedback=none.fb -fplugin-arg-perfinst-sections -c "$T/relink/keep.c" -o ra.o
pi_ld -O2 -o ra ra.o
readelf -SW ra.o | grep -q '\.text\.sorted\.0000000002\.a2 ' || fail "A's rebuild has no .text.sorted.0000000002.a2"
order() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(run|a[1-4]|b[1-4])$/ {printf "%s ", $3}'; }
assert_eq "A's rebuild has A's order" "a1 a2 a3 a4 run b1 b2 b3 b4 " "$(order ra)"
"$PMOPT" relink ra --feedback exttsp.fb -o ra.b --smoke 100 > rb.out 2> rb.err
cat rb.out rb.err
assert_contains "the relink says why it keeps the rebuild's order" rb.err \
    "ra: its rebuild applied another plan's function order \(9 planned functions in \.text\.sorted sections, not in exttsp\.fb's order\): \.text kept as linked"
fns ra > ra.syms
fns ra.b > rab.syms
cmp ra.syms rab.syms || { diff ra.syms rab.syms; fail "the relink moved functions of A's rebuild"; }
ok "the relink with B's plan has every function where A's rebuild has it"
"$PMOPT" relink ra --feedback exttsp.fb --place-sorted -o ra.placed --smoke 100 > /dev/null 2> placed.err
assert_eq "--place-sorted places B's order" "b3 b2 b1 b4 run a1 a2 a3 a4 " "$(order ra.placed)"
"$PMOPT" plan --order=exttsp --cache=32768,8,64 --reserve-sets=0 -o c.fb t t.pit > c.out
assert_not_contains "C (no --rebuild) has no rebuild kinds" c.fb "^[0-9]+ branch-profile"
"$PMOPT" relink ra --feedback c.fb -o ra.c --smoke 100 > /dev/null 2> c.err
assert_eq "a plan made on a program, not for a rebuild, is placed over A's order" \
    "b3 b2 b1 b4 run a1 a2 a3 a4 " "$(order ra.c)"
if command -v valgrind > /dev/null; then
    kept=$(cg ./ra.b) placed=$(cg ./ra.placed)
    [ "$placed" -gt "$kept" ] || fail "cachegrind: B's order placed has $placed I1 misses, A's rebuild kept $kept"
    ok "cachegrind (4 KiB direct-mapped I1): A's rebuild kept $kept misses, B's order placed over it $placed"
fi
