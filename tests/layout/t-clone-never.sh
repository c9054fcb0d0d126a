# The function order's samples of an IPA clone (optimizer/plan/plan-order.c,
# range_count): clonenever.c's never() never runs, but its clone
# never.constprop.0 holds the inlined ranges of mix(), whose counters
# (count-at=cfg: placed before inlining) its copy in busy() ran 20000
# times.  Those ranges count as an inlined copy's, at most the count of
# the function's own blocks, which are never's though its section is
# named after the clone: never.constprop.0 is not in the plan's order
# (it was, first, and a relink of {fmt} refused its own output over it).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-sections \
    -c "$T/layout/clonenever.c" -o c.o
pi_ld -O2 -o c c.o
nm c > syms
for f in never.constprop.0 busy.constprop.0; do
    grep -q " $f\$" syms || fail "no $f (the fixture wants both functions cloned): $(grep -E 'never|busy' syms | paste -sd' ')"
done
! grep -q ' mix$' syms || fail "mix has a copy of its own (the fixture wants it inlined)"
PERFINST_OUT=c.pit ./c 20000 > out
"$PMOPT" report --by=function --format=csv c c.pit | awk -F, 'NR > 1 { print $8, $2 }' > fns
assert_eq "never ran" "never 0" "$(grep '^never ' fns)"
"$PMOPT" plan --order=exttsp --rebuild -o fb c c.pit > plan.out
grep '^[0-9]* order-functions ' fb > order || fail "no function order"
assert_contains "busy's clone is ordered" order "busy\.constprop\.0"
! grep -q 'never' order || fail "never's clone is in the order: $(cat order)"
ok "$(sed 's/^[0-9]* //' order)"
