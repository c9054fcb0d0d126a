# pmopt report's line counts equal gcov's at -O2 under count-at=late (the
# default), on the shapes of Lua's lvm.c and zstd's zstd_double_fast.c
# where they used to differ (gcovlines.c says which rule each needs):
#   prep    a block whose last line (its goto's) is not its largest: gcov
#           lists the block under the largest line of each run (it sorts
#           them), not under the last
#   concat  GCC's early ipa-split cuts concat in two and the early inliner
#           puts the front into main; -fprofile-generate splits nothing
#           early: the part is counted (it was not), its first block
#           without concat's line, and the inlined front is a gcov block
#           of its own that opens with concat's line
#   rep     the function's last block in GCC's numbering, which gcov
#           takes for the exit block and lists under no line
#   gcovtwice.h  one interpreter defined twice at one line (gawk's
#           interpret.h): gcov counts each function of such a group apart,
#           then adds them up
#   tnext, kind  two returns of one constant merged into one PHI argument
#           at one's line, which an edge's goto also has: gcov counts the
#           line by that edge alone
#   isidx   three returns of one constant merged into one return at the
#           first's line, which no goto keeps: the line by the edge from
#           the code right before it alone (the first never runs)
# and lines folded into PHI arguments: counted on their edge only where no
# statement of the function is on the line (concat's `for` line); those
# gcov -O2 lists no code on have gcov -O0's counts.
# Every line pmopt report lists is compared with gcov -t of the same
# program built with -O2 --coverage (GCC's own profile pass, at the same
# point of the pipeline), every line gcov lists must be listed, and the
# counts the control flow fixes are checked by hand.
. "$PERFINST_TOP/tests/lib.sh"
command -v gcov > /dev/null || skip "gcov not installed"
cp "$T/count/gcovlines.c" "$T/count/gcovlines.h" "$T/count/gcovtwice.h" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c gcovlines.c -o gl.o
pi_ld -O2 -o gl gl.o
PERFINST_OUT=gl.pit ./gl 100 > out || fail "gcovlines failed"
gcc -O2 --coverage gcovlines.c -o cov2
./cov2 100 > cov2.out
assert_eq "the same output as the gcov build" "$(cat cov2.out)" "$(cat out)"
# the shape concat needs is there (else the fixture tests nothing)
nm gl > syms
grep -q ' concat\.part\.0$' syms || fail "GCC did not split concat early (the fixture wants concat.part.0)"

# LINES GCDA [FILE]: "line count" of gcovlines.c (or FILE), gcov -t's
lines() {
    gcov -t "$1" 2> /dev/null |
        awk -F: -v f="${2:-gcovlines.c}" '/^ *-: *0:Source:/ { src = $4 } src ~ ("(^|/)" f "$") && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
        sort -n
}
lines cov2-gcovlines.gcda > gcov2.lines
gcc -O0 --coverage gcovlines.c -o cov0
./cov0 100 > /dev/null
lines cov0-gcovlines.gcda > gcov0.lines
[ "$(wc -l < gcov2.lines)" -gt 40 ] || fail "gcov -O2 gave $(wc -l < gcov2.lines) lines"
"$PMOPT" report --by=line --format=csv gl gl.pit | awk -F, 'NR > 1 && $2 ~ /(^|\/)gcovlines\.c$/ { print $3, $1 }' |
    sort -n > pi.lines
# (the @O0 lines: a call whose inlined body sits between the line's
# blocks, which gcov -O2 counts again where control comes back from it:
# gcov -O0's count, below)
grep -n '@O0' gcovlines.c | cut -d: -f1 > o0.tags
awk 'FILENAME == ARGV[1] { t[$1] = 1; next } FILENAME == ARGV[2] { g[$1] = $2; next }
     !($1 in t) && ($1 in g) && g[$1] != $2 { print "line " $1 ": pmopt " $2 ", gcov -O2 " g[$1] }' \
    o0.tags gcov2.lines pi.lines > diff.txt
awk 'NR == FNR { p[$1] = 1; next } !($1 in p) { print "line " $1 ": gcov -O2 " $2 ", pmopt none" }' \
    pi.lines gcov2.lines >> diff.txt
[ ! -s diff.txt ] || { cat diff.txt; fail "line counts differ from gcov -O2's"; }
ok "the $(wc -l < gcov2.lines) lines gcov -O2 lists: pmopt report lists each with gcov's count ($(wc -l < o0.tags) with gcov -O0's)"
for l in $(cat o0.tags); do
    assert_eq "line $l, a call's inlined body between its blocks: gcov -O0's count" \
        "$(awk -v l=$l '$1 == l { print $2 }' gcov0.lines)" "$(awk -v l=$l '$1 == l { print $2 }' pi.lines)"
done
# gcovtwice.h: every line both list, gcov -O2's count (its PHI lines aside)
lines cov2-gcovlines.gcda gcovtwice.h > twice2.lines
"$PMOPT" report --by=line --format=csv gl gl.pit | awk -F, 'NR > 1 && $2 ~ /(^|\/)gcovtwice\.h$/ { print $3, $1 }' |
    sort -n > twice.lines
[ "$(wc -l < twice2.lines)" -gt 10 ] || fail "gcov -O2 gave $(wc -l < twice2.lines) lines of gcovtwice.h"
awk 'NR == FNR { g[$1] = $2; next } ($1 in g) && g[$1] != $2 { print "gcovtwice.h line " $1 ": pmopt " $2 ", gcov -O2 " g[$1] }' \
    twice2.lines twice.lines > difft.txt
[ ! -s difft.txt ] || { cat difft.txt; fail "gcovtwice.h's line counts differ from gcov -O2's"; }
latch=$(grep -n 'TW_NEXT;' gcovtwice.h | cut -d: -f1)
assert_eq "gcovtwice.h: the latch, 9 per run_plain call (run_hooked never runs)" 900 "$(awk -v l="$latch" '$1 == l { print $2 }' twice.lines)"
# lines gcov -O2 lists no code on (folded into PHI arguments): gcov -O0's
awk 'NR == FNR { g[$1] = 1; next } !($1 in g)' gcov2.lines pi.lines > phi.lines
[ "$(wc -l < phi.lines)" -ge 3 ] || fail "want the fixture's lines folded into PHI arguments, got: $(cat phi.lines)"
awk 'NR == FNR { g[$1] = $2; next } !($1 in g) || g[$1] != $2 { print "line " $1 ": pmopt " $2 ", gcov -O0 " (($1 in g) ? g[$1] : "none") }' \
    gcov0.lines phi.lines > diff0.txt
[ ! -s diff0.txt ] || { cat diff0.txt; fail "the lines folded into PHI arguments differ from gcov -O0's"; }
ok "the $(wc -l < phi.lines) lines gcov -O2 lists no code on have gcov -O0's counts"
r0=$(grep -n '@isidx0' gcovlines.c | cut -d: -f1)
assert_eq "isidx's first return 0 (never run): gcov -O0's count" "$(awk -v l=$r0 '$1 == l { print $2 }' gcov0.lines)" \
    "$(awk -v l=$r0 '$1 == l { print $2 }' pi.lines)"
# lines whose code lost its line (main's `return 0;`, `int n = 2;` folded
# into a constant), which only a debug statement of the -g build shows:
# gcov of a -g build lists them, and so does pmopt report, with -O0's
# count; not a debug statement's line -O0 has no code on (`do {`, `long
# count;`), which gcov -g lists too
gcc -O2 -g --coverage gcovlines.c -o covg
./covg 100 > /dev/null
lines covg-gcovlines.gcda > gcovg.lines
awk 'FILENAME == ARGV[1] { o2[$1] = 1; next } FILENAME == ARGV[2] { o0[$1] = $2; next } FILENAME == ARGV[3] { p[$1] = $2; next }
     ($1 in o2) { next }
     ($1 in o0) && p[$1] != o0[$1] { print "line " $1 ": pmopt " (($1 in p) ? p[$1] : "none") ", gcov -O0 " o0[$1] ", gcov -O2 -g " $2 }
     !($1 in o0) && ($1 in p) { print "line " $1 ": pmopt " p[$1] ", no code at -O0" }' \
    gcov2.lines gcov0.lines pi.lines gcovg.lines > diffg.txt
[ ! -s diffg.txt ] || { cat diffg.txt; fail "the lines only gcov -O2 -g lists"; }
for t in 'int n = 2;' 'return 0;'; do
    l=$(grep -n -F -- "$t" gcovlines.c | tail -1 | cut -d: -f1)
    grep -q "^$l " gcovg.lines || fail "gcov -O2 -g does not list line $l ($t): the fixture tests nothing"
    grep -q "^$l " pi.lines || fail "line $l ($t), whose code lost its line, not listed"
done
ok "the $(awk 'NR == FNR { g[$1] = 1; next } !($1 in g)' gcov2.lines gcovg.lines | wc -l) lines only gcov -O2 -g lists: those -O0 has code on with its count, the others not"

# phiedge.c: a line folded into a PHI argument on an edge out of a block
# with two ways out (`int s = 0;`, without -g) is not a gcov block
# between that block and the edge's destination: phiedge.h's return line,
# on both, keeps gcov -O2's count (pmopt counted the edge's runs again:
# 200,000 for 125,108); with -g the line's debug statement counts it
# where it was, every call, as -O0 does (on the edge: 74,892)
cp "$T/count/phiedge.c" "$T/count/phiedge.h" .
gcc -O2 --coverage phiedge.c -o pecov2 && ./pecov2 > /dev/null
gcc -O0 --coverage phiedge.c -o pecov0 && ./pecov0 > /dev/null
for f in phiedge.c phiedge.h; do lines pecov2-phiedge.gcda $f | sed "s|^|$f:|"; done | sort > pe.gcov2
for f in phiedge.c phiedge.h; do lines pecov0-phiedge.gcda $f | sed "s|^|$f:|"; done | sort > pe.gcov0
[ "$(wc -l < pe.gcov2)" -gt 10 ] || fail "phiedge: gcov -O2 gave $(wc -l < pe.gcov2) lines"
ret=$(grep -n '@ret' phiedge.h | cut -d: -f1)
zero=$(grep -n '@zero' phiedge.c | cut -d: -f1)
grep -q "^phiedge.h:$ret " pe.gcov2 || fail "phiedge: gcov -O2 does not list phiedge.h:$ret (the fixture tests nothing)"
for g in -g0 -g; do
    pi_cc -O2 $g -fplugin-arg-perfinst-all=count -c phiedge.c -o pe.o
    pi_ld -O2 -o pe pe.o
    rm -f pe.pit
    PERFINST_OUT=pe.pit ./pe > pe.out
    "$PMOPT" report --by=line --format=csv pe pe.pit | awk -F, 'NR > 1 { n = split($2, p, "/"); print p[n] ":" $3, $1 }' | sort > pe$g.pi
    diffpe=$(join -a 1 -e none -o 0,1.2,2.2 pe.gcov2 pe$g.pi | awk '$2 != $3')
    [ -z "$diffpe" ] || fail "phiedge $g: lines gcov -O2 lists, gcov's count then pmopt's: $diffpe"
    "$PMOPT" dump-meta pe > pe$g.meta
done
assert_contains "phiedge -g0: int s = 0; a PHI line on its edge, not a gcov block" pe-g0.meta "PHI line .*phiedge\.c:$zero$"
assert_eq "phiedge -g: int s = 0; once per call, as at -O0" "$(awk -v k="phiedge.c:$zero" '$1 == k { print $2 }' pe.gcov0)" \
    "$(awk -v k="phiedge.c:$zero" '$1 == k { print $2 }' pe-g.pi)"
ok "phiedge: the $(wc -l < pe.gcov2) lines gcov -O2 lists have its counts with and without -g, the helper's return line $(awk -v k="phiedge.h:$ret" '$1 == k { print $2 }' pe-g0.pi)"

# splitbrace.c: indent split early into indent and indent.part.0, both
# ending at indent's closing brace: once per call, as gcov's whole indent
# (the part's last block counted its runs again: 333,334 for 200,000)
cp "$T/count/splitbrace.c" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c splitbrace.c -o sb.o
pi_ld -O2 -o sb sb.o
PERFINST_OUT=sb.pit ./sb > /dev/null
"$PMOPT" dump-meta sb | grep -q 'function [0-9]* indent \[indent\.part\.0\].* a part the early ipa-split cut off' ||
    fail "GCC did not split indent early (the fixture wants indent.part.0)"
gcc -O2 --coverage splitbrace.c -o sbcov && ./sbcov > /dev/null
brace=$(grep -n '@brace' splitbrace.c | cut -d: -f1)
assert_eq "splitbrace: indent's closing brace once per call, gcov -O2's count" \
    "$(lines sbcov-splitbrace.gcda splitbrace.c | awk -v l="$brace" '$1 == l { print $2 }')" \
    "$("$PMOPT" report --by=line --format=csv sb sb.pit | awk -F, -v l="$brace" 'NR > 1 && $3 == l { print $1 }')"

# the counts the control flow fixes: prep's test and concat's own line once
# per call (100 calls each)
count() { awk -v l="$(grep -n -F -- "$1" gcovlines.c | head -1 | cut -d: -f1)" '$1 == l { print $2 }' pi.lines; }
assert_eq "prep's if line: once per call" 100 "$(count 'if (init->tag == 1 && limit->tag == 1)')"
assert_eq "concat's own line: once per call (inlined front or not)" 100 "$(count 'void concat(struct val *top, int total)')"
assert_eq "concat's test: once per call" 100 "$(count 'if (total == 1)')"
assert_eq "kind's case 1: 20 of 100 calls" 20 "$(count '*n += 1;')"
assert_eq "kind's first return NULL: as often (not again on the PHI argument's edge)" 20 "$(count '        return NULL;')"
"$PMOPT" dump-meta gl > meta
assert_contains "dump-meta marks rep's last block" meta '^  site [0-9]+: block, .* \(last\)$'
# the function view: concat's part adds its blocks, not entries nor a unit
"$PMOPT" report --by=function --format=csv gl gl.pit | awk -F, 'NR > 1 && $8 == "concat" { print $2, $9, $10 }' > concat.fn
assert_eq "concat: 100 entries, one unit" "100 1 gcovlines.c" "$(cat concat.fn)"

# inlcall.c: calls whose inlined bodies sit between their line's blocks
# (an arm of a branch, a loop, a split function's inlined header and its
# part's call): the line once per run, as gcov -O0 counts the call (gcov
# -O2 counts it again where control comes back from the body: 150 and
# 200 for 100); the loop inside the body is no run of the line; the part
# opens in the rest of an inlined body its header began (index_of's
# line: not entered again by the part's calls).  Every other line gcov
# -O2 lists has its count, a line it lists no code on gcov -O0's.
cp "$T/count/inlcall.c" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c inlcall.c -o ic.o
pi_ld -O2 -o ic ic.o
PERFINST_OUT=ic.pit ./ic 100 > ic.out || fail "inlcall failed"
"$PMOPT" dump-meta ic > ic.meta
grep -q 'function [0-9]* countint \[countint\.part\.0\].* a part the early ipa-split cut off' ic.meta ||
    fail "GCC did not split countint early (the fixture wants countint.part.0)"
assert_contains "dump-meta shows a call's line on its inlined body's blocks" ic.meta '\(via inlcall\.c:[0-9]+\)'
gcc -O2 --coverage inlcall.c -o iccov2 && ./iccov2 100 > /dev/null
gcc -O0 --coverage inlcall.c -o iccov0 && ./iccov0 100 > /dev/null
lines iccov2-inlcall.gcda inlcall.c > ic.gcov2
lines iccov0-inlcall.gcda inlcall.c > ic.gcov0
"$PMOPT" report --by=line --format=csv ic ic.pit | awk -F, 'NR > 1 && $2 ~ /(^|\/)inlcall\.c$/ { print $3, $1 }' | sort -n > ic.pi
grep -n '@O0' inlcall.c | cut -d: -f1 > ic.tags
[ "$(awk 'FILENAME == ARGV[1] { t[$1] = 1; next } FILENAME == ARGV[2] { o2[$1] = $2; next } ($1 in t) && ($1 in o2) && o2[$1] != $2' \
    ic.tags ic.gcov2 ic.gcov0 | wc -l)" -ge 2 ] || fail "inlcall: gcov -O2 and -O0 agree on the @O0 lines (the fixture tests nothing)"
awk 'FILENAME == ARGV[1] { t[$1] = 1; next } FILENAME == ARGV[2] { o2[$1] = $2; next } FILENAME == ARGV[3] { o0[$1] = $2; next }
     { want = (($1 in t) || !($1 in o2)) ? o0[$1] : o2[$1]
       if (want != $2) print "line " $1 ": pmopt " $2 ", want " (want == "" ? "none" : want) (($1 in t) ? " (gcov -O0, @O0)" : ($1 in o2) ? " (gcov -O2)" : " (gcov -O0)") }' \
    ic.tags ic.gcov2 ic.gcov0 ic.pi > ic.diff
awk 'NR == FNR { p[$1] = 1; next } !($1 in p) { print "line " $1 ": gcov -O2 " $2 ", pmopt none" }' ic.pi ic.gcov2 >> ic.diff
[ ! -s ic.diff ] || { cat ic.diff; fail "inlcall: line counts"; }
ok "inlcall: the $(wc -l < ic.tags) @O0 lines have gcov -O0's counts, the other $(($(wc -l < ic.pi) - $(wc -l < ic.tags))) lines pmopt lists gcov's"
