# bench/suite.sh's layouts (no build, no valgrind: --show-layouts) and
# bench/suite-layouts.py on canned counts.  The default is the lattice of
# 16: the k-th layout moves the program 256k bytes and its hot code
# 256*(5k mod 16) further, so every program offset and every internal
# offset (mod 4096, the I1's sets) occurs once; --layouts 4 and 8 are its
# every fourth and every second layout, --quick every fifth.
. "$PERFINST_TOP/tests/lib.sh"
S="$PERFINST_TOP/bench/suite.sh --work w --show-layouts"
L16="0 256+1280 512+2560 768+3840 1024+1024 1280+2304 1536+3584 1792+768 2048+2048 2304+3328 2560+512 2816+1792 3072+3072 3328+256 3584+1536 3840+2816"
$S --programs lua > out
assert_eq "the default: the lattice of 16" "lua: $L16" "$(cat out)"
# every P and every N once, each a multiple of 256 below 4096
for k in 1 2; do
    assert_eq "distinct part $k" "16" "$(sed 's/^lua: //' out | tr ' ' '\n' | sed 's/^0$/0+0/' |
        cut -d+ -f$k | awk '$1 % 256 == 0 && $1 < 4096' | sort -u | wc -l)"
done
$S --programs "lua zstd" --quick > out
assert_eq "--quick: every fifth" "lua: 0 1280+2304 2560+512 3840+2816
zstd: 0 1280+2304 2560+512 3840+2816" "$(cat out)"
$S --programs lua --layouts 4 > out
assert_eq "--layouts 4: every fourth" "lua: 0 1024+1024 2048+2048 3072+3072" "$(cat out)"
$S --programs sqlite --layouts 8 > out
assert_eq "--layouts 8: every second" \
    "sqlite: $(echo "$L16" | tr ' ' '\n' | awk 'NR % 2 == 1' | paste -sd' ')" "$(cat out)"
$S --programs sqlite --layouts 1 > out
assert_eq "--layouts 1: the program as linked" "sqlite: 0" "$(cat out)"
# --pads overrides the lattice, --pads PROGRAM=LIST for one program; the
# baseline's shifts are printed where they differ
$S --programs "sqlite lua" --pads "0 1024" --pads lua="0 0+2048" --baseline-pads 0 > out
assert_eq "--pads and --baseline-pads" "sqlite: 0 1024
sqlite O2 pgo: 0
lua: 0 0+2048
lua O2 pgo: 0" "$(cat out)"
expect_fail "--layouts 3" $S --layouts 3
assert_contains "why" err 'layouts 3: expected a power of two from 1 to 64'
expect_fail "--layouts 128" $S --layouts 128
expect_fail "a malformed shift" $S --pads "0 12+"
assert_contains "why" err '12\+ is not a shift P or P\+N'

# suite-layouts.py: rebuild and bolt of one pair at four layouts
# (the nested lattices start at 4: one column)
mkdir -p w2/p/cg
c() { echo "1000 $4" > "w2/p/cg/$1-$2-$3.txt"; }
c rebuild a 0 100; c rebuild a 1024+1024 300; c rebuild a 2048+2048 100; c rebuild a 3072+3072 500
c bolt    a 0 200; c bolt    a 1024+1024 100; c bolt    a 2048+2048 200; c bolt    a 3072+3072 100
python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 --draws 50 "p:a=0,1024+1024,2048+2048,3072+3072" > lay.md
# 4 layouts: (100+300+100+500)/4 = 250 against 150 = 1.667
assert_contains "the pair over all four" lay.md '^| p/a | 1\.667 |$'
assert_contains "the geometric mean" lay.md '^| geometric mean | 1\.667 |$'
assert_contains "no pair at or under" lay.md '^| pairs ≤ 1 | 0 of 1 |$'
expect_fail "three shifts" python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 "p:a=0,1024+1024,2048+2048"
assert_contains "why" err 'not a power of two'
expect_fail "a missing count" python3 "$PERFINST_TOP/bench/suite-layouts.py" --work w2 "p:a=0,1024"
assert_contains "why" err 'rebuild-a-1024\.txt: missing'
