# tests/count/gcov-lines-fixture.sh SRC PROG — sourced by the line tests
# that compare every line of one program with gcov -O2's (t-lines-retfwd.sh,
# t-lines-partsplit.sh): count/SRC counted (PROG, run with 100, trace
# PROG.pit) and built with -O2 --coverage, the same output; gcov2.lines and
# pi.lines ("LINE COUNT", sorted) and each line gcov lists checked against
# pmopt report's; then `at TAG` prints pmopt's count of the line tagged TAG.
src=$1 prog=$2
base=${src%.c}
command -v gcov > /dev/null || skip "gcov not installed"
cp "$T/count/$src" .
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$src" -o "$prog.o"
pi_ld -O2 -o "$prog" "$prog.o"
PERFINST_OUT=$prog.pit ./"$prog" 100 > out || fail "$base failed"
[ -z "${GCOV_FIXTURE_CHECK:-}" ] || $GCOV_FIXTURE_CHECK
gcc -O2 --coverage "$src" -o cov2 && ./cov2 100 > cov2.out
assert_eq "the same output as the gcov build" "$(cat cov2.out)" "$(cat out)"
gcov -t "cov2-$base.gcda" 2> /dev/null |
    awk -F: -v f="$src" '/^ *-: *0:Source:/ { s = $4 } (s == f || s ~ ("/" f "$")) && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
    sort -n > gcov2.lines
[ "$(wc -l < gcov2.lines)" -gt 20 ] || fail "gcov -O2 gave $(wc -l < gcov2.lines) lines"
"$PMOPT" report --by=line --format=csv "$prog" "$prog.pit" |
    awk -F, -v f="$src" 'NR > 1 && ($2 == f || $2 ~ ("/" f "$")) { print $3, $1 }' | sort -n > pi.lines
awk 'NR == FNR { p[$1] = $2; next } !($1 in p) || p[$1] != $2 { print "line " $1 ": gcov -O2 " $2 ", pmopt " (($1 in p) ? p[$1] : "none") }' \
    pi.lines gcov2.lines > diff.txt
[ ! -s diff.txt ] || { cat diff.txt; fail "line counts differ from gcov -O2's"; }
ok "the $(wc -l < gcov2.lines) lines gcov -O2 lists: pmopt lists each with its count"
at() { awk -v l="$(grep -n -F -- "$1" "$src" | cut -d: -f1)" '$1 == l { print $2 }' pi.lines; }
