# Call arcs: with all=count each call in a counted function is a call site
# (PI_SITE_CALL, no counter: the calling block's count is the call's);
# pmopt plan --stats lists the arcs with their exact counts, an indirect
# call with the target the training run recorded for it (ICALL: inc).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$T/layout/calls.c" -o calls.o
pi_ld -O2 -o calls calls.o
PERFINST_OUT=run.pit ./calls > /dev/null
"$PMOPT" dump-meta calls > meta
assert_contains "a call site for sq" meta "site [0-9]+: call, .*calls\.c:13:[0-9]+, bb [0-9]+, counter -, -, arg 0x[0-9a-f]+, region sq,"
assert_contains "an indirect call site" meta "site [0-9]+: call, .*calls\.c:16:[0-9]+, bb [0-9]+, counter -, -, arg 0x[0-9a-f]+, successors"
assert_not_contains "no call sites without code reported as missing" meta "site [0-9]+ \(main, .*calls\.c:1[36]\)"
"$PMOPT" plan --stats ./calls run.pit > stats
sed -n '/^call arcs/,$p' stats > arcs
assert_eq "the arcs" "call arcs (caller -> callee: calls), hottest first:
  main -> sq: 100
  main -> inc: 100
  main -> inc: 10
  main -> printf: 1" "$(cat arcs)"
"$PMOPT" report ./calls run.pit > report 2> report.err
assert_not_contains "call sites are not regions" report "^Regions"
