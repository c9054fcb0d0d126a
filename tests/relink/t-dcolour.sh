# Data colouring, the data half of the chase-tail plan (docs/layout.md
# "Data colouring"), on dcolour.c: 80 hot arrays of 512 bytes (40 KiB),
# each followed by a cold 3584-byte one, summed in a cycle; h0..h39 in
# .bss, h40..h79 in .data (one budget of sets for both).
#  - the plain link puts the hot arrays at a 4 KiB stride: nm shows the 40
#    of each output section starting in one L1d set; the plan's data model
#    (L1d 32768,8,64) sees 80 hot lines in a set, D1 hit ratio 0, the condition
#    present, the data order alone still 0 (40 KiB > 32 KiB), coloured
#    0.700 (56 arrays in sets 0-55 of 8 pages, 24 in the reserved sets);
#  - reserve-data is recommendation 3 of the file and advice 3 of --advise;
#  - the relink (of the counted training build and of a clean -O2 build
#    linked by perfinst-ld) places every overflow array at page offsets
#    0xe00-0xfff and no L1d set of 0-55 holds more than 8 hot lines (nm);
#  - cachegrind's D1 misses fall (clean build: by 60 % at least; the
#    model says 70 %), the output is unchanged;
#  - -DFEW (10 hot arrays, 5 KiB): the condition is crowding, the data
#    order alone fits (model 0 -> 1.000), no colouring, D1 misses cut;
#  - --dcache is checked, the L1d comes from sysfs type Data, and
#    --reserve-sets=0 plans no colouring.
. "$PERFINST_TOP/tests/lib.sh"
command -v valgrind > /dev/null || skip "valgrind not installed"
CG="valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --cachegrind-out-file=/dev/null"
d1misses() { $CG "$@" 2>&1 >/dev/null | sed -n 's/.*D1  misses: *\([0-9,]*\).*/\1/p' | tr -d ,; }
# hot lines per L1d set of the arrays h0..h79 of program $1 (nm -S): "set count"
per_set() {
    nm -S "$1" | awk '$4 ~ /^h[0-9]+$/ { print $1, $2 }' | while read -r a s; do
        a=$((16#$a)); s=$((16#$s)); l=$((a >> 6))
        while [ $l -le $(((a + s - 1) >> 6)) ]; do echo $((l & 63)); l=$((l + 1)); done
    done | sort -n | uniq -c | awk '{ print $2, $1 }'
}

# counting=inline: this test studies the counting build's own layout, and a
# counting=function build's counting copies are f.count.N sections the relink
# leaves in ld's order (docs/layout.md)
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -fplugin-arg-perfinst-sections \
    -c "$T/relink/dcolour.c" -o dcolour.o
pi_ld -O2 -o dcolour dcolour.o
PERFINST_OUT=train.pit ./dcolour 20 > /dev/null
for t in B D; do
    starts=$(nm dcolour | awk -v t=$t '$2 == t && $3 ~ /^h[0-9]+$/ { print $1 }' | while read -r a; do echo $(((16#$a >> 6) & 63)); done | sort -u | wc -l)
    assert_eq "plain link: the 40 hot arrays of type $t start in one L1d set" 1 "$starts"
done

"$PMOPT" plan --order=c3 --cache=32768,8,64 --dcache=32768,8,64 -o d.fb dcolour train.pit > plan.out
cat plan.out
assert_contains "the data model: L1d geometry" plan.out "^data cache model: L1d 32 KiB, 8 ways, 64-byte lines, 64 sets; 80 data objects \(40960 bytes\)"
assert_contains "before: 80 hot lines in a set, all miss" plan.out "before \(PROG\) +[0-9]+ hot lines .* sets over 8 ways \(max 80\): D1 hit ratio 0\.000"
assert_contains "the chase-tail condition for data" plan.out "chase-tail condition for data present \(the hot data lines do not fit\)"
assert_contains "the data order alone: every set over, still 0" plan.out "after the data order +640 hot lines .* 64 of 64 sets over 8 ways \(max 10\): D1 hit ratio 0\.000"
assert_contains "coloured: 0.700" plan.out "with coloured data +640 hot lines .* 8 of 64 sets over 8 ways \(max 24\): D1 hit ratio 0\.700, 192 misses of 640 accesses"
assert_contains "the ratio before and after" plan.out "modelled D1 hit ratio of the hot data: 0\.000 before, 0\.700 after \(coloured\)"
assert_contains "reserve-data is recommendation 3" d.fb "^3 reserve-data page=0x1000 window=0xe00 size=0x200 overflow=h[0-9]+(,h[0-9]+){23}$"
"$PMOPT" plan --order=c3 --cache=32768,8,64 --dcache=32768,8,64 --advise dcolour train.pit > advise.out
assert_contains "advice 3 is the colouring" advise.out "^3\. reserve-data: chase-tail data: 56 stable data objects keep L1d sets 0-55, 24 overflow objects go to the reserved sets 56-63 \(model D1 hit ratio 0\.000 -> 0\.700\)"
ovf=$(sed -n 's/.* overflow=//p' d.fb | tr , ' ')

# the relink, of the training build and of a clean build linked by perfinst-ld
gcc -O2 -ffunction-sections -fdata-sections -c "$T/relink/dcolour.c" -o clean.o
pi_ld -O2 -o clean clean.o
for p in dcolour clean; do
    "$PMOPT" relink $p --feedback d.fb -o $p.r --smoke 30 > $p.rel
    cat $p.rel
    assert_contains "$p: the relink checked the colouring" $p.rel "^pmopt relink: data colouring: 24 of 24 overflow objects in the reserved window 0xe00-0x1000 of each 0x1000-byte page, 56 of 56 stable objects before it"
    inwin=$(for h in $ovf; do a=$(nm $p.r | awk -v h=$h '$3 == h { print $1 }'); o=$((16#$a & 0xfff)); [ $o -ge $((0xe00)) ] && echo in; done | wc -l)
    assert_eq "$p: nm: the overflow arrays at page offsets 0xe00-0xfff" 24 "$inwin"
    per_set $p.r > $p.sets
    over=$(awk '$1 < 56 && $2 > 8' $p.sets | wc -l)
    full=$(awk '$1 < 56 && $2 == 8' $p.sets | wc -l)
    res=$(awk '$1 >= 56 { n += $2 } END { print n }' $p.sets)
    assert_eq "$p: nm: no set of 0-55 holds more than 8 hot lines" 0 "$over"
    assert_eq "$p: nm: sets 0-55 hold 8 hot lines each" 56 "$full"
    assert_eq "$p: nm: the reserved sets hold the 24 overflow arrays' lines" 192 "$res"
    for in in 1 77; do
        ./$p $in > a.out; ./$p.r $in > b.out
        cmp a.out b.out || fail "$p: output differs on $in"
    done
    ok "$p: same output"
done
b=$(d1misses ./clean 200); a=$(d1misses ./clean.r 200)
echo "clean -O2: D1 misses $b -> $a"
[ "$a" -lt $((b * 40 / 100)) ] || fail "clean: D1 misses $b -> $a, not cut by 60%"
ok "clean: cachegrind D1 misses $b -> $a"
# the counted build: its per-thread counters and the stack take lines of the stable sets
b=$(d1misses ./dcolour 200); a=$(d1misses ./dcolour.r 200)
echo "all=count: D1 misses $b -> $a"
[ "$a" -lt $((b * 75 / 100)) ] || fail "all=count: D1 misses $b -> $a, not cut by 25%"
ok "all=count: cachegrind D1 misses $b -> $a"

# crowding alone (-DFEW: 10 hot arrays, 5 KiB, at a 4 KiB stride): the data
# order cures it, no colouring is planned, and the D1 misses of the cycle go
pi_cc -O2 -DFEW -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting=inline -fplugin-arg-perfinst-sections \
    -c "$T/relink/dcolour.c" -o few.o
pi_ld -O2 -o few few.o
PERFINST_OUT=few.pit ./few 20 > /dev/null
"$PMOPT" plan --order=c3 --cache=32768,8,64 --dcache=32768,8,64 -o few.fb few few.pit > few.plan
assert_contains "few: 80 hot lines, 10 in each of 8 sets" few.plan "before \(PROG\) +80 hot lines \(5 KiB of 32 KiB\), +8 of 64 sets over 8 ways \(max 10\): D1 hit ratio 0\.000"
assert_contains "few: the condition is crowding" few.plan "chase-tail condition for data present \(hot data lines crowd some sets\)"
assert_contains "few: the data order fits" few.plan "after the data order +80 hot lines .* 0 of 64 sets over 8 ways \(max 2\): D1 hit ratio 1\.000"
assert_contains "few: the ratio before and after" few.plan "modelled D1 hit ratio of the hot data: 0\.000 before, 1\.000 after \(data order\)"
assert_not_contains "few: no colouring" few.fb "reserve-data"
gcc -O2 -DFEW -ffunction-sections -fdata-sections -c "$T/relink/dcolour.c" -o fewc.o
pi_ld -O2 -o fewc fewc.o
"$PMOPT" relink fewc --feedback few.fb -o fewc.r --smoke 30 > /dev/null
per_set fewc.r > fewc.sets
assert_eq "few: nm: no set holds more than 8 hot lines" 0 "$(awk '$2 > 8' fewc.sets | wc -l)"
./fewc 77 > a.out; ./fewc.r 77 > b.out
cmp a.out b.out || fail "few: output differs"
b=$(d1misses ./fewc 200); a=$(d1misses ./fewc.r 200)
echo "few, clean -O2: D1 misses $b -> $a"
[ "$a" -lt $((b / 3)) ] || fail "few: D1 misses $b -> $a, not cut by 3x"
ok "few: cachegrind D1 misses $b -> $a"

# options and geometry
expect_fail "--dcache=1,2" "$PMOPT" plan --order=c3 --dcache=1,2 --advise dcolour train.pit
assert_contains "--dcache: the error says what is expected" err "--dcache=1,2: expected SIZE,WAYS,LINE"
"$PMOPT" plan --order=c3 --reserve-sets=0 --dcache=32768,8,64 -o none.fb dcolour train.pit > none.out
assert_not_contains "--reserve-sets=0: no colouring" none.fb "reserve-data"
mkdir -p sys/index0 sys/index1
printf '1\n' > sys/index0/level; printf 'Instruction\n' > sys/index0/type
printf '64K\n' > sys/index0/size; printf '4\n' > sys/index0/ways_of_associativity
printf '64\n' > sys/index0/coherency_line_size
printf '1\n' > sys/index1/level; printf 'Data\n' > sys/index1/type
printf '16K\n' > sys/index1/size; printf '4\n' > sys/index1/ways_of_associativity
printf '64\n' > sys/index1/coherency_line_size
PERFINST_SYSFS_CACHE=$PWD/sys "$PMOPT" plan --order=c3 --advise dcolour train.pit > sys.out
assert_contains "sysfs: L1i from type Instruction" sys.out "^cache model: L1i 64 KiB, 4 ways, 64-byte lines, 256 sets"
assert_contains "sysfs: L1d from type Data" sys.out "^data cache model: L1d 16 KiB, 4 ways, 64-byte lines, 64 sets"

# a malformed reserve-data is refused naming the file, line and recommendation
sed 's/^3 reserve-data page=0x1000 window=0xe00/3 reserve-data page=0x1000 window=0x1000/' d.fb > bad.fb
python3 -c ' # re-seal the edited file (docs/formats.md: comments and blank lines are not checksummed)
import sys, zlib
b = open("bad.fb", "rb").read()
body = b[:b.rindex(b"end ")]
n = sum(1 for l in body.split(b"\n") if l[:1].isdigit())
summed = b"".join(l + b"\n" for l in body.split(b"\n") if l.strip() and not l.lstrip().startswith(b"#"))
open("bad.fb", "wb").write(body + b"end %d 0x%08x\n" % (n, zlib.crc32(summed)))'
expect_fail "reserve-data with its window outside the page" "$PMOPT" relink clean --feedback bad.fb -o bad.r
cat err
assert_contains "the refusal names the file, line and recommendation" err "bad\.fb:[0-9]+: recommendation 3 \(reserve-data\): page, window and size must describe a window inside a power-of-two page"
[ ! -e bad.r ] || fail "bad.r was written"
ok "nothing written"
