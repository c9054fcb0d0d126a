# bench/suite.sh's layouts (no build, no valgrind: --show-layouts),
# bench/suite-layouts.py on canned counts, and the redraws' links
# (bench/suite-link.sh) on a small program.  The lattice of 16: the k-th
# layout moves the program 256k bytes and its hot code 256*(5k mod 16)
# further, so every program offset and every internal offset (mod 4096,
# the I1's sets) occurs once; --layouts 4 and 8 are its every fourth and
# every second layout.  The default is the lattice of 8 at eight redraws
# of the cold code: each layout counted with 0, 704, 1408, ... (704k mod
# 4096) bytes of padding among the cold code (P+N@M); --redraws 0 the
# layouts alone, --quick every fifth layout of the 16, each at another
# redraw.
. "$PERFINST_TOP/tests/lib.sh"
S="$PERFINST_TOP/bench/suite.sh --work w --show-layouts"
L16="0 256+1280 512+2560 768+3840 1024+1024 1280+2304 1536+3584 1792+768 2048+2048 2304+3328 2560+512 2816+1792 3072+3072 3328+256 3584+1536 3840+2816"
$S --programs lua --layouts 16 --redraws 0 > out
assert_eq "--redraws 0: the lattice of 16" "lua: $L16" "$(cat out)"
# every P and every N once, each a multiple of 256 below 4096
for k in 1 2; do
    assert_eq "distinct part $k" "16" "$(sed 's/^lua: //' out | tr ' ' '\n' | sed 's/^0$/0+0/' |
        cut -d+ -f$k | awk '$1 % 256 == 0 && $1 < 4096' | sort -u | wc -l)"
done
$S --programs lua > out
assert_eq "the default: the lattice of 8 at eight redraws" \
    "lua: $(for l in $(echo "$L16" | tr ' ' '\n' | awk 'NR % 2 == 1'); do
        echo "$l $l@704 $l@1408 $l@2112 $l@2816 $l@3520 $l@128 $l@832"; done | paste -sd' ')" "$(cat out)"
assert_eq "64 counts" 64 "$(sed 's/^lua: //' out | wc -w)"
$S --programs "lua zstd" --quick > out
assert_eq "--quick: every fifth, each at another redraw" "lua: 0 1280+2304@1408 2560+512@2816 3840+2816@128
zstd: 0 1280+2304@1408 2560+512@2816 3840+2816@128" "$(cat out)"
$S --programs lua --quick --redraws 0 > out
assert_eq "--quick --redraws 0: every fifth" "lua: 0 1280+2304 2560+512 3840+2816" "$(cat out)"
$S --programs lua --layouts 4 --redraws "0 1728" > out
assert_eq "--layouts 4 --redraws '0 1728'" \
    "lua: 0 0@1728 1024+1024 1024+1024@1728 2048+2048 2048+2048@1728 3072+3072 3072+3072@1728" "$(cat out)"
$S --programs lua --layouts 4 --redraws 0 > out
assert_eq "--layouts 4: every fourth" "lua: 0 1024+1024 2048+2048 3072+3072" "$(cat out)"
$S --programs sqlite --layouts 8 --redraws 0 > out
assert_eq "--layouts 8: every second" \
    "sqlite: $(echo "$L16" | tr ' ' '\n' | awk 'NR % 2 == 1' | paste -sd' ')" "$(cat out)"
$S --programs sqlite --layouts 1 --redraws 0 > out
assert_eq "--layouts 1: the program as linked" "sqlite: 0" "$(cat out)"
# --pads overrides the lattice, --pads PROGRAM=LIST for one program; the
# baseline's shifts are printed where they differ
$S --programs "sqlite lua" --pads "0 1024" --pads lua="0 0+2048" --baseline-pads 0 --redraws 0 > out
assert_eq "--pads and --baseline-pads" "sqlite: 0 1024
sqlite O2 pgo: 0
lua: 0 0+2048
lua O2 pgo: 0" "$(cat out)"
# the redraws apply to --pads too, but not to a list that names its own
$S --programs "sqlite lua" --pads "0 1024" --pads lua="0 0+2048@64" --redraws "0 128" > out
assert_eq "--pads at the redraws" "sqlite: 0 0@128 1024 1024@128
lua: 0 0+2048@64" "$(cat out)"
expect_fail "a redraw not of whole lines" $S --redraws "0 100"
assert_contains "why" err 'redraws: 100 is not a multiple of 64'
expect_fail "an unknown test workload" $S --programs lua --tests lua="sort nope"
assert_contains "why" err "nope is not one of lua's test workloads"
assert_contains "which" err "\\(calls strings sort objects coro\\) nor its training workload \\(tables\\)"
$S --programs lua --tests lua="calls tables" > out
assert_eq "the training workload counted as a pair" "lua: 0" "$(head -c 6 out)"
expect_fail "--layouts 3" $S --layouts 3
assert_contains "why" err 'layouts 3: expected a power of two from 1 to 64'
expect_fail "--layouts 128" $S --layouts 128
expect_fail "a malformed shift" $S --pads "0 12+"
assert_contains "why" err '12\+ is not a shift P, P\+N or P\+N@M'

# suite-layouts.py: rebuild and bolt of one pair at four layouts
# (the nested lattices start at 4: one column)
mkdir -p w2/p/i1
c() { echo "1000 $4" > "w2/p/i1/$1-$2-$3.txt"; }
c rebuild a 0 100; c rebuild a 1024+1024 300; c rebuild a 2048+2048 100; c rebuild a 3072+3072 500
c bolt    a 0 200; c bolt    a 1024+1024 100; c bolt    a 2048+2048 200; c bolt    a 3072+3072 100
python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 --draws 50 "p:a=0,1024+1024,2048+2048,3072+3072" > lay.md
# 4 layouts: (100+300+100+500)/4 = 250 against 150 = 1.667
assert_contains "the pair over all four" lay.md '^| p/a | 1\.667 |$'
assert_contains "the geometric mean" lay.md '^| geometric mean | 1\.667 |$'
assert_contains "no pair at or under" lay.md '^| pairs ≤ 1 | 0 of 1 |$'
# cachegrind's counts (cg/) with --counts cg: the same table
mkdir -p w3/p/cg && cp w2/p/i1/* w3/p/cg/
python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w3 --counts cg --draws 50 "p:a=0,1024+1024,2048+2048,3072+3072" > lay-cg.md
diff lay.md lay-cg.md || fail "--counts cg reads cg/ as i1/ is read"
expect_fail "i1/ missing" python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w3 --draws 50 "p:a=0,1024+1024,2048+2048,3072+3072"
assert_contains "it names the count" err 'w3/p/i1/rebuild-a-0\.txt: missing'
expect_fail "three shifts" python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 "p:a=0,1024+1024,2048+2048"
assert_contains "why" err 'not a power of two'
expect_fail "a missing count" python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 "p:a=0,1024"
assert_contains "why" err 'rebuild-a-1024\.txt: missing'

# suite-layouts.py at a lattice of 4 layouts × 2 redraws: the nested
# designs (4 layouts × 1 redraw, 4 × 2) and the two halves
for l in 0 1024+1024 2048+2048 3072+3072; do
    cp "w2/p/i1/rebuild-a-$l.txt" "w2/p/i1/rebuild-b-$l.txt"; cp "w2/p/i1/bolt-a-$l.txt" "w2/p/i1/bolt-b-$l.txt"
done
c rebuild b 0@64 100; c rebuild b 1024+1024@64 100; c rebuild b 2048+2048@64 100; c rebuild b 3072+3072@64 900
c bolt    b 0@64 200; c bolt    b 1024+1024@64 200; c bolt    b 2048+2048@64 200; c bolt    b 3072+3072@64 200
python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 --draws 50 \
    "p:b=0,0@64,1024+1024,1024+1024@64,2048+2048,2048+2048@64,3072+3072,3072+3072@64" > lay2.md
# redraw 0: 250 against 150; both: (1000 + 1200) / 8 = 275 against (600 + 800) / 8 = 175;
# redraw 64 alone: 300 against 200
assert_contains "4 × 1 and 4 × 2" lay2.md '^\| p/b \| 1\.667 \| 1\.571 \|$'
assert_contains "the halves: the even redraws (0), the odd (64)" lay2.md '^\| p/b \| 1\.571 \| 1\.667 \| 1\.500 \|$'
expect_fail "a layout at one redraw only" python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 \
    "p:b=0,0@64,1024+1024,2048+2048"
assert_contains "why" err 'not each of the 3 layouts at each of the 2 redraws once|not a power of two'
# the noise by its source: on q/x the ratio is 1 or 2 by the layout alone
# (1, 2, 1, 2 at each redraw), on q/y by the redraw alone (1 at 0, 2 at
# @64).  sdL of x: the layouts' mean square 2·4·(ln 2 / 2)²/3 over the 2
# redraws, sqrt(ln² 2 / 3) = 0.400; sdR of y: 4·2·(ln 2 / 2)² over the 4
# layouts, sqrt(ln² 2 / 2) = 0.490; nothing else.  Of 8 counts, L × R
# predicts (ln² 2 / 3 / L + ln² 2 / 2 / R) / 2²: least at 2 × 4
Q="0,0@64,1024+1024,1024+1024@64,2048+2048,2048+2048@64,3072+3072,3072+3072@64"
mkdir -p w4/q/i1
for sh in $(echo "$Q" | tr , ' '); do
    echo "1000 100" > "w4/q/i1/bolt-x-$sh.txt"; echo "1000 100" > "w4/q/i1/bolt-y-$sh.txt"
    case $sh in 1024*|3072*) echo "1000 200" ;; *) echo "1000 100" ;; esac > "w4/q/i1/rebuild-x-$sh.txt"
    case $sh in *@64) echo "1000 200" ;; *) echo "1000 100" ;; esac > "w4/q/i1/rebuild-y-$sh.txt"
done
python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w4 --draws 10 "q:x,y=$Q" > lay4.md
assert_contains "x: the layouts' noise alone" lay4.md '^\| q/x \| 4 × 2 \| 0\.400 \| 0\.000 \| 0\.000 \|$'
assert_contains "y: the redraws' noise alone" lay4.md '^\| q/y \| 4 × 2 \| 0\.000 \| 0\.490 \| 0\.000 \|$'
assert_contains "the split it is least at" lay4.md \
    '8 × 1 0\.2551, 4 × 2 0\.2001, 2 × 4 0\.1872, 1 × 8 0\.2180; least at 2 × 4$'

# the redraws' links (bench/suite-link.sh, as bench/suite.sh sources it): a
# program of three objects, the padding after the second; a program of one
# object with a section per function, the padding among its cold sections
W=$PWD
declare -A REDRAW_AT=([three]=b [one]=s) REDRAW_SPLIT=([one]=s)
objs() { case $1 in three) echo "$2/obj/a.o $2/obj/b.o $2/obj/c.o" ;; one) echo "$2/obj/s.o" ;; esac; }
. "$PERFINST_TOP/bench/suite-link.sh"
# at_share: the line at the share, and with N the N-1 after it as far as
# there are (bench/suite.sh tries BOLT's next hot functions so)
assert_eq "at_share 0.5 of 4" "b" "$(printf 'a\nb\nc\nd\n' | at_share 0.5)"
assert_eq "at_share 0.5 3 of 4" "b c d" "$(printf 'a\nb\nc\nd\n' | at_share 0.5 3 | paste -sd' ')"
assert_eq "at_share 0.9 8 of 4" "c d" "$(printf 'a\nb\nc\nd\n' | at_share 0.9 8 | paste -sd' ')"
assert_eq "at_share 0.1 of 4: the first" "a" "$(printf 'a\nb\nc\nd\n' | at_share 0.1)"
mkdir -p d/obj
# leaves (no call, no data: their bytes do not depend on where they lie)
# in the cold tier of each object, and a hot main that calls them
for o in a b c; do
    for k in 1 2; do echo "__attribute__((cold, noinline)) int $o$k(int x) { return x * $k + $k; }"; done > "$o.c"
done
cat >> c.c << 'EOF'
int a1(int), a2(int), b1(int), b2(int);
int main(int argc, char **argv) {
    int s = 0;
    (void)argv;
    for (int i = 0; i < 100; i++) s += i * argc;
    if (argc > 9) s += a1(s) + a2(s) + b1(s) + b2(s) + c1(s) + c2(s);
    return s & 1;
}
EOF
for o in a b c; do gcc -O2 -c "$o.c" -o "d/obj/$o.o"; done
assert_eq "no padding at redraw 0" "$W/d/obj/a.o $W/d/obj/b.o $W/d/obj/c.o" "$(objs_at three "$W/d" 0 | paste -sd' ')"
assert_eq "the padding after b.o" "$W/d/obj/a.o $W/d/obj/b.o $W/zz_mid-704.o $W/d/obj/c.o" \
    "$(objs_at three "$W/d" 704 | paste -sd' ')"
assert_eq "no script for a program of several objects" "" "$(redraw_script three "$W/d" 704)"
gcc -O2 -o p0 $(objs_at three "$W/d" 0)
gcc -O2 -o p1 $(objs_at three "$W/d" 704)
# addr P F: F's address in P (decimal); size P F: its size
addr() { echo $((16#$(nm "$1" | awk -v f="$2" '$3 == f { print $1 }'))); }
size() { nm -S "$1" | awk -v f="$2" '$4 == f { print $2 }'; }
# bytes P F: F's bytes as objdump shows them, without addresses
bytes() { objdump -d --disassemble="$2" "$1" | sed -n 's/^ *[0-9a-f]*:\t\([0-9a-f ]*\)\t.*/\1/p' | tr -d ' \n'; }
# insns P F: F's instructions, the addresses and targets in them left out
insns() { objdump -d --no-show-raw-insn --disassemble="$2" "$1" | sed -n 's/^ *[0-9a-f]*:\t//p' | sed 's/[0-9a-f]* </</; s/0x[0-9a-f]*/0x/g'; }
for f in a1 a2 b1 b2; do
    assert_eq "$f (before the padding) stays" "$(addr p0 $f)" "$(addr p1 $f)"
done
for f in c1 c2 main; do
    assert_eq "$f (after it) moves 704 bytes" "$(($(addr p0 $f) + 704))" "$(addr p1 $f)"
done
for f in a1 a2 b1 b2 c1 c2; do
    [ -n "$(bytes p0 $f)" ] || fail "no bytes for $f"
    assert_eq "$f's bytes" "$(bytes p0 $f)" "$(bytes p1 $f)"
done
assert_eq "main's size" "$(size p0 main)" "$(size p1 main)"
assert_eq "main's instructions" "$(insns p0 main)" "$(insns p1 main)"
assert_eq "the same run" "$(./p0 1 2 3 4 5 6 7 8 9 || echo $?)" "$(./p1 1 2 3 4 5 6 7 8 9 || echo $?)"

# one object, a section per function (a1 a2 b1 b2 c1 c2, main's cold part):
# the padding after the first half of its .text.unlikely* input sections
cat a.c b.c c.c > s.c
gcc -O2 -ffunction-sections -c s.c -o d/obj/s.o
readelf -SW d/obj/s.o | sed -n 's/^ *\[ *[0-9]*\] \(\.text\.unlikely[^ ]*\) .*/\1/p' > secs
n=$(wc -l < secs)
[ "$n" -ge 6 ] || fail "s.o has $n cold sections"
assert_eq "no script at redraw 0" "" "$(redraw_script one "$W/d" 0)"
assert_eq "the script" "-Wl,-T,$W/d/redraw.ld" "$(redraw_script one "$W/d" 704)"
gcc -O2 -o q0 $(objs_at one "$W/d" 0)
gcc -O2 -o q1 $(objs_at one "$W/d" 704) $(redraw_script one "$W/d" 704)
k=0 moved=0
while read -r sec; do
    k=$((k + 1))
    f=${sec#.text.unlikely.}
    [ "$f" != main ] || continue
    if [ $k -le $((n / 2)) ]; then d=0; else d=704 moved=$((moved + 1)); fi
    assert_eq "$f (cold section $k of $n) moves $d bytes" "$(($(addr q0 "$f") + d))" "$(addr q1 "$f")"
    assert_eq "$f's bytes" "$(bytes q0 "$f")" "$(bytes q1 "$f")"
done < secs
[ $moved -ge 2 ] || fail "only $moved functions after the padding"
assert_eq "main moves 704 bytes" "$(($(addr q0 main) + 704))" "$(addr q1 main)"
assert_eq "main's instructions" "$(insns q0 main)" "$(insns q1 main)"
assert_eq "one .text" 1 "$(readelf -SW q1 | grep -c ' \.text ')"
assert_eq "the same run" "$(./q0 1 2 3 4 5 6 7 8 9 || echo $?)" "$(./q1 1 2 3 4 5 6 7 8 9 || echo $?)"
# an object with one cold section (as -O2 compiles sqlite3.c): no script,
# the padding after the object
gcc -O2 -c s.c -o d/obj/s.o
touch -d '+1 min' d/obj/s.o
assert_eq "one cold section: no script" "" "$(redraw_script one "$W/d" 704)"

# --hot-share: a redraw inside the ordered hot code (bench/suite-link.sh
# hot_obj): a rebuild's four ordered functions in .text.sorted.RANK.NAME
# sections over two objects; at share 0.5 the padding goes after rank 2,
# so h3 and h4 move and h1 and h2 stay; nothing at redraw 0, without a
# share, or with one rank
mkdir -p h/obj
for k in 1 2 3 4; do
    echo "__attribute__((noinline, section(\".text.sorted.000000000$k.h$k\"))) int h$k(int x) { return x * $k + $k; }"
done > hot.c
sed -n '1p;3p' hot.c > h/hot1.c; sed -n '2p;4p' hot.c > h/hot2.c
echo 'int h1(int), h2(int), h3(int), h4(int); int main(int argc, char **argv) { (void)argv; return h1(argc) + h2(argc) + h3(argc) + h4(argc) == 20 ? 0 : 1; }' > h/main.c
for f in hot1 hot2 main; do gcc -O2 -c "h/$f.c" -o "h/obj/$f.o"; done
assert_eq "no hot padding at redraw 0" "" "$(hot_obj "$W/h" 0 0.5)"
assert_eq "no hot padding without a share" "" "$(hot_obj "$W/h" 704 "")"
assert_eq "the hot padding's object" "$W/h/hotpad-0.5-704.o" "$(hot_obj "$W/h" 704 0.5)"
assert_eq "its section sorts after rank 2, 704 bytes" ".text.sorted.0000000002~hotpad $(printf %06x 704)" \
    "$(readelf -SW h/hotpad-0.5-704.o | sed -n 's/.* \(\.text\.sorted[^ ]*\) *PROGBITS *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1 \2/p')"
gcc -O2 -o hp0 h/obj/*.o
gcc -O2 -o hp1 h/obj/*.o "$(hot_obj "$W/h" 704 0.5)"
for f in h1 h2; do assert_eq "$f (before the share) stays" "$(addr hp0 $f)" "$(addr hp1 $f)"; done
for f in h3 h4; do assert_eq "$f (after it) moves 704 bytes" "$(($(addr hp0 $f) + 704))" "$(addr hp1 $f)"; done
assert_eq "h3's bytes" "$(bytes hp0 h3)" "$(bytes hp1 h3)"
./hp1 || fail "the program with the hot padding fails"
gcc -O2 -o hq1 h/obj/*.o "$(hot_obj "$W/h" 1728 0.25)"
assert_eq "share 0.25: after rank 1, h2 moves" "$(($(addr hp0 h2) + 1728))" "$(addr hq1 h2)"
assert_eq "share 0.25: h1 stays" "$(addr hp0 h1)" "$(addr hq1 h1)"
# --redraw-hot (bench/suite-link.sh hot_ipad_obj): the padding after the
# cold inputs at P+N@M is N - M mod 4096 bytes (stays, the default), so a
# cold object's padding @M before the ordered code leaves the ordered code
# where P+N has it; N with moves, and nothing for N = 0 at redraw 0
echo '__attribute__((noinline, cold)) int c1(int x) { return x - 3; }' > h/cold.c
gcc -O2 -ffunction-sections -c h/cold.c -o h/cold.o
size_of() { echo $((16#$(readelf -SW "$1" | sed -n 's/.* \.text\.unlikely\.[^ ]* *PROGBITS *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p'))); }
assert_eq "stays: N - M" 320 "$(size_of "$(hot_ipad_obj 1024 704)")"
assert_eq "stays: modulo 4096" 3392 "$(size_of "$(hot_ipad_obj 0 704)")"
assert_eq "stays at redraw 0: N" 1024 "$(size_of "$(hot_ipad_obj 1024 0)")"
assert_eq "nothing for 0+0@0" "" "$(hot_ipad_obj 0 0)"
assert_eq "moves: N" 1024 "$(REDRAW_HOT=moves; size_of "$(hot_ipad_obj 1024 704)")"
gcc -O2 -o hs0 h/cold.o h/obj/*.o "$(ipad_obj 1024)"
gcc -O2 -o hs1 h/cold.o "$(mid_obj 704)" h/obj/*.o "$(hot_ipad_obj 1024 704)"
gcc -O2 -o hs2 h/cold.o "$(mid_obj 704)" h/obj/*.o "$(REDRAW_HOT=moves; hot_ipad_obj 1024 704)"
assert_eq "c1, before the redraw's padding, stays" "$(addr hs0 c1)" "$(addr hs1 c1)"
for f in h1 h4; do
    assert_eq "stays: $f where P+N has it" "$(addr hs0 $f)" "$(addr hs1 $f)"
    assert_eq "moves: $f 704 bytes on" "$(($(addr hs0 $f) + 704))" "$(addr hs2 $f)"
done
./hs1 || fail "the program with the redraw fails"
rm h/obj/hot1.o h/obj/hot2.o
sed -n 1p hot.c > h/one.c && gcc -O2 -c h/one.c -o h/obj/one.o
assert_eq "one rank: no hot padding" "" "$(hot_obj "$W/h" 704 0.5)"
# the option: shares between 0 and 1, kept by the work directory
expect_fail "--hot-share 1" $S --programs lua --hot-share 1
assert_contains "says what it expects" err "expected a share between 0 and 1 .*, spread or none"
expect_fail "two shares for three redraws" $S --programs lua --hot-share "0.1 0.2"
assert_contains "says so" err '2 shares for the 7 redraws other than 0 of --redraws "0 704 1408 2112 2816 3520 128 832"'
expect_fail "a list without a share for a redraw of --pads" $S --programs lua --pads lua="0 0@64" --hot-share "0.1 0.2 0.3" --redraws "0 704 1728 2880"
assert_contains "says so" err 'no share for the redraw @64 of 0@64'
$S --programs lua --pads lua="0 0@64" --hot-share 0.3 > /dev/null || fail "one share serves any redraw"
mkdir -p wh
echo none > wh/hot-share
expect_fail "a work directory counted without --hot-share" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua --hot-share 0.5
assert_contains "says so" err "wh was counted with --hot-share none .*this run asks 0\.5: use another --work"
# the default, spread: the k-th of the K redraws other than 0 at k/(K+1),
# recorded per redraw; a list the same way
expect_fail "the default (spread) in that directory" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua
assert_contains "says so" err "wh was counted with --hot-share none .*this run asks 704=0\.125 1408=0\.25 2112=0\.375 2816=0\.5 3520=0\.625 128=0\.75 832=0\.875: use another"
expect_fail "spread over two redraws" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua --redraws "0 64 128"
assert_contains "says so" err "this run asks 64=0\.333333 128=0\.666667: use another"
expect_fail "spread over one redraw" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua --redraws "0 64"
assert_contains "one share" err "this run asks 0\.5: use another"
expect_fail "a list" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua --hot-share 0.1,0.2,0.3 --redraws "0 704 1728 2880"
assert_contains "says so" err "this run asks 704=0\.1 1728=0\.2 2880=0\.3: use another"
echo 0.25 > wh/hot-share
expect_fail "a work directory counted with --hot-share 0.25" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua --hot-share none
assert_contains "says so" err "wh was counted with --hot-share 0\.25 .*this run asks none"
expect_fail "the default in that directory" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua
assert_contains "says how to go on" err "use another --work, or --hot-share 0\.25 to go on with its counts"
echo "64=0.1 128=0.9" > wh/hot-share
expect_fail "a directory counted with a share per redraw" "$PERFINST_TOP/bench/suite.sh" --work wh --programs lua
assert_contains "says how to go on" err 'use another --work, or --hot-share "0\.1 0\.9" --redraws "0 64 128" to go on with its counts'
# a directory counted before a share was the default (counts, no record of
# the share) was counted without it
mkdir -p wold/lua/i1
expect_fail "a directory counted before the default" "$PERFINST_TOP/bench/suite.sh" --work wold --programs lua
assert_contains "says so" err "wold was counted with --hot-share none .*this run asks 704=0\.125 1408=0\.25 2112=0\.375 2816=0\.5 3520=0\.625 128=0\.75 832=0\.875: use another --work, or --hot-share none to go on with its counts"
assert_eq "and records it" none "$(cat wold/hot-share)"
# --redraw-hot: a directory counted before the option moved the hot code
# with the redraws; a run asking the other value is refused
expect_fail "--redraw-hot of neither" "$PERFINST_TOP/bench/suite.sh" --programs lua --redraw-hot both
mkdir -p wrh/lua/i1
echo none > wrh/hot-share
expect_fail "a directory counted before --redraw-hot" "$PERFINST_TOP/bench/suite.sh" --work wrh --programs lua --hot-share none
assert_contains "says how to go on" err "wrh was counted with --redraw-hot moves; this run asks stays: use another --work, or --redraw-hot moves to go on with its counts"
assert_eq "and records it" moves "$(cat wrh/redraw-hot)"
