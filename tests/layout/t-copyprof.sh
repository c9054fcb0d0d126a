# A profile per inlined copy (docs/layout.md "Inlined copies"): the
# training build's copy-map gives each copy of g that the IPA inliner put
# in f1 and f2 counters of its own, pmopt plan --copy-map solves each
# copy's flow (copy-profile), and the rebuild gives the copies' blocks
# those counts.  copyprof.c: f1's 28 calls of g all take g's x < 0 arm,
# f2's 10,000 never do.  The copies' counts add up, block by block, to g's
# own profile (every copy is counted); f1's copy takes the arm on each of
# its 28 entries, f2's never; the rebuild keeps that arm in f1's hot part
# (with g's summed profile scaled to f1's calls it lies in f1's cold
# part).  A map line of a unit the program does not have, or one given
# twice, is skipped; a
# malformed one is refused, naming the file; a relative map path too.  copy-profile=raise takes a
# copy's count only above the scaled one: f1's arm hot, f2 as without.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/copyprof.c
f1_line=$(grep -n 'F1_CALL' "$src" | cut -d: -f1)
f2_line=$(grep -n 'F2_CALL' "$src" | cut -d: -f1)

expect_fail "a relative copy map" pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-copy-map=map -c "$src" -o rel.o
assert_contains "... said as such" err "copy-map=map.: needs an absolute path"
[ ! -e map ] || fail "a refused compilation wrote the map"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-copy-map="$PWD/map" -c "$src" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > train.out
unit=$("$PMOPT" dump-meta train | awk '$1 == "unit" { print $2; exit }' | sed 's/^0x//')
[ -n "$unit" ] || fail "no unit in dump-meta's output"
awk -v u="$unit" '$1 != u { bad = 1 } END { exit bad }' map || fail "a map line of another unit: $(head -3 map)"
assert_contains "the map: f1's copy of g through the call at line $f1_line" map " g [0-9]+ f1 g@$f1_line:[0-9]+$"
assert_contains "the map: f2's copy of g" map " g [0-9]+ f2 g@$f2_line:[0-9]+$"
assert_not_contains "the map names f, not its counting copy f.count.N" map "\.count\."

"$PMOPT" plan --copy-map=map -o plan.fb ./train train.pit > plan.out
assert_contains "plan: every copy in the map planned" plan.out "^copies: ([0-9]+) inlined copies of PROG's units in map, [0-9]+ ran: \1 copy-profile recommendations$"
# each callee's copies add up to its own profile, block by block
python3 - plan.fb <<'PY' || fail "the copies' counts do not add up to their callee's profile"
import sys
prof, sums = {}, {}
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) < 2 or f[1] not in ("branch-profile", "copy-profile"):
        continue
    kv = dict(x.split("=", 1) for x in f[2:])
    c = [int(x) for x in kv["counts"].split(",")]
    if f[1] == "branch-profile":
        prof[kv["fn"]] = c
    else:
        s = sums.setdefault(kv["callee"], [0] * len(c))
        sums[kv["callee"]] = [a + b for a, b in zip(s, c)]
assert sums, "no copy-profile"
for callee, s in sums.items():
    assert prof.get(callee) == s, (callee, prof.get(callee), s)
    print("ok: %s's copies add up to its profile %s" % (callee, s))
PY
copy() { awk -v f="fn=$1" -v c="callee=$2" '$2 == "copy-profile" && $3 == f && $5 == c' plan.fb; }
copy f1 g > c1
copy f2 g > c2
assert_contains "f1's copy: entered 28 times, from the call at line $f1_line" c1 "chain=g@$f1_line:[0-9]+ weight=[0-9]+ counts=28,"
assert_contains "f2's copy: entered 10000 times" c2 "chain=g@$f2_line:[0-9]+ weight=[0-9]+ counts=10000,"
assert_contains "f1's copy takes the x < 0 arm on each entry" c1 "counts=28,28,"
assert_contains "f2's copy never does" c2 "counts=10000,0,"
copy f2 g.part.0 > c3
if [ -s c3 ]; then
    assert_contains "f2's copy of the arm's part never ran, and is planned so" c3 " weight=0 counts=0(,0)*$"
fi

# a line of another build's unit: skipped; a malformed line: refused
cp map map2
echo "0123456789abcdef 7 g 1 f1 g@1:1" >> map2
cat map >> map2 # (the same build's lines again: built twice)
"$PMOPT" plan --copy-map=map2 -o plan2.fb ./train train.pit > plan2.out
assert_eq "another unit's line and the same lines again change nothing" "$(grep copy-profile plan.fb)" "$(grep copy-profile plan2.fb)"
assert_eq "... nor the count of copies" "$(grep '^copies:' plan.out)" "$(grep '^copies:' plan2.out | sed 's/map2/map/')"
cp map map3
echo "not a map line" >> map3
expect_fail "a malformed map line" "$PMOPT" plan --copy-map=map3 -o plan3.fb ./train train.pit
assert_contains "the refusal names the file and the line" err "map3: a line that is not UNIT COPY-COUNTER CALLEE COUNTER FN CHAIN: not a map line"
[ ! -e plan3.fb ] || fail "a refused plan left plan3.fb"

# the rebuild: without the copies' counts f1's x < 0 arm is cold, with them hot
"$PMOPT" plan -o base.fb ./train train.pit > base.out
cold_size() { size -A "$1" | awk -v s=".text.unlikely.$2" '$1 == s { n = $2 } END { print n + 0 }'; }
pi_cc -O2 -fplugin-arg-perfinst-feedback=base.fb -fplugin-arg-perfinst-sections -c "$src" -o base.o
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-verbose -c "$src" -o cp.o 2> cp.err
assert_contains "the rebuild says what it applied" cp.err "copy profile of .f1.: [1-9][0-9]* blocks of inlined copies take the count of their copy"
b=$(cold_size base.o f1)
c=$(cold_size cp.o f1)
[ "$b" -ge 32 ] || fail "without the copies' counts f1's cold part should hold the x < 0 arm ($b bytes)"
[ "$c" -lt $((b / 2)) ] || fail "with them f1's cold part should lose the arm ($c bytes, $b without)"
ok "f1's x < 0 arm: $b bytes cold without the copies' counts, $c with them"
# copy-profile=raise: only counts above the scaled ones are taken, so f1's
# arm is hot and f2's part as without the copies' counts
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-sections \
    -fplugin-arg-perfinst-copy-profile=raise -fplugin-arg-perfinst-verbose -c "$src" -o raise.o 2> raise.err
assert_contains "raise says what it raised" raise.err "copy profile of .f1.: [1-9][0-9]* blocks of inlined copies raised to the count of their copy"
r=$(cold_size raise.o f1)
[ "$r" -lt $((b / 2)) ] || fail "raise: f1's cold part should lose the arm ($r bytes, $b without)"
assert_eq "raise: f2's cold part as without the copies' counts" "$(cold_size base.o f2)" "$(cold_size raise.o f2)"
# a copy-profile the rebuild cannot read: said, and left out
grep -v '^end' plan.fb | sed '/ copy-profile fn=f1 .*callee=g /s/ counts=[0-9,]*/ counts=28,x/' > bad.body
reseal bad.body bad.fb
pi_cc -O2 -fplugin-arg-perfinst-feedback=bad.fb -fplugin-arg-perfinst-sections -c "$src" -o bad.o 2> bad.err
assert_contains "a malformed copy-profile: a warning naming the file and the recommendation" bad.err "bad.fb:[0-9]+: recommendation [0-9]+ \(.copy-profile.\): .counts=. is not a list of counts; ignored"
same_output cp.o
