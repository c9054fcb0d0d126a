# The set-pressure order (optimizer/model/order-sets.c, docs/layout.md "Set
# pressure") on fixture functions whose best layouts are worked out by hand.
. "$PERFINST_TOP/tests/lib.sh"
O=$PERFINST_TOP/optimizer/model
gcc -std=gnu11 -Wall -Werror -I"$O" "$T/relink/settool.c" "$O/order-sets.c" "$O/order.c" -lm -o settool

# A cache of 4 sets of 1 way (64-byte lines, a 256-byte period).  A, B, C, D
# are 256 bytes whose first line runs 100 times; E, F, G are one line run
# once.  In the given order A B C D E F G every hot first line falls in set
# 0: the set keeps one of them, the other three (300 fetches) and E (1) miss
# — pressure 301.  7 hot lines in 4 one-way sets leave at least 3 beyond the
# ways, so the least is 3: one small function after each big one shifts the
# next big one's first line to the next set, each set holds one hot line and
# at most one line run once.
cat > conflict.g <<'G'
cache 4 1 64
fn A 256 16
fn B 256 16
fn C 256 16
fn D 256 16
fn E 64 16
fn F 64 16
fn G 64 16
blk A 0 64 100
blk B 0 64 100
blk C 0 64 100
blk D 0 64 100
blk E 0 64 1
blk F 0 64 1
blk G 0 64 1
G
./settool < conflict.g > out
cat out
assert_eq "pressure of the given order" "before: 301" "$(grep '^before:' out)"
assert_eq "pressure spread: the least possible" "after: 3" "$(grep '^after:' out)"
sets=$(awk '$1 == "at:" && $2 ~ /^[ABCD]$/ { print $4 }' out | sort -u | wc -l)
assert_eq "the four hot first lines in four different sets" 4 "$sets"

# No pressure (8 ways hold everything): only the affinity term moves
# functions.  X calls A 100 times and is listed last, 3000 bytes away; the
# search puts X right before A (its middle 504 bytes from A's start).
cat > affine.g <<'G'
cache 4 8 64
fn A 1000 16
fn B 1000 16
fn C 1000 16
fn X 1000 16
blk A 0 64 100
blk B 0 64 100
blk C 0 64 100
blk X 0 64 100
arc X A 100
G
./settool < affine.g > out
cat out
assert_eq "no pressure before or after" "before: 0 after: 0" "$(grep -E '^(before|after):' out | xargs)"
case " $(sed -n 's/^order://p' out) " in
*" X A "*) ok "X right before A" ;;
*) fail "X should be right before A: $(grep '^order:' out)" ;;
esac

# The affinity's weight (--sets-affinity): A and B are 256 bytes whose
# first line runs 100 times, and A calls B 12800 times; S is one line run
# once.  In the order A B S the two first lines share set 0 of 4 one-way
# sets (pressure 101).  S between A and B moves B's first line to set 1
# (pressure 1: S's line beside A's) and the call 64 bytes farther: its
# Ext-TSP score falls by 12800 × 64 / 4096 = 200.  At 0.25 (the default)
# that is worth 50 fetches, less than the 100 the spread saves: A S B.  At
# 1 it is worth 200: A and B stay together and share the set (S goes
# before A, off B's set: pressure 100).
for w in 0.25 1; do
    { echo "cache 4 1 64"; echo "affinity $w"
      echo "fn A 256 16"; echo "fn B 256 16"; echo "fn S 64 16"
      echo "blk A 0 64 100"; echo "blk B 0 64 100"; echo "blk S 0 64 1"
      echo "arc A B 12800"; } > aff$w.g
    ./settool < aff$w.g > out$w
    cat out$w
done
assert_eq "affinity 0.25: pressure 101 spread to 1" "before: 101 after: 1" "$(grep -E '^(before|after):' out0.25 | xargs)"
assert_eq "affinity 0.25: S between A and B" "order: A S B" "$(grep '^order:' out0.25)"
assert_eq "affinity 1: the call kept, the set shared" "before: 101 after: 100" "$(grep -E '^(before|after):' out1 | xargs)"
case " $(sed -n 's/^order://p' out1) " in
*" A B "*) ok "affinity 1: B right after A" ;;
*) fail "affinity 1: B should be right after A: $(grep '^order:' out1)" ;;
esac

# End to end (sets.c): 12 functions of 8 KiB (with -falign-functions=64)
# whose executed lines are near their start and in the middle, 12 small
# ones that run once.  Ext-TSP's order puts the big ones one after the
# other: their hot lines fall into the same few sets, 12 to a set.  The
# spread order puts small ones between them; the relink follows it.  (Both
# from Ext-TSP's order alone, --no-tier-first, for which the fixture is
# worked out: with the hot tier first, the default, main comes before the
# big ones instead of among the small ones, and 9 of them, not 12, start in
# one set.)
# counting=inline: this test studies the counting build's own layout, and a
# counting=function build's counting copies are f.count.N sections the relink
# leaves in ld's order (docs/layout.md)
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -ffunction-sections -fdata-sections \
    -falign-functions=64 -c "$T/relink/sets.c" -o sets.o
pi_ld -O2 -o sets sets.o
PERFINST_OUT=sets.pit ./sets 100 > train.out
"$PMOPT" plan --order=exttsp --no-tier-first --cache=32768,8,64 -o ext.fb sets sets.pit > ext.plan
"$PMOPT" plan --order=sets --no-tier-first --cache=32768,8,64 -o sets.fb sets sets.pit > sets.plan
cat sets.plan
assert_contains "the plan's first line names the algorithm" sets.plan "^pmopt plan --order=sets: sets, "
assert_contains "the feedback file says sets" sets.fb "^[0-9]+ order-functions alg=sets functions="
line=$(grep 'set pressure (fetches beyond' sets.plan)
ep=$(echo "$line" | sed -n 's/.*exttsp order \([0-9]*\), spread \([0-9]*\).*/\1/p')
sp=$(echo "$line" | sed -n 's/.*exttsp order \([0-9]*\), spread \([0-9]*\).*/\2/p')
[ -n "$ep" ] && [ "$ep" -gt 0 ] || fail "Ext-TSP's order has no set pressure ($line): the fixture proves nothing"
assert_eq "spread: no set over its ways" 0 "$sp"
assert_contains "the default affinity is said" sets.plan "swaps and moves, affinity 0.25\)"
# --sets-affinity reaches the search (its effect: settool's fixture above):
# main calls every function; at 4 a call kept near main outweighs a
# small function's line beyond its set's ways, and the order differs
"$PMOPT" plan --order=sets --no-tier-first --cache=32768,8,64 --sets-affinity=4 -o heavy.fb sets sets.pit > heavy.plan
assert_contains "--sets-affinity is said" heavy.plan "swaps and moves, affinity 4\)"
o1=$(sed -n 's/.* order-functions alg=sets functions=\([^ ]*\).*/\1/p' sets.fb)
o2=$(sed -n 's/.* order-functions alg=sets functions=\([^ ]*\).*/\1/p' heavy.fb)
[ -n "$o1" ] && [ -n "$o2" ] && [ "$o1" != "$o2" ] || fail "--sets-affinity=4 planned the default's order: $o2"
ok "--sets-affinity=4 plans another order than 0.25"
if "$PMOPT" plan --order=sets --sets-affinity=x -o bad.fb sets sets.pit > bad.out 2>&1; then
    fail "--sets-affinity=x accepted"
else
    assert_contains "--sets-affinity=x refused" bad.out "--sets-affinity: 'x' is not a number"
fi
for v in ext sets; do
    "$PMOPT" relink sets --feedback $v.fb -o sets.$v --smoke 30 > $v.rel || fail "relink $v"
    ./sets.$v 100 > $v.out
    cmp train.out $v.out || fail "$v: the relinked program prints something else"
done
permax() { # PROG: most big functions that start in one set
    nm "$1" | awk '$3 ~ /^big[0-9]+$/ { print $1 }' | while read -r a; do
        echo $(( (0x$a >> 6) & 63 )); done | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }'
}
assert_eq "nm: Ext-TSP's relink starts the 12 big functions in one set" 12 "$(permax sets.ext)"
m=$(permax sets.sets)
[ "$m" -le 8 ] || fail "nm: the spread relink starts $m big functions in one set"
ok "nm: the spread relink starts at most $m big functions in one set"
# the model is exact for a relinked layout: the pressure of each relinked
# program as linked is what the plan predicted for its order
"$PMOPT" plan --order=sets --no-tier-first --cache=32768,8,64 --target=sets.sets --advise sets sets.pit > t1
"$PMOPT" plan --order=sets --no-tier-first --cache=32768,8,64 --target=sets.ext --advise sets sets.pit > t2
assert_contains "the spread relink as linked: pressure 0" t1 "set pressure of the target as linked: 0 "
assert_contains "Ext-TSP's relink as linked: pressure $ep" t2 "set pressure of the target as linked: $ep "
if command -v valgrind > /dev/null; then
    CG="valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --cachegrind-out-file=/dev/null"
    i1() { $CG "$@" 2>&1 > /dev/null | sed -n 's/.*I1  misses: *\([0-9,]*\).*/\1/p' | tr -d ,; }
    e=$(i1 ./sets.ext 20000); s=$(i1 ./sets.sets 20000)
    [ "$s" -lt $((e / 2)) ] || fail "cachegrind I1 misses: Ext-TSP $e, spread $s: not halved"
    ok "cachegrind I1 misses: Ext-TSP's relink $e, spread $s"
fi

# The same with the default counting=function: a counted function's ranges
# are in its counting copy's section (F.count.N), and the model takes them
# as F's, scaled onto F's section (as the cache model does: plan-order.c
# add_section_lines).  Without that the model saw no executed line of any
# ordered function (pressure 0: nothing to spread).  Planned for the plain
# -O2 build (--target) and relinked: the big functions spread as above.
pi_cc -O2 -fplugin-arg-perfinst-all=count -ffunction-sections -fdata-sections \
    -falign-functions=64 -c "$T/relink/sets.c" -o setsf.o
pi_ld -O2 -o setsf setsf.o
PERFINST_OUT=setsf.pit ./setsf 100 > /dev/null
nm setsf | grep -q ' big0\.count\.' || fail "the counting=function build has no counting copy big0.count.N"
gcc -O2 -ffunction-sections -fdata-sections -falign-functions=64 -c "$T/relink/sets.c" -o setsp.o
pi_ld -O2 -o setsp setsp.o
"$PMOPT" plan --order=sets --no-tier-first --cache=32768,8,64 --target=setsp -o setsf.fb setsf setsf.pit > setsf.plan
cat setsf.plan
line=$(grep 'set pressure (fetches beyond' setsf.plan)
fep=$(echo "$line" | sed -n 's/.*exttsp order \([0-9]*\), spread \([0-9]*\).*/\1/p')
fsp=$(echo "$line" | sed -n 's/.*exttsp order \([0-9]*\), spread \([0-9]*\).*/\2/p')
[ -n "$fep" ] && [ "$fep" -gt 0 ] || fail "counting=function: Ext-TSP's order has no set pressure ($line): the counting copies' lines are not modelled"
ok "counting=function: Ext-TSP's order has set pressure $fep"
assert_eq "counting=function: spread, no set over its ways" 0 "$fsp"
"$PMOPT" relink setsp --feedback setsf.fb -o setsp.sets --smoke 30 > setsf.rel || fail "relink setsp"
./setsp.sets 100 | cmp - train.out || fail "the relinked plain build prints something else"
m=$(permax setsp.sets)
[ "$m" -le 8 ] || fail "nm: the spread relink of the plain build starts $m big functions in one set"
ok "nm: the spread relink of the plain build starts at most $m big functions in one set"
"$PMOPT" plan --order=sets --no-tier-first --cache=32768,8,64 --sets-passes=0 --target=setsp.sets --advise setsf setsf.pit > t3
assert_contains "counting=function: the relinked plain build as linked: pressure 0" t3 "set pressure of the target as linked: 0 "

# --order=auto where Ext-TSP's hot lines overfill a set (sets.c in 32 KiB
# 8-way: the twelve big functions' first lines in one set) takes the
# cache-directed sort's order (--overfull=cdsort, the default), which
# starts them in one set too: the model's check refuses it and no order
# is written; --overfull=sets spreads Ext-TSP's order instead.  Where
# nothing overfills (16 ways) it keeps Ext-TSP's.
"$PMOPT" plan --order=auto --no-tier-first --cache=32768,8,64 -o autoc.fb setsf setsf.pit > autoc.plan
assert_contains "auto: overfilled sets: cdsort" autoc.plan \
    "^  --order=auto: Ext-TSP's order has [0-9]+ hot lines, [1-9][0-9]* of 64 sets over 8 ways: the cache-directed sort's order instead \(cdsort\)$"
assert_contains "auto: cdsort's order refused by the model's check" autoc.plan \
    "^  the planned order is predicted to miss more than PROG's own layout .*: not written, pmopt relink keeps that layout$"
assert_not_contains "auto: no order written" autoc.fb "order-functions"
"$PMOPT" plan --order=auto --overfull=sets --no-tier-first --cache=32768,8,64 -o auto.fb setsf setsf.pit > auto.plan
assert_contains "auto --overfull=sets: overfilled sets: spread" auto.plan \
    "^  --order=auto: Ext-TSP's order has [0-9]+ hot lines, [1-9][0-9]* of 64 sets over 8 ways: spread over the sets \(sets\)$"
assert_contains "auto --overfull=sets: the file says sets" auto.fb "^[0-9]+ order-functions alg=sets functions="
if "$PMOPT" plan --order=auto --overfull=exttsp -o bad.fb setsf setsf.pit > bad.plan 2>&1; then
    fail "--overfull=exttsp accepted"
fi
assert_contains "--overfull: only sets or cdsort" bad.plan "--overfull: 'exttsp' is not sets or cdsort"
"$PMOPT" plan --order=auto --no-tier-first --cache=32768,16,64 -o auto16.fb setsf setsf.pit > auto16.plan
assert_contains "auto: no set overfilled in 16 ways: Ext-TSP's order" auto16.plan \
    "^  --order=auto: Ext-TSP's order has [0-9]+ hot lines, 0 of 32 sets over 16 ways: kept \(exttsp\)$"
assert_contains "auto16: the file says exttsp" auto16.fb "^[0-9]+ order-functions alg=exttsp functions="
# --outside-ways=N: the models give the program N ways fewer (left to
# libc's code and the loader's): 16 ways with 10 left outside are 6 for
# the program, and its twelve first lines in one set overfill it again
"$PMOPT" plan --order=auto --overfull=sets --no-tier-first --cache=32768,16,64 --outside-ways=10 -o auto6.fb setsf setsf.pit > auto6.plan
assert_contains "auto, 10 of 16 ways outside: spread" auto6.plan \
    "^  --order=auto: Ext-TSP's order has [0-9]+ hot lines, [1-9][0-9]* of 32 sets over 6 ways: spread over the sets \(sets\)$"
assert_contains "auto, 10 of 16 ways outside: said" auto6.plan "^  --outside-ways=10: 6 ways of each set modelled for setsf's code"
assert_contains "auto6: the file says sets" auto6.fb "^[0-9]+ order-functions alg=sets functions="
if "$PMOPT" plan --order=auto --cache=32768,16,64 --outside-ways=16 -o bad.fb setsf setsf.pit > bad.plan 2>&1; then
    fail "--outside-ways=16 of 16 ways accepted"
fi
assert_contains "--outside-ways as many as the ways: refused" bad.plan "outside-ways=16 leaves no way of the 16-way cache"
[ ! -e bad.fb ] || fail "--outside-ways=16 wrote bad.fb"

# Cold parts (setscold.c): rebuilt with the profile, split=3 (the default)
# sends each wN's warm branch (one call in 256) to wN.cold.  The profile is
# the counted rebuild's, whose blocks are in the rebuilt layout; the plan
# models the cold parts that ran where the relink puts them (right after
# the ordered functions, in the plan's `cold=` order), so in a 16-set,
# one-way cache (every line competes) the pressure it predicts is again
# the relinked program's as linked, cold parts at their wN.cold symbols.
src=$T/relink/setscold.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -fplugin-arg-perfinst-sections -c "$src" -o wt.o
pi_ld -O2 -o wt wt.o
PERFINST_OUT=wt.pit ./wt > wt.out
"$PMOPT" plan --order=exttsp --rebuild -o w.fb wt wt.pit > w.plan
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -fplugin-arg-perfinst-feedback=w.fb \
    -fplugin-arg-perfinst-sections -c "$src" -o wc.o
pi_ld -O2 -o wc wc.o
PERFINST_OUT=wc.pit ./wc > wc.out
pi_cc -O2 -fplugin-arg-perfinst-feedback=w.fb -fplugin-arg-perfinst-sections -c "$src" -o wr.o
pi_ld -O2 -o wr wr.o
readelf -SW wr.o > wr.secs
for n in 0 1 2 3 4 5; do
    assert_contains "the rebuild splits w$n: a cold part (cold-parts=: .text.unlikely or .text.sorted)" wr.secs \
        "\.text\.(unlikely|sorted\.c[0-9]*)\.w$n "
done
SC="--cache=1024,1,64 --reserve-sets=0"
"$PMOPT" plan --order=sets $SC --target=wr -o ws.fb wc wc.pit > ws.plan
cat ws.plan
line=$(grep 'cold parts: ' ws.plan)
nc=$(echo "$line" | sed -n 's/.*cold parts: \([0-9]*\) that ran.*/\1/p')
[ -n "$nc" ] && [ "$nc" -ge 6 ] || fail "the plan should model at least the six warm cold parts: $line"
ok "the plan models $nc cold parts that ran"
cold=$(sed -n 's/^[0-9]* order-functions .* cold=\([^ ]*\).*/\1/p' ws.fb)
for n in 0 1 2 3 4 5; do
    case ",$cold," in *",w$n,"*) ;; *) fail "w$n's cold part not in the plan's cold list: $cold" ;; esac
done
ok "the feedback file lists the cold parts: $cold"
sp=$(sed -n 's/.*set pressure (fetches beyond.*spread \([0-9]*\).*/\1/p' ws.plan)
[ -n "$sp" ] && [ "$sp" -gt 0 ] || fail "no set pressure in a one-way cache ($sp): the fixture proves nothing"
"$PMOPT" relink wr --feedback ws.fb -o wr.s --smoke 1000 > ws.rel || fail "relink with cold parts"
cat ws.rel
assert_contains "relink checked the cold parts' order" ws.rel "^pmopt relink: $nc cold parts in the planned order after them"
./wr.s > wr.out
cmp wt.out wr.out || fail "the relinked rebuild prints something else"
# nm: the cold parts in the plan's order, after the last ordered function
nm -n wr.s | awk '$2 ~ /^[tT]$/ {print $3}' > wr.syms
hot_last=$(grep -n -E '^(w[0-5]|main)$' wr.syms | tail -1 | cut -d: -f1)
got=$(grep -n -E '^(w[0-5]|main)\.cold$' wr.syms | awk -F: -v h="$hot_last" '$1 > h {print $2}' |
      sed 's/\.cold$//' | paste -sd,)
assert_eq "nm: the cold parts after the ordered functions, in the plan's order" "$cold" "$got"
"$PMOPT" plan --order=sets $SC --sets-passes=0 --target=wr.s --advise wc wc.pit > wt1
assert_contains "with cold parts, the relink as linked: pressure $sp as planned" wt1 \
    "set pressure of the target as linked: $sp "

# The Ext-TSP score the plan prints is the one its search weighed: with
# --target, at the target's sizes and alignments (the profiled build's
# sizes gave another score, which could fall where the search's cannot).
# At an affinity where a call outweighs any fetch, the search never lowers
# its score, so the printed one does not fall.
"$PMOPT" plan --order=sets $SC --target=wr --sets-affinity=1e6 -o wa.fb wc wc.pit > wa.plan
line=$(grep '^  Ext-TSP score' wa.plan)
echo "$line"
case "$line" in
"  Ext-TSP score (sizes of the target) "*) ok "the score is said at the target's sizes" ;;
*) fail "the plan's score line: $line" ;;
esac
b=$(echo "$line" | sed -n 's/.* \([0-9]*\) -> \([0-9]*\)$/\1/p')
a=$(echo "$line" | sed -n 's/.* \([0-9]*\) -> \([0-9]*\)$/\2/p')
[ -n "$b" ] && [ -n "$a" ] && [ "$b" -gt 0 ] || fail "no score read: $line"
[ "$a" -ge "$b" ] || fail "at affinity 1e6 the printed score fell: $b -> $a"
ok "at affinity 1e6 the printed score does not fall: $b -> $a"
