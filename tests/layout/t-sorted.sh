# The rebuild's function order (gcc-plugin/pass-feedback.cc, docs/layout.md
# "Function order in the rebuild"): sorted-a.c and sorted-b.c, a chain
# main -> f1 -> f2 -> f3 -> f4 split over two objects.  The plan orders
# the executed functions main f1 f2 f3 f4; the rebuild puts f1..f4 in
# .text.sorted.RANK.NAME (main stays in .text.startup), f1's never-run
# block still in .text.unlikely.f1, rare (never ran) in .text.unlikely.rare;
# GNU ld's SORT(.text.sorted.*) lays the chain out f1 f2 f3 f4 across the
# objects, where function-order=none leaves it in object order (f1 f3 f2
# f4).  pmopt relink of the rebuild sees the order in place and keeps
# .text as linked (the same addresses: the relink cannot raise the
# rebuild's misses); with --place-sorted it places the order again, and of
# the function-order=none rebuild it places the order.  A clone the plan
# does not name (trained with -fno-ipa-cp, the plan orders g; the rebuild
# makes g.constprop.0) takes g's rank (clone-order=base, the default); with
# clone-order=own it keeps its place, in the rebuild and in its relink.
# The output is plain -O2's.
# The training builds are pinned (count-at=cfg, counting-opt=fast,
# entry-branch=tail): the expected order is Ext-TSP's on that build's code
# sizes and edges (with lean's -O1 copies, or entry-branch=direct's entry
# jumps, it places g.constprop.0 after f4).
. "$PERFINST_TOP/tests/lib.sh"
for u in a b; do
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-counting-opt=fast -fplugin-arg-perfinst-entry-branch=tail -fplugin-arg-perfinst-sections -c "$T/layout/sorted-$u.c" -o t$u.o
done
pi_ld -O2 -o t ta.o tb.o
PERFINST_OUT=t.pit ./t 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o s.fb t t.pit > plan.out
grep '^[0-9]' s.fb | cut -c1-100
assert_contains "the plan's order" s.fb "^[0-9]* order-functions alg=exttsp functions=main,f1,g.constprop.0,f2,f3,f4$"

# hotchain PROG: the names of f1..f4 in address order
hotchain() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(f[1-4]|g\.constprop\.0)$/ {print $3}' | paste -sd' '; }
build() { # NAME PLUGIN-ARGS...
    local n=$1 u; shift
    for u in a b; do
        pi_cc -O2 -fplugin-arg-perfinst-feedback=s.fb -fplugin-arg-perfinst-sections "$@" \
            -c "$T/layout/sorted-$u.c" -o $n$u.o 2>> $n.err
    done
    pi_ld -O2 -o $n ${n}a.o ${n}b.o
}
build r
cat r.err
assert_not_contains "no warning about the order kind" r.err "not one this plugin applies"
readelf -SW ra.o rb.o > secs
for s in ".text.sorted.0000000002.f1" ".text.sorted.0000000005.f3" ".text.sorted.0000000004.f2" \
         ".text.sorted.0000000006.f4" ".text.sorted.0000000003.g.constprop.0" ".text.unlikely.f1" ".text.unlikely.rare" ".text.startup.main"; do
    assert_contains "section $s" secs " ${s//./\\.} "
done
assert_not_contains "no .text.hot part left for the ordered functions" secs "\.text\.hot\."
assert_eq "the rebuilt program: the chain in the plan's order" "f1 g.constprop.0 f2 f3 f4" "$(hotchain r)"
nm -n r | awk '$2 ~ /^[tT]$/ {print $3}' > syms
for c in f1.cold rare; do
    grep -qx "$c" syms || fail "$c missing from the rebuilt program"
done
[ "$(grep -n -x -e f4 -e f1.cold syms | cut -d: -f2 | paste -sd' ')" = "f1.cold f4" ] ||
    fail "f1.cold is not before the ordered functions (.text.unlikely precedes .text.sorted)"
ok "f1.cold and rare in .text.unlikely, before the ordered chain"

build n -fplugin-arg-perfinst-function-order=none
assert_eq "function-order=none: object order" "f1 f3 g.constprop.0 f2 f4" "$(hotchain n)"
expect_fail "a bad function-order" pi_cc -O2 -fplugin-arg-perfinst-feedback=s.fb \
    -fplugin-arg-perfinst-function-order=random -c "$T/layout/sorted-b.c" -o bad.o
assert_contains "the error names the values" err "function-order=random.: expected .plan. or .none."

# --place-sorted: the relink of the rebuild places the order again at the top of .text
"$PMOPT" relink r --feedback s.fb --place-sorted -o r.re > re.out 2> re.err
cat re.out re.err
assert_not_contains "with --place-sorted the relink does not keep the rebuild's layout" re.err "already in the plan's order"
assert_contains "it finds the sorted sections and places the 6 functions" re.out "^pmopt relink: 6 functions in the planned order"
assert_eq "the relinked program: the plan's order" "f1 g.constprop.0 f2 f3 f4" "$(hotchain r.re)"
# by default: the order is there already, .text is kept as linked (the
# same addresses), the order checked in the output
"$PMOPT" relink r --feedback s.fb -o r.opt > rel.out 2> rel.err
cat rel.out rel.err
assert_contains "relink sees the rebuild's order" rel.err "r: the planned functions are already in the plan.s order .* kept as linked$"
assert_contains "and checks it in the output (f1..f4, g; main is in .text.startup)" rel.out "^pmopt relink: 5 functions in the planned order"
addrs() { nm "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(f[1-4]|g\.constprop\.0|f1\.cold|rare|main)$/ {print $3, $1}' | sort; }
assert_eq "the relinked program: the rebuild's addresses" "$(addrs r | paste -sd' ')" "$(addrs r.opt | paste -sd' ')"
# the relink of the rebuild without the order applies it
"$PMOPT" relink n --feedback s.fb -o n.opt > reln.out 2> reln.err
cat reln.out reln.err
assert_not_contains "function-order=none: no order to keep" reln.err "already in the plan's order"
assert_contains "function-order=none: relink places the 6 functions" reln.out "^pmopt relink: 6 functions in the planned order"
assert_eq "function-order=none, relinked: the plan's order" "f1 g.constprop.0 f2 f3 f4" "$(hotchain n.opt)"
# a clone the plan does not name: trained without IPA-CP, the plan orders
# g; with clone-order=own the rebuild's g.constprop.0 is not sorted
for u in a b; do
    pi_cc -O2 -fno-ipa-cp -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-counting-opt=fast -fplugin-arg-perfinst-entry-branch=tail -fplugin-arg-perfinst-sections \
        -c "$T/layout/sorted-$u.c" -o c$u.o
done
pi_ld -O2 -o c ca.o cb.o
PERFINST_OUT=c.pit ./c 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o c.fb c c.pit > cplan.out
assert_contains "trained without IPA-CP: the plan names g" c.fb "^[0-9]* order-functions alg=exttsp functions=main,f1,g,f2,f3,f4$"
pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clone-order=own \
    -c "$T/layout/sorted-b.c" -o rc.o
readelf -SW rc.o > csecs
assert_contains "f2 has its rank" csecs " \.text\.sorted\.0000000004\.f2 "
assert_not_contains "the rebuild's clone g.constprop.0 is not sorted" csecs "\.text\.sorted\.[0-9]*\.g\.constprop\.0"
# its relink keeps .text as linked: the clone of a planned g is where the rebuild left it
pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb -fplugin-arg-perfinst-sections -c "$T/layout/sorted-a.c" -o ra2.o
pi_ld -O2 -o rc ra2.o rc.o
"$PMOPT" relink rc --feedback c.fb -o rc.opt > relc.out 2> relc.err
cat relc.out relc.err
assert_contains "the clone does not hide the rebuild's order" relc.err "rc: the planned functions are already in the plan.s order .* kept as linked$"
assert_eq "the relinked program: the rebuild's addresses" "$(addrs rc | paste -sd' ')" "$(addrs rc.opt | paste -sd' ')"
# clone-order=base: the clone takes g's rank, right after g's place
pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clone-order=base \
    -c "$T/layout/sorted-b.c" -o rcb.o
readelf -SW rcb.o > cbsecs
assert_contains "clone-order=base: g.constprop.0 has g's rank" cbsecs " \.text\.sorted\.0000000003\.g\.constprop\.0 "
assert_contains "clone-order=base: f2 keeps its rank" cbsecs " \.text\.sorted\.0000000004\.f2 "
pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb -fplugin-arg-perfinst-sections \
    -c "$T/layout/sorted-b.c" -o rcd.o
cmp rcb.o rcd.o || fail "clone-order=base is not the default"
pi_ld -O2 -o rcb ra2.o rcb.o
assert_eq "clone-order=base, linked: the clone in g's place" "f1 g.constprop.0 f2 f3 f4" "$(hotchain rcb)"
"$PMOPT" relink rcb --feedback c.fb -o rcb.opt > relcb.out 2> relcb.err
assert_contains "clone-order=base: relink keeps the rebuild's order" relcb.err "rcb: the planned functions are already in the plan.s order .* kept as linked$"
expect_fail "a bad clone-order" pi_cc -O2 -fplugin-arg-perfinst-feedback=c.fb \
    -fplugin-arg-perfinst-clone-order=near -c "$T/layout/sorted-b.c" -o bad.o
assert_contains "the error names the values" err "clone-order=near.: expected .own. or .base."
# cold-parts= (docs/layout.md "Cold parts in the rebuild"): the cold part
# of an ordered function in .text.unlikely (link: before the ordered
# functions), after all of them in the plan's order (sorted), or right
# after its function (beside); a function that never ran (rare) stays in
# .text.unlikely.  pmopt reads both names as f1's cold part: a relink
# keeps the rebuild's layout, and --place-sorted puts f1.cold after the
# planned functions.
python3 - "$(sed -n 's/^[0-9]* \(order-functions .*\)$/\1/p' s.fb) cold=f1" << 'PY'
import sys, zlib
body = "perfinst-feedback 1\n1 %s\n" % sys.argv[1]
open("sc.fb", "w").write(body + "end 1 0x%08x\n" % zlib.crc32(body.encode()))
PY
coldchain() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(f[1-4]|g\.constprop\.0|f1\.cold)$/ {print $3}' | paste -sd' '; }
for m in link sorted beside; do
    build c$m -fplugin-arg-perfinst-cold-parts=$m
    readelf -SW c${m}a.o > c$m.secs
    assert_contains "cold-parts=$m: rare (never ran) in .text.unlikely" c$m.secs " \.text\.unlikely\.rare "
done
assert_contains "cold-parts=link: f1's cold part in .text.unlikely.f1" clink.secs " \.text\.unlikely\.f1 "
assert_contains "cold-parts=sorted: f1's cold part in .text.sorted.cRANK.f1" csorted.secs " \.text\.sorted\.c0000000002\.f1 "
assert_contains "cold-parts=beside: f1's cold part in .text.sorted.RANKc.f1" cbeside.secs " \.text\.sorted\.0000000002c\.f1 "
assert_not_contains "cold-parts=sorted: no .text.unlikely.f1" csorted.secs "\.text\.unlikely\.f1 "
assert_eq "cold-parts=link: f1.cold before the chain" "f1.cold f1 g.constprop.0 f2 f3 f4" "$(coldchain clink)"
assert_eq "cold-parts=sorted: f1.cold after the chain" "f1 g.constprop.0 f2 f3 f4 f1.cold" "$(coldchain csorted)"
assert_eq "cold-parts=beside: f1.cold right after f1" "f1 f1.cold g.constprop.0 f2 f3 f4" "$(coldchain cbeside)"
for m in sorted beside; do
    "$PMOPT" relink c$m --feedback s.fb -o c$m.opt > c$m.rel.out 2> c$m.rel.err
    assert_contains "cold-parts=$m: relink keeps the rebuild's layout" c$m.rel.err "the planned functions are already in the plan.s order .* kept as linked$"
    assert_eq "cold-parts=$m, relinked: the rebuild's addresses" "$(addrs c$m | paste -sd' ')" "$(addrs c$m.opt | paste -sd' ')"
    "$PMOPT" relink c$m --feedback s.fb --place-sorted -o c$m.re > c$m.re.out 2> c$m.re.err
    assert_contains "cold-parts=$m, --place-sorted: the 6 functions placed (the cold part is not f1's hot piece)" \
        c$m.re.out "^pmopt relink: 6 functions in the planned order at 0x[0-9a-f]*-0x[0-9a-f]* \(232 bytes\)"
    assert_eq "cold-parts=$m, --place-sorted: f1.cold after the chain" "f1 g.constprop.0 f2 f3 f4 f1.cold" "$(coldchain c$m.re)"
    # a plan's cold list (order-functions cold=, --order=sets) finds f1's cold part under its new name
    "$PMOPT" relink c$m --feedback sc.fb --place-sorted -o c$m.rc > c$m.rc.out 2> c$m.rc.err
    cat c$m.rc.err
    assert_contains "cold-parts=$m: the cold list's f1 is f1.cold" c$m.rc.out "^pmopt relink: 1 cold parts in the planned order after them"
done
expect_fail "a bad cold-parts" pi_cc -O2 -fplugin-arg-perfinst-feedback=s.fb \
    -fplugin-arg-perfinst-cold-parts=near -c "$T/layout/sorted-b.c" -o bad.o
assert_contains "the error names the values" err "cold-parts=near.: expected .link., .sorted. or .beside."

gcc -O2 -o plain "$T/layout/sorted-a.c" "$T/layout/sorted-b.c"
for in in 5000 -3 ""; do
    for p in r n r.re r.opt n.opt rc.opt rcb clink csorted cbeside csorted.opt cbeside.opt csorted.re cbeside.re csorted.rc cbeside.rc; do
        ./plain $in > a.out
        ./$p $in > b.out
        cmp a.out b.out || fail "$p: output differs from plain -O2 on '$in'"
    done
done
ok "output identical to plain -O2 (the rare path included)"
