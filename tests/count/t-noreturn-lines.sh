# A call that may not return, followed in its block only by statements
# without a line (noreturn.c: arrays' clobbers, a `return` without a
# location): gcov cuts the block after the call, and the piece after it is
# a gcov block without lines (gcc-plugin/lines.cc keeps its mark), which
# runs what the call returned; the call's line counts every entry of its
# piece.  In inner the block is not the function's last (bail longjmps 5
# times of 15: the line counted 10); in main it is, and the piece after
# stop's call, not the call's, is GCC's last block, listed under no line
# (the line counted 0).  A block that opens with setjmp, entered again
# after the call by each longjmp: gcov -O2 counts those entries unless the
# entry's edge reaches the block (gcc-plugin/arcs.cc, counts_returns);
# retry's setjmp line counted 30 for gcov's 40.  Exact counts under the default and
# clean-copies=final, with and without -g, and every line pmopt report
# lists equal to gcov's at -O2 (GCC's own profile pass).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/noreturn.c
gcc -O2 -c "$src" -o ref.o && gcc -o ref ref.o
want=$(./ref)
[ -n "$want" ] || fail "ref: no output"
for v in g nog final; do
    case $v in g) x=-g ;; nog) x="" ;; final) x="-g -fplugin-arg-perfinst-clean-copies=final" ;; esac
    # shellcheck disable=SC2086
    pi_cc -O2 $x -fplugin-arg-perfinst-all=count -c "$src" -o "$v.o"
    pi_ld -O2 -o "$v" "$v.o"
    run_exact "$v" "$src" "$want" "$v"
done
# the shapes are there: a block whose record ends with the cut after a
# call (inner's), and one whose empty last piece is GCC's last (main's)
"$PMOPT" dump-meta g > meta
at() { grep -n -F -- "$1" "$src" | head -1 | cut -d: -f1; }
assert_contains "inner: the piece after bail's call has no line" meta "^  site [0-9]+: block, .*noreturn\\.c:$(at 'bail(b[0]);') \\|\$"
assert_contains "main: the piece after stop's call is the last block" meta "^  site [0-9]+: block, .*noreturn\\.c:$(at 'return stop(') \\| \\(last\\)\$"

command -v gcov > /dev/null || skip "gcov not installed (the counts above were checked)"
gcc -O2 --coverage "$src" -o cov
assert_eq "the gcov build's output" "$want" "$(./cov)"
gcov -t cov-noreturn.gcda 2> /dev/null |
    awk -F: '/^ *-: *0:Source:/ { src = $4 } src ~ /(^|\/)noreturn\.c$/ && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
    sort -n > gcov.lines
[ "$(wc -l < gcov.lines)" -gt 25 ] || fail "gcov -O2 gave $(wc -l < gcov.lines) lines"
"$PMOPT" report --by=line --format=csv g g.pit | awk -F, 'NR > 1 && $2 ~ /(^|\/)noreturn\.c$/ { print $3, $1 }' | sort -n > pi.lines
awk 'NR == FNR { g[$1] = $2; next } ($1 in g) && g[$1] != $2 { print "line " $1 ": pmopt " $2 ", gcov -O2 " g[$1] }' \
    gcov.lines pi.lines > diff.txt
awk 'NR == FNR { p[$1] = 1; next } !($1 in p) { print "line " $1 ": gcov -O2 " $2 ", pmopt none" }' pi.lines gcov.lines >> diff.txt
[ ! -s diff.txt ] || { cat diff.txt; fail "line counts differ from gcov -O2's"; }
ok "the $(wc -l < gcov.lines) lines gcov -O2 lists: pmopt report lists each with gcov's count"
