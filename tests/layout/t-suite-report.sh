# bench/suite-report.py (bench/suite.sh's tables) on canned counts, no
# valgrind and no download: one program, lua, measured on two workloads.
# With every variant counted at the same four shifts (the default) the
# tables are the golden file's.  With `--variants`/`--baseline-pads`
# (suite.sh's --counted, BASEPADS): relink not counted is "not measured" in
# every table and target, never 0; O2's and pgo's means are over 0 and 2048
# only (their counts at 1024 and 3072, left from an earlier run, are not
# read), and the heading says which variant's mean is over which shifts.
# The counts are read from bench/i1sim's directory (i1/, the default) or,
# with --counts cg, from cachegrind's (cg/), and the heading names which.
. "$PERFINST_TOP/tests/lib.sh"
R="python3 $PERFINST_TOP/bench/suite-report.py"
V="O2 pgo bolt rebuild relink"
# cg VARIANT WL IREFS I1@0 I1@1024 I1@2048 I1@3072
cg() {
    local v=$1 wl=$2 ir=$3 p; shift 3
    for p in 0 1024 2048 3072; do echo "$ir $1" > "w/lua/i1/$v-$wl-$p.txt"; shift; done
}
mkdir -p w/lua/i1 w/lua/cg
cg O2      calls   1000000 1000 9000 1200 9000
cg pgo     calls    900000  900 9000 1100 9000
cg bolt    calls    950000  800  900 1000 1100
cg rebuild calls    940000  700  800  900 1000
cg relink  calls    940000    0    0    0    0
cg O2      strings 2000000 2000 9000 2200 9000
cg pgo     strings 1800000 2000 9000 2000 9000
cg bolt    strings 1900000 1000 1000 1000 1000
cg rebuild strings 1900000 1100 1100 1100 1100
cg relink  strings 1900000    0    0    0    0
for v in O2 pgo bolt rebuild relink; do echo 500 > w/lua/cg/$v-calls-taken.txt; done
echo 400 > w/lua/cg/rebuild-calls-taken.txt
echo "PROGRAM lua tables 1 1 4 calls strings" > programs.txt

# the default: every variant at every shift (relink's zeros are counts)
$R --work w --variants "$V" --pads "0 1024 2048 3072" --no-timing programs.txt > all.md
assert_golden "every variant counted" all.md layout/golden/suite-report-all.md

assert_contains "the heading names bench/i1sim" all.md '^bench/i1sim \(cachegrind.s I1, every layout in one run\) at scale 1'

# relink not counted; O2 and pgo at 0 and 2048; cachegrind's counts
echo "BASEPADS lua 0 2048" >> programs.txt
for f in w/lua/i1/*; do cp "$f" w/lua/cg/; done
rm -r w/lua/i1
$R --work w --variants "$V" --counted "O2 pgo bolt rebuild" --pads "0 1024 2048 3072" \
    --counts cg --no-timing programs.txt > some.md
assert_contains "the heading names cachegrind" some.md '^cachegrind, one run a layout, at scale 1'
expect_fail "--counts of neither" $R --work w --variants "$V" --pads 0 --counts xx programs.txt
assert_contains "it says which" err "i1 or cg"
assert_golden "relink not counted, O2 and pgo at two shifts" some.md layout/golden/suite-report-some.md
assert_contains "the heading names each variant's shifts" some.md \
    'shifted by 0, 2048 bytes for O2, pgo; 0, 1024, 2048, 3072 bytes for bolt, rebuild \(instructions'
assert_contains "the missing variant named in the heading" some.md 'Not measured \(`--variants`\): relink\.'
# O2 on calls: (1000 + 1200) / 2; pgo (900 + 1100) / 2 = 1000, × O2 0.909,
# × BOLT (mean 950) 1.053, with no interval: their shifts are not BOLT's
assert_contains "O2's mean over its two shifts" some.md '^\| calls \| O2 \| 1100 \| 1\.000 \| 1\.158 \|'
assert_contains "pgo's mean over its two shifts" some.md '^\| calls \| pgo \| 1000 \| 0\.909 \| 1\.053 \|'
assert_contains "rebuild over four shifts, with its interval" some.md \
    '^\| calls \| rebuild \| 850 \| 0\.773 \| 0\.895 \[0\.[0-9]{3}–0\.[0-9]{3}\] \| 0\.895 \|'
assert_eq "relink rows: not measured" 2 "$(grep -c '^| [a-z]* | relink | not measured |' some.md)"
assert_eq "relink summary rows: not measured" 2 "$(grep -c '^| relink | not measured |' some.md)"
assert_contains "relink's target: not measured" some.md '^- relink: not measured$'
assert_contains "rebuild's target" some.md \
    "^- rebuild: I1 misses ≤ BOLT's on 1 of 2 pairs \(not on lua/strings\); over BOLT beyond the layout noise \(the interval above 1\) on 1 \(lua/strings\)$"
assert_not_contains "no relink figure" some.md '\| relink \| [0-9]'

# O2 must be counted; --counted names variants of --variants
expect_fail "O2 not counted" $R --work w --variants "$V" --counted "bolt rebuild" --pads 0 programs.txt
assert_contains "why" err 'O2 must be counted'
expect_fail "unknown variant" $R --work w --variants "$V" --counted "O2 bolt2" --pads 0 programs.txt
assert_contains "why" err 'bolt2 is not one of --variants'

# the intervals: BOLT's and the rebuild's counts of a layout resampled
# together.  calls: the rebuild under BOLT at every shift, its interval
# under 1; strings: 1.100 at every shift, so [1.100–1.100], over BOLT
# beyond the noise.  An --extra variant x against the rebuild: on calls
# 3600 against 3400 (1.059), above at two shifts and under at one, so its
# interval holds 1; on strings 1300 against 1100 at every shift (1.182),
# over 1.10x and beyond the noise; geometric mean sqrt(1.059 * 1.182)
mkdir -p w/lua/i1
for f in w/lua/cg/*; do cp "$f" w/lua/i1/; done
cg x calls   940000  600  800  900 1300
cg x strings 1900000 1300 1300 1300 1300
$R --work w --variants "$V x" --pads "0 1024 2048 3072" --no-timing programs.txt > x.md
assert_contains "the rebuild's interval on calls lies under 1" x.md \
    '^\| calls \| rebuild \| 850 \| [0-9.]* \| 0\.895 \[0\.(8[0-9]{2})–0\.(9[0-9]{2})\] \|'
assert_contains "strings: one ratio at every shift, one interval" x.md \
    '^\| strings \| rebuild \| 1100 \| [0-9.]* \| 1\.100 \[1\.100–1\.100\] \|'
assert_contains "the geometric mean's interval" x.md \
    '^\| rebuild \| [0-9.]* \| [^|]* \| 0\.992 \[0\.[0-9]{3}–[01]\.[0-9]{3}\] \|'
assert_contains "x against the rebuild, by the rule" x.md \
    '^- x × rebuild: I1 misses geometric mean 1\.119 \[1\.[0-9]{3}–1\.[0-9]{3}\] over 2 pairs; over 1\.10× on 1 \(lua/strings 1\.182\); above the rebuild beyond the layout noise on 1 \(lua/strings\)$'
assert_not_contains "no such line for the rebuild or the relink" x.md '^- (rebuild|relink) × rebuild'
# the same counts print the same intervals
$R --work w --variants "$V x" --pads "0 1024 2048 3072" --no-timing programs.txt > x2.md
assert_eq "the same intervals twice" "$(cat x.md)" "$(cat x2.md)"
# a variant that no shift sets apart from another: 1.000 [1.000–1.000]
cg x calls   940000  700  800  900 1000
$R --work w --variants "$V x" --pads "0 1024 2048 3072" --no-timing programs.txt > x3.md
assert_contains "x on calls: the rebuild's counts" x3.md '^\| calls \| x \| 850 \| [0-9.]* \| 0\.895 \['
assert_contains "x's geometric mean" x3.md '^- x × rebuild: I1 misses geometric mean 1\.087 \[1\.087–1\.087\] over 2 pairs'

# the layouts and the redraws resampled each on its own (crossed()): four
# layouts at two redraws, the rebuild 900 at every layout of redraw 0 and
# 1100 at every one of @64, BOLT 1000 at every shift.  A resample that
# draws redraw 0 twice (one in four) gives 0.900 and one that draws @64
# twice 1.100, so the interval is [0.900–1.100]; eight counts resampled one
# by one would draw all eight at one redraw once in 128 and print a
# narrower interval, under the redraws' noise
G="0 1024 2048 3072 0@64 1024@64 2048@64 3072@64"
mkdir -p g/lua/i1
for p in $G; do
    for v in O2 bolt; do echo "1000000 1000" > "g/lua/i1/$v-calls-$p.txt"; done
    case $p in *@64) n=1100 ;; *) n=900 ;; esac
    echo "1000000 $n" > "g/lua/i1/rebuild-calls-$p.txt"
done
echo "PROGRAM lua tables 1 1 4 calls" > g.txt
$R --work g --variants "O2 bolt rebuild" --pads "$G" --no-timing g.txt > g.md
assert_contains "the redraws' noise in the interval" g.md \
    '^\| calls \| rebuild \| 1000 \| 1\.000 \| 1\.000 \[0\.900–1\.100\] \|'
# as built (the layouts without a redraw) and redrawn, each × BOLT's,
# and what the redraws do to each build: the rebuild 900 as built, 1100
# redrawn; BOLT 1000 at both
assert_contains "as built and redrawn × BOLT" g.md \
    '^\| lua/calls \| 1\.000 \| 0\.900 \| 1\.100 \| 1\.222 \|$'
assert_contains "as built: the pairs at or under BOLT" g.md \
    '^- rebuild as built: I1 misses ≤ BOLT.s on 1 of 1 pairs$'
assert_eq "no as-built table without redraws" 0 "$(grep -c '^As built and redrawn' all.md)"
# not a grid (layout 512 at @64 alone, 3072 at 0 alone): the eight
# shifts resampled one by one, an interval inside (0.900, 1.100)
G3="0 1024 2048 3072 0@64 1024@64 2048@64 512@64"
for v in O2 bolt; do echo "1000000 1000" > "g/lua/i1/$v-calls-512@64.txt"; done
echo "1000000 1100" > "g/lua/i1/rebuild-calls-512@64.txt"
$R --work g --variants "O2 bolt rebuild" --pads "$G3" --no-timing g.txt > g3.md
iv=$(sed -n 's/^| calls | rebuild | [0-9]* | [0-9.]* | [0-9.]* \[\([0-9.]*\)–\([0-9.]*\)\] .*/\1 \2/p' g3.md)
assert_eq "no grid: an interval inside the redraws' range ($iv)" yes \
    "$(echo "$iv" | awk 'NF == 2 && $1 > 0.9 && $2 < 1.1 { print "yes" }')"

# timing: a test workload's own scale (suite.sh's S_TIME[P:WL]) named in
# the heading; user CPU the median of the per-round ratios
echo "PROGRAM lua tables 1 1 4,calls=40 calls" > gt.txt
{ echo "# load average 0.00 0.00 0.00 at the start, nice 0"; echo "# variants O2 bolt rebuild"
  for r in 1 2 3; do echo "$r O2 1.0 1.00"; echo "$r bolt 0.9 0.90"; echo "$r rebuild 0.8 0.81"; done
  echo "# load average 0.00 0.00 0.00 at the end"; } > g/lua/times-calls.txt
$R --work g --variants "O2 bolt rebuild" --pads "$G" --nice 0 gt.txt > gt.md
assert_contains "the timing scales in the heading" gt.md 'user CPU time at scale 4 \(calls: 40\), paired rounds'
assert_contains "the rebuild's CPU × O2 and × BOLT" gt.md '^\| calls \| rebuild \| .* \| 0\.810 \[0\.810–0\.810\] \| 0\.900 \[0\.900–0\.900\] \|$'
