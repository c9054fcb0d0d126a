# The plan's order follows what it names, not the figures: order.c's four
# falsely shared arrays (two padded, two advice) run with their reload
# counts one way (u, e 1798; v, f 198) and the other way (u, e 198; v, f
# 1798).  The verdicts are the same, so the plans (-o and --advise), figures
# left out, must be the same, recommendation by recommendation and number by
# number; planning one trace twice gives the same bytes.  (Before, the plan
# was sorted by the reloads: the two runs' plans had u and v, e and f
# swapped -- what sampled runs of one program did at random.)
. "$PERFINST_TOP/tests/lib.sh"
# exact mode: the counts are fixed by the turns (order.c)
export PERFINST_SHARING_PERIOD=1
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/order.c" -o o.o
pi_ld -O2 -o o o.o
PERFINST_OUT=a.pit ./o 900 900 > a.out 2>&1 || fail "run a"
PERFINST_OUT=b.pit ./o 100 100 > b.out 2>&1 || fail "run b"
# the premise: the figures are swapped between the runs
"$PMOPT" report --sharing o a.pit > a.rep
"$PMOPT" report --sharing o b.pit > b.rep
assert_contains "run a: u's false reloads 1798" a.rep "^  u \(global, 16 bytes, .*FALSE sharing.*false reloads: 1798 "
assert_contains "run a: v's 198" a.rep "^  v \(global, 16 bytes, .*FALSE sharing.*false reloads: 198 "
assert_contains "run b: u's 198" b.rep "^  u \(global, 16 bytes, .*FALSE sharing.*false reloads: 198 "
assert_contains "run b: v's 1798" b.rep "^  v \(global, 16 bytes, .*FALSE sharing.*false reloads: 1798 "
assert_contains "run a: e's 1798" a.rep "^  e \(global, 16 bytes, .*FALSE sharing.*false reloads: 1798 "
assert_contains "run b: f's 1798" b.rep "^  f \(global, 16 bytes, .*FALSE sharing.*false reloads: 1798 "
# the objects' section: the same objects and verdicts in the same order
for r in a b; do
    sed -n '/^Objects:/,$p' $r.rep | sed -E 's/[0-9]+/N/g' > $r.objs
done
[ -s a.objs ] || fail "no Objects section in the report"
diff -u a.objs b.objs || fail "the report's objects differ between the runs beyond their figures"
ok "the report's objects: the same order and verdicts in both runs"
# the plans, figures left out
for r in a b; do
    "$PMOPT" plan --sharing -o $r.fb o $r.pit || fail "plan $r"
    "$PMOPT" plan --sharing --advise o $r.pit > $r.adv || fail "plan --advise $r"
    grep -E '^([0-9]+ |# advice)' $r.fb | sed -E 's/ reloads=[0-9]+//; s/[0-9]+/N/g' > $r.fbn
    sed -E 's/^([0-9]+)\./\1:/; s/([^0-9:])[0-9]+/\1N/g' $r.adv > $r.advn
done
assert_contains "plan: 1 pad-array u" a.fb "^1 pad-array name=u file=order.c "
assert_contains "plan: 2 pad-array v" a.fb "^2 pad-array name=v file=order.c "
assert_contains "plan b: 1 pad-array u (its figure the smaller)" b.fb "^1 pad-array name=u file=order.c reloads=198 "
assert_contains "plan b: 2 pad-array v" b.fb "^2 pad-array name=v file=order.c reloads=1798 "
grep -c '^# advice (not applied automatically): [ef]:' a.fb | grep -qx 2 || fail "plan a: not two advice lines for e and f"
grep -n '^# advice' b.fb | sed -E 's/^[0-9]+:# advice \(not applied automatically\): ([ef]):.*/\1/' | tr -d '\n' > b.order
[ "$(cat b.order)" = ef ] || fail "plan b: the advice in the order '$(cat b.order)', not e then f"
ok "the advice in name order (e, f), whatever the figures"
[ -s a.fbn ] || fail "empty plan"
diff -u a.fbn b.fbn || fail "the feedback files differ between the runs beyond their figures"
ok "feedback: the same recommendations and advice, numbered the same, in both runs"
diff -u a.advn b.advn || fail "--advise differs between the runs beyond their figures"
ok "--advise: the same lines in the same order in both runs"
# the same trace planned twice: the same bytes
"$PMOPT" plan --sharing -o a2.fb o a.pit
cmp a.fb a2.fb || fail "one trace planned twice: different feedback files"
"$PMOPT" plan --sharing --advise o a.pit > a2.adv
cmp a.adv a2.adv || fail "one trace advised twice: different output"
ok "one trace planned twice: the same bytes"
