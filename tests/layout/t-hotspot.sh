# pmopt report --hot[=PCT]: the hottest sites, functions and lines that
# together have PCT percent of their view's counts; --record keeps a
# versioned HOTSPOT record of each detection in the trace (seed 004 M21):
# a function detected again gets the next version, the older record stays.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$T/layout/edges.c" -o edges.o
pi_ld -O2 -o edges edges.o
PERFINST_OUT=run.pit ./edges 1000 > /dev/null
# block executions: f 6998, g 5000, main 2005, atoi 1 (of 14004)
"$PMOPT" report --hot=80 --format=csv ./edges run.pit > hot.csv
assert_eq "80%: f and g" "f g" "$(tail -n +2 hot.csv | cut -d, -f4 | tr '\n' ' ' | sed 's/ $//')"
"$PMOPT" report --hot=49 ./edges run.pit > hot50
assert_contains "49%: the summary (f has 49.97%)" hot50 "^hot spots \(--hot=49\): [0-9]+ sites, 1 functions, [0-9]+ lines$"
assert_contains "the hottest line first" hot50 "^   1999  .*edges\.c:15$"
"$PMOPT" report --hot=80 --record ./edges run.pit > rec1
assert_contains "recorded" rec1 "^recorded 2 hot spots in run\.pit$"
"$PMOPT" report --hot=95 --record ./edges run.pit > rec2
"$PMOPT" dump run.pit > dump
assert_eq "HOTSPOT records" "5" "$(grep -c ' HOTSPOT ' dump)"
assert_contains "f, first detection" dump "HOTSPOT version 1: unit 0x[0-9a-f]+ function [0-9]+ \"f\" \(cfg 0x[0-9a-f]{16}, sites [0-9]+\.\.[0-9]+\), 6998 of 14004 block executions, threshold 80\.000%"
assert_contains "f, detected again" dump "HOTSPOT version 2: .* \"f\" .* 6998 of 14004 block executions, threshold 95\.000%"
assert_contains "main, first detection at 95%" dump "HOTSPOT version 1: .* \"main\" .* 2005 of 14004 block executions, threshold 95\.000%"
assert_contains "END counts the records" dump "END nrecords $(grep -c '^#' dump | awk '{ print $1 - 1 }')$"
"$PMOPT" report ./edges run.pit > all 2> all.err
assert_not_contains "the trace still reads cleanly" all.err "unknown|truncated"
expect_fail "--record without --hot" "$PMOPT" report --record ./edges run.pit
head -c 200 run.pit > cut.pit
expect_fail "--record into a cut trace" "$PMOPT" report --hot --record ./edges cut.pit
assert_contains "says why" err "no END record"
