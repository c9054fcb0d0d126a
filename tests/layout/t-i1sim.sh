# bench/i1sim counts cachegrind's I1 misses of several layouts of a program
# in one run (docs/layout.md "Benchmarks": counting many layouts in one
# run): nine one-line functions (i1sim-f.c) called in turn 1000 times
# (i1sim-main.c), linked with padding objects between them so that they lie
# 4096 bytes apart (one set: every call misses) or 4160 (nine sets), the
# programs of the same size.  bench/layout-map.py derives the layouts from
# the two programs; i1sim's count of each must be cachegrind's on that
# layout's own program, to the miss and the instruction.  A layout that
# moves code by a part of a line, or lacks a function, is refused, and so
# is a layouts file that is not one.
# timeout: 600
. "$PERFINST_TOP/tests/lib.sh"
command -v valgrind > /dev/null || skip "no valgrind"
[ -e /usr/lib/x86_64-linux-gnu/valgrind/libcoregrind-amd64-linux.a ] || skip "no libcoregrind (valgrind package)"
export I1SIM_LIB=$PWD/vglib
VG=$PERFINST_TOP/bench/i1sim/valgrind.sh
MAP="python3 $PERFINST_TOP/bench/layout-map.py"
# main in .text (not .text.startup), so that a padding object before it moves it
gcc -O2 -fno-reorder-functions -c -o main.o "$T/layout/i1sim-main.c"
for k in 0 1 2 3 4 5 6 7 8; do gcc -O2 -DFNAME=f$k -c -o f$k.o "$T/layout/i1sim-f.c"; done
pad() { printf '\t.text\n\t.skip %d, 0xcc\n' "$1" | as -o "pad$1.o" -; echo "pad$1.o"; }
# link NAME GAP LAST [FIRST]: f0 .. f8, GAP bytes of padding between two, LAST after f8
link() {
    local objs=() k
    [ -z "${4:-}" ] || objs+=("$(pad "$4")")
    objs+=(main.o f0.o)
    for k in 1 2 3 4 5 6 7 8; do objs+=("$(pad "$2")" f$k.o); done
    [ "$3" = 0 ] || objs+=("$(pad "$3")")
    gcc -O2 -o "$1" "${objs[@]}"
}
link one 4032 512        # f0 .. f8 at multiples of 4096 from f0: one set
link nine 4096 0         # at multiples of 4160: nine sets
link shifted 4096 0 64   # nine sets, and everything one line further
addr() { echo $((16#$(nm "$1" | awk -v f="$2" '$3 == f { print $1 }'))); }
assert_eq "one: f8 32768 bytes after f0" 32768 $(( $(addr one f8) - $(addr one f0) ))
assert_eq "nine: f8 33280 bytes after f0" 33280 $(( $(addr nine f8) - $(addr nine f0) ))
assert_eq "the programs' code is as long" "$(size -A one | awk '$1 == ".text" { print $2 }')" \
    "$(size -A nine | awk '$1 == ".text" { print $2 }')"
$MAP one one=one nine=nine shifted=shifted > lay.txt || { cat lay.txt >&2; fail "layout-map.py"; }
cat lay.txt
assert_contains "the layouts file" lay.txt '^i1sim-layouts 1$'
assert_contains "three layouts" lay.txt '^layouts 3$'
assert_contains "f1 moves a line in nine, two in shifted" lay.txt "^region $(printf %x "$(addr one f1)") [0-9a-f]+ 0 64 128\$"
assert_contains "f8 moves eight lines in nine" lay.txt "^region $(printf %x "$(addr one f8)") [0-9a-f]+ 0 512 576\$"
mkdir run
cp one run/prog
(cd run && "$VG" --tool=i1sim --layouts=../lay.txt --out=../sim.txt ./prog > out 2> ../sim.err) ||
    { cat sim.err >&2; fail "i1sim"; }
assert_contains "the program ran" run/out '^x='
cat sim.txt
for l in one nine shifted; do
    cp "$l" run/prog
    (cd run && "$VG" --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
        --cachegrind-out-file=/dev/null ./prog > out 2> "../cg-$l.err") || fail "cachegrind on $l"
    ir=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "cg-$l.err" | tr -d ,)
    m=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' "cg-$l.err" | tr -d ,)
    assert_contains "$l: i1sim's count is cachegrind's ($m)" sim.txt "^layout [0-9] $m $l\$"
    assert_eq "$l runs the unshifted program's instructions" "$(sed -n 's/^irefs //p' sim.txt)" "$ir"
done
m1=$(awk '$4 == "one" { print $3 }' sim.txt)
m9=$(awk '$4 == "nine" { print $3 }' sim.txt)
[ "$m1" -ge $((m9 + 8991)) ] || fail "one set misses at every call ($m1 against nine sets' $m9)"
ok "one set: $m1 misses, nine sets: $m9"
# refused: code moved by part of a line, a function missing, not a layouts file
link part 4096 0 16
expect_fail "a layout that moves code 16 bytes" $MAP one part=part
assert_contains "it names the program and the move" err "part: code at 0x[0-9a-f]+ of one moves 16 bytes"
gcc -O2 -o lack main.o f0.o f1.o f2.o f3.o f4.o f5.o f6.o f7.o -Wl,--defsym=f8=f7
expect_fail "a layout that lacks a function" $MAP one lack=lack
assert_contains "it names the function" err "lack: no function f8 "
echo garbage > bad.txt
expect_fail "a file that is not a layouts file" "$VG" --tool=i1sim --layouts=bad.txt --out=x.txt ./one
assert_contains "it says so" err "not an i1sim layouts file"
printf 'i1sim-layouts 1\nlayouts 2\nregion 1000 2000 0 64 128\n' > extra.txt
expect_fail "a region with more deltas than layouts" "$VG" --tool=i1sim --layouts=extra.txt --out=x.txt ./one
assert_contains "it says so" err "more deltas than layouts"
