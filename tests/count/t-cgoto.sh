# A threaded interpreter (cgoto.c: computed goto through a static table
# of label addresses, as in Lua's lvm.c) under all=count.
#
# Off mode covers it: GCC cannot copy a function that keeps its labels'
# addresses in a static table, so it used to stay one counting body that
# PERFINST_MODE=off could not turn off; pass-countfn.cc gives the counting
# copy run.count.N a table of its own (copy_label_tables).
#
# Line counts equal gcov's.
# GCC factors every `goto *p` into one dispatch block with no source line;
# gcov counts it on no line, and so must pmopt report: it was put on a
# predecessor's line (the first NEXT(), line 19: 4504 executions where
# gcov says 1).  Counted at cfg (count-at=cfg), every line pmopt report
# lists is compared with gcov -t of the same program built with -O0
# --coverage (whose blocks are the source's, as the count pass sees them
# there); counted after the early inliner (count-at=late, the default),
# with gcov -t of the program built with -O2 --coverage (GCC's own
# profile pass counts the same CFG), and the lines whose code lost its line
# there (`pc += 2;` folded into the next load, main's `return 0;`: only a
# debug statement of the -g build shows them) with gcov -O0's counts.
. "$PERFINST_TOP/tests/lib.sh"
command -v gcov > /dev/null || { echo "SKIP: gcov not installed"; exit 77; }
src=$T/count/cgoto.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$src" -o cgoto.o
pi_ld -O2 -o cgoto cgoto.o
PERFINST_OUT=c.pit ./cgoto 1000 > out || fail "cgoto failed"
assert_eq "output" 501000 "$(cat out)"
cp "$src" cgoto.c
gcc -O0 --coverage cgoto.c -o cov
./cov 1000 > /dev/null
# same_lines_as_gcov GCDA PROG PIT: every line of cgoto.c that pmopt
# report lists has gcov's count
gcov_lines() {
    gcov -t "$1" 2> /dev/null | awk -F: '$3 != "" && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
        sort -n
}
# same_lines_as_gcov GCDA PROG TRACE [GCDA0]: every line pmopt report lists
# has GCDA's count, or where gcov lists no such line, GCDA0's
same_lines_as_gcov() {
    gcov_lines "$1" > gcov.lines
    [ "$(wc -l < gcov.lines)" -gt 20 ] || fail "gcov gave $(wc -l < gcov.lines) lines"
    : > gcov0.lines
    [ -z "${4:-}" ] || gcov_lines "$4" > gcov0.lines
    "$PMOPT" report --by=line --format=csv "$2" "$3" | awk -F, 'NR > 1 && $2 ~ /(^|\/)cgoto\.c$/ { print $3, $1 }' |
        sort -n > pi.lines
    n=$(wc -l < pi.lines)
    [ "$n" -ge 15 ] || fail "pmopt report lists $n lines of cgoto.c"
    awk 'FILENAME == ARGV[1] { g0[$1] = $2; next } FILENAME == ARGV[2] { g[$1] = $2; next }
         !($1 in g) && $1 in g0 { if (g0[$1] != $2) print "line " $1 ": pmopt " $2 ", gcov -O0 " g0[$1]; next }
         !($1 in g) || g[$1] != $2 { print "line " $1 ": pmopt " $2 ", gcov " ($1 in g ? g[$1] : "none") }' \
        gcov0.lines gcov.lines pi.lines > diff.txt
    [ ! -s diff.txt ] || { cat diff.txt; fail "per-line counts differ from gcov's"; }
}
same_lines_as_gcov cov-cgoto.gcda cgoto c.pit
ok "cfg: the $n lines pmopt report lists have gcov -O0's counts"
assert_eq "no line has the dispatch block's 4504 executions" "" "$(awk '$2 == 4504' pi.lines)"
assert_eq "one row per line (the file named once)" "$n" "$(cut -d' ' -f1 pi.lines | sort -u | wc -l)"

nm cgoto > syms
assert_contains "run has a counting copy" syms ' t run\.count\.[0-9]+$| T run\.count\.[0-9]+$'
[ "$(grep -c ' [dDrR] table\.' syms)" = 2 ] || fail "want two label tables (run's and run.count.N's): $(grep table syms)"
ok "two label tables"
PERFINST_MODE=off PERFINST_OUT=off.pit ./cgoto 1000 > off.out || fail "cgoto failed with PERFINST_MODE=off"
assert_eq "off: the same output" 501000 "$(cat off.out)"
"$PMOPT" report --by=function cgoto off.pit 2> /dev/null | awk '$4 == "run"' > off.run
assert_eq "off: run counted nothing" "0 0" "$(awk '{ print $1, $2 }' off.run)"
"$PMOPT" report --by=function cgoto c.pit | awk '$4 == "run" { print $1, $2 }' > on.run
assert_eq "on: run entered once, 17513 block executions" "1 17513" "$(cat on.run)"

# count-at=late (the default): the lines of gcov at -O2, the off mode
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$src" -o late.o
pi_ld -O2 -o late late.o
PERFINST_OUT=late.pit ./late 1000 > late.out || fail "cgoto (late) failed"
assert_eq "late: output" 501000 "$(cat late.out)"
gcc -O2 --coverage cgoto.c -o cov2
./cov2 1000 > /dev/null
same_lines_as_gcov cov2-cgoto.gcda late late.pit cov-cgoto.gcda
ok "late: the $n lines pmopt report lists have gcov -O2's counts, $(awk 'NR == FNR { g[$1] = 1; next } !($1 in g)' gcov.lines pi.lines | wc -l) that lost their code's line gcov -O0's"
for l in $(grep -n 'pc += 2;' cgoto.c | cut -d: -f1 | head -2) $(grep -n 'return 0;' cgoto.c | cut -d: -f1); do
    grep -q "^$l " pi.lines || fail "late: line $l (its code lost its line) not listed"
done
"$PMOPT" report --by=function late late.pit | awk '$4 == "run" { print $1, $2 }' > late.run
assert_eq "late: run entered once, 22016 block executions (the CFG after the early optimisations)" "1 22016" "$(cat late.run)"
PERFINST_MODE=off PERFINST_OUT=lateoff.pit ./late 1000 > lateoff.out || fail "cgoto (late) failed with PERFINST_MODE=off"
assert_eq "late, off: the same output" 501000 "$(cat lateoff.out)"
"$PMOPT" report --by=function late lateoff.pit 2> /dev/null | awk '$4 == "run" { print $1, $2 }' > lateoff.run
assert_eq "late, off: run counted nothing" "0 0" "$(cat lateoff.run)"
