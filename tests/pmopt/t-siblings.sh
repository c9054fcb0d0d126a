# A workload of several processes given one PERFINST_OUT writes NAME.pit
# for the first and NAME.PID.pit for the others (docs/runtime.md "File
# name"); a command given NAME.pit alone says the others lie unread beside
# it, and says nothing once they are named too (bench/suite.sh had planned
# ninja-gen's three processes from the first one's trace for weeks).
. "$PERFINST_TOP/tests/lib.sh"
cat > p.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3, s = 0;
    for (int i = 0; i < n; i++)
        s += i % 7;
    printf("%d\n", s);
    return 0;
}
C
pi_cc -O2 -fplugin-arg-perfinst-all=count -c p.c -o p.o
pi_ld -O2 -o prog p.o
for n in 10 20 30; do PERFINST_OUT=same.pit ./prog $n > /dev/null; done
assert_eq "three traces: same.pit and two same.PID.pit" 3 "$(ls same.pit same.*.pit | wc -l)"
"$PMOPT" report --by=function prog same.pit > one.out 2> one.err || fail "pmopt report"
grep -q "same.pit: 2 more traces of the same name beside it (same\.[0-9]*\.pit, ...)" one.err ||
    { cat one.err; fail "no note of the two unread traces"; }
ok "the two unread traces noted"
"$PMOPT" report --by=function prog same.pit same.*.pit > all.out 2> all.err || fail "pmopt report of all three"
assert_eq "all three named: no note" 0 "$(grep -c 'more trace' all.err)"
# another file's name is not a sibling: same.x.pit, same.12a.pit, same.pit.1
touch same.x.pit same.12a.pit same.pit.1 samesame.3.pit
"$PMOPT" report --by=function prog same.pit same.*[0-9].pit > all2.out 2> all2.err || fail "pmopt report, other names beside"
assert_eq "other names: no note" 0 "$(grep -c 'more trace' all2.err)"
# the plan notes it too (one process of three)
"$PMOPT" plan -o fb prog same.pit > plan.out 2> plan.err || fail "pmopt plan"
grep -q "2 more traces" plan.err || { cat plan.err; fail "pmopt plan: no note"; }
ok "pmopt plan notes it too"
