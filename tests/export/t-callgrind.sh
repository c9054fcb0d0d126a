#!/bin/bash
# pmopt export --callgrind read by valgrind's callgrind_annotate: the
# fixture's exact block executions per function (self) and inclusive of
# its callees (--inclusive=yes: a function's cost plus its callees'), per
# source line (the loop test 300000200), the calls per call site (middle
# calls spinner 100x from line 29 and 100x from line 30; outer calls
# middle 200x) with their inclusive costs, and the timer samples (self in
# spinner, inclusive in main, as many as pmopt report --tree counts).
source "$PERFINST_TOP/tests/lib.sh"
source "$T/export/setup.sh"
command -v callgrind_annotate > /dev/null || skip "callgrind_annotate is not installed (valgrind)"
build_work
run_work w.pit 200 2000000 PERFINST_SAMPLE=cpu:1ms
"$PMOPT" export --callgrind w.cg ./work w.pit > out 2> err || { cat err; fail "export --callgrind"; }
assert_contains "callgrind format" w.cg "^# callgrind format$"
assert_contains "events" w.cg "^events: Blocks Samples$"
periods=$("$PMOPT" report --tree ./work w.pit | sed -n 's/.*samples for \([0-9]*\) periods.*/\1/p')
[ "$periods" -gt 0 ] || fail "no timer samples"

# (callgrind_annotate is run from elsewhere: it shortens fl= names under its
# current directory, not cfi= ones, and would then see two work.c files)
mkdir elsewhere
annotate() { (cd elsewhere && callgrind_annotate --threshold=100 "$@" ../w.cg); }
annotate > self 2> err || { cat err; fail "callgrind_annotate"; }
annotate --inclusive=yes > incl 2> err || { cat err; fail "--inclusive=yes"; }
# "BLOCKS (P%) SAMPLES (P%)  FILE:FUNCTION" -> "FUNCTION BLOCKS SAMPLES"
costs() {
    python3 -c '
import re, sys
n = lambda x: "0" if x == "." else x.replace(",", "")
for l in open(sys.argv[1]):
    m = re.match(r"^ *([0-9,]+|\.) *(?:\([^)]*\))? +([0-9,]+|\.) *(?:\([^)]*\))? +\S*:([A-Za-z_]\w*)$", l)
    if m:
        print(m.group(3), n(m.group(1)), n(m.group(2)))' "$1"
}
costs self > self.v
costs incl > incl.v
cat self.v incl.v
# blocks: exact
blocks() { awk -v f="$2" '$1 == f {print $2}' "$1"; }
samples() { awk -v f="$2" '$1 == f {print $3}' "$1"; }
assert_eq "self: spinner" 600000600 "$(blocks self.v spinner)"
assert_eq "self: middle" 600 "$(blocks self.v middle)"
assert_eq "self: outer" 403 "$(blocks self.v outer)"
assert_eq "self: main" 5 "$(blocks self.v main)"
assert_eq "inclusive: main (every block)" 600001610 "$(blocks incl.v main)"
assert_eq "inclusive: outer" 600001603 "$(blocks incl.v outer)"
assert_eq "inclusive: middle" 600001200 "$(blocks incl.v middle)"
assert_eq "inclusive: spinner" 600000600 "$(blocks incl.v spinner)"
# samples: all of them somewhere, (nearly) all in spinner under main
assert_contains "the samples' total" w.cg "^summary: 600001610 $periods$"
for v in "$(samples self.v spinner)" "$(samples incl.v main)" "$(samples incl.v middle)"; do
    [ "$v" -le "$periods" ] && [ $((10 * v)) -ge $((9 * periods)) ] ||
        fail "samples: $v of $periods in spinner, under middle and main"
done
ok "samples: spinner's, main's and middle's inclusive are >= 90 % of $periods"
assert_contains "program totals" self "^600,001,610 \(100.0%\) +[0-9,]+ \(100.0%\)  PROGRAM TOTALS$"

# per line, and the calls at their lines (the source annotated)
assert_contains "the loop test's line" self "^300,000,200 \([0-9.]+%\) .* for \(unsigned i = 0; i < n; i\+\+\) .*line 21"
awk '/line 29: odd k/ {getline; print}' self > l29
awk '/line 30: even k/ {getline; print}' self > l30
awk '/line 36 \*\// {getline; print}' self > l36
assert_contains "line 29 calls spinner 100x" l29 "=> .*/work\.c:spinner \(100x\)$"
assert_contains "line 30 calls spinner 100x" l30 "=> .*/work\.c:spinner \(100x\)$"
assert_contains "line 36 calls middle 200x, with its inclusive blocks" l36 "^600,001,200 .* => .*/work\.c:middle \(200x\)$"
annotate --tree=caller > tree
grep -A1 -F "work.c:middle (200x)" tree > arc
assert_contains "caller tree: middle calls spinner 200x in all" arc "\*  .*/work\.c:spinner$"
