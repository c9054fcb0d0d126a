# A line GCC's early ipa-split cuts across: F keeps the line's first
# statements (a test), F.part.N begins with the rest, through a block of
# the split's own that has no line.  gcov's F is whole, so the line is
# entered once per execution, not again where the part begins: libuv
# 1.44.2's timer.c:105 (uv_timer_stop's uv__handle_stop, 32,240 for
# gcov's 16,120), loop-watcher.c's one-line uv_idle_stop and a one-line
# callback (partline.c's @tick: 100, was 114).  A part that begins on a
# line of its own still enters it (@tock: 14), and every line gcov -O2
# lists has its count.
. "$PERFINST_TOP/tests/lib.sh"
command -v gcov > /dev/null || skip "gcov not installed"
cp "$T/count/partline.c" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c partline.c -o pl.o
pi_ld -O2 -o pl pl.o
PERFINST_OUT=pl.pit ./pl 100 > out || fail "partline failed"
"$PMOPT" dump-meta pl | grep -q "function [0-9]* tick \[tick\.part\.[0-9]*\].*a part the early ipa-split cut off" ||
    skip "GCC did not split tick (no tick.part.N): the shape is not there"
gcc -O2 --coverage partline.c -o cov2 && ./cov2 100 > cov2.out
assert_eq "the same output as the gcov build" "$(cat cov2.out)" "$(cat out)"
lines() {
    gcov -t "$1" 2> /dev/null |
        awk -F: '/^ *-: *0:Source:/ { src = $4 } src ~ /(^|\/)partline\.c$/ && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
        sort -n
}
lines cov2-partline.gcda > gcov2.lines
[ "$(wc -l < gcov2.lines)" -gt 20 ] || fail "gcov -O2 gave $(wc -l < gcov2.lines) lines"
"$PMOPT" report --by=line --format=csv pl pl.pit | awk -F, 'NR > 1 && $2 ~ /(^|\/)partline\.c$/ { print $3, $1 }' | sort -n > pi.lines
awk 'NR == FNR { p[$1] = $2; next } !($1 in p) || p[$1] != $2 { print "line " $1 ": gcov -O2 " $2 ", pmopt " (($1 in p) ? p[$1] : "none") }' \
    pi.lines gcov2.lines > diff.txt
[ ! -s diff.txt ] || { cat diff.txt; fail "line counts differ from gcov -O2's"; }
ok "the $(wc -l < gcov2.lines) lines gcov -O2 lists: pmopt lists each with its count"
at() { awk -v l="$(grep -n -F -- "$1" partline.c | cut -d: -f1)" '$1 == l { print $2 }' pi.lines; }
assert_eq "tick's one line, split after its test: entered once a call (was 114)" 100 "$(at '@tick')"
assert_eq "tock's part, on a line of its own: entered 14 times" 14 "$(at '@tock')"
