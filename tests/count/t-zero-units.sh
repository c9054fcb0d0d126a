# A trace holds a COUNTS record only for the units that counted something:
# a process of a program of many units (BusyBox's 558, one applet run per
# process) writes the units it ran, not every unit's zeros (363 KB a
# process there).  Readers take a unit without a record as all 0: the
# report lists the functions of the units that did not run with 0, a merge
# of a run that ran them and one that did not sums them, and a run with
# PERFINST_MODE=off writes no COUNTS at all.
. "$PERFINST_TOP/tests/lib.sh"
for u in a b c; do
    cat > $u.c <<C
int $u(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 3; return s; }
C
done
cat > main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int a(int), b(int), c(int);
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5, s = a(n);
    if (argc > 2)
        s += b(n);
    printf("%d\n", s);
    return 0;
}
C
for u in a b c main; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c $u.c -o $u.o
done
pi_ld -O2 -o prog main.o a.o b.o c.o
# entries of function $1 in the report of traces $2...
entries() {
    local f=$1; shift
    "$PMOPT" report --by=function --format=csv prog "$@" |
        awk -F, -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["linkage"] == f { print $c["entries"] }'
}
PERFINST_OUT=one.pit ./prog 7 > /dev/null
"$PMOPT" dump one.pit > one.txt
assert_eq "one run of a: COUNTS of main's and a's units only" 2 "$(grep -c ' COUNTS ' one.txt)"
assert_eq "a entered once" 1 "$(entries a one.pit)"
assert_eq "b listed with 0" 0 "$(entries b one.pit)"
assert_eq "c listed with 0" 0 "$(entries c one.pit)"
PERFINST_OUT=two.pit ./prog 7 b > /dev/null
"$PMOPT" dump two.pit > two.txt
assert_eq "a and b run: three units' COUNTS" 3 "$(grep -c ' COUNTS ' two.txt)"
"$PMOPT" merge -o both.pit one.pit two.pit
assert_eq "merged: a twice" 2 "$(entries a both.pit)"
assert_eq "merged: b once" 1 "$(entries b both.pit)"
assert_eq "merged: c 0" 0 "$(entries c both.pit)"
assert_eq "report of both traces: b once" 1 "$(entries b one.pit two.pit)"
PERFINST_MODE=off PERFINST_OUT=off.pit ./prog 7 b > /dev/null
"$PMOPT" dump off.pit > off.txt
assert_eq "off: no COUNTS" 0 "$(grep -c ' COUNTS ' off.txt)"
assert_eq "off: a 0" 0 "$(entries a off.pit)"
# the plan knows the functions of a unit without a record never ran: b and
# c go to the cold tier (.text.unlikely), as when every unit wrote its zeros
"$PMOPT" plan -o one.fb prog one.pit > plan.out 2>&1 || { cat plan.out; fail "pmopt plan"; }
tier() { awk -v f="fn=$1" '$2 == "function-tier" && $3 == f { sub(/.*tier=/, ""); print }' one.fb; }
assert_eq "b: cold tier" cold "$(tier b)"
assert_eq "c: cold tier" cold "$(tier c)"
assert_eq "a: not cold" "" "$(tier a | grep cold)"
# a trace of the mode off counted none of prog's units: no tier at all
"$PMOPT" plan -o off.fb prog off.pit > planoff.out 2>&1 || true
assert_eq "off: no function said cold" 0 "$(cat off.fb 2> /dev/null | awk '/tier=cold/ { n++ } END { print n + 0 }')"
