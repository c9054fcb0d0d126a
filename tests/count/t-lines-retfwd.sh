# A never-run `return 0;` whose one return GCC reaches through a forwarder
# block that every `return 0` of the function goes through (Tcl 8.6's
# Tcl_RegexpObjCmd: its `about` branch's `return TCL_OK;`, tclCmdMZ.c:249,
# listed with every call's count, 20,000, where gcov -O0 says 0; and a
# variable's, TclCompileObj's `return codePtr;`, tclExecute.c:1766): the
# PHI argument's line goes to the forwarder's in-edge from the code right
# before it alone (retfwd.c's @never and @vnever: 0 as gcov -O0 says, not 100; @quest,
# a later `return 0;`, 25), not to the forwarder; a label block every goto runs
# (@bad) keeps their count; every line gcov -O2 lists has its count.
. "$PERFINST_TOP/tests/lib.sh"
command -v gcov > /dev/null || skip "gcov not installed"
cp "$T/count/retfwd.c" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c retfwd.c -o rf.o
pi_ld -O2 -o rf rf.o
PERFINST_OUT=rf.pit ./rf 100 > out || fail "retfwd failed"
gcc -O2 --coverage retfwd.c -o cov2 && ./cov2 100 > cov2.out
assert_eq "the same output as the gcov build" "$(cat cov2.out)" "$(cat out)"
lines() {
    gcov -t "$1" 2> /dev/null |
        awk -F: '/^ *-: *0:Source:/ { src = $4 } src ~ /(^|\/)retfwd\.c$/ && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
        sort -n
}
lines cov2-retfwd.gcda > gcov2.lines
[ "$(wc -l < gcov2.lines)" -gt 20 ] || fail "gcov -O2 gave $(wc -l < gcov2.lines) lines"
"$PMOPT" report --by=line --format=csv rf rf.pit | awk -F, 'NR > 1 && $2 ~ /(^|\/)retfwd\.c$/ { print $3, $1 }' | sort -n > pi.lines
awk 'NR == FNR { p[$1] = $2; next } !($1 in p) || p[$1] != $2 { print "line " $1 ": gcov -O2 " $2 ", pmopt " (($1 in p) ? p[$1] : "none") }' \
    pi.lines gcov2.lines > diff.txt
[ ! -s diff.txt ] || { cat diff.txt; fail "line counts differ from gcov -O2's"; }
ok "the $(wc -l < gcov2.lines) lines gcov -O2 lists: pmopt lists each with its count"
at() { awk -v l="$(grep -n -F -- "$1" retfwd.c | cut -d: -f1)" '$1 == l { print $2 }' pi.lines; }
# (none of the three is a line gcov -O2 lists: the returns are one; gcov
# -O0 lists them with these counts)
assert_eq "cmd's never-run return 0 (about is 0 on every call): 0, as gcov -O0 (was 100)" 0 "$(at '@never')"
assert_eq "compile's never-run return codePtr (invoker is never NULL): 0, as gcov -O0 (was 100)" 0 "$(at '@vnever')"
assert_eq "cmd's return 0 after a '?': 25 of 100 calls" 25 "$(at '@quest')"
assert_eq "chk's label return: 47 of 100 calls go to bad" 47 "$(at '@bad')"
