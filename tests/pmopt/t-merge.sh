#!/bin/bash
# pmopt merge: A+B equals B+A byte for byte and equals the sums; traces of
# different builds are refused (kept apart with --force); the output is a
# valid trace marked merged.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_prog
LIB=/usr/lib/x86_64-linux-gnu/libperfinst-fixture.so
pigen trace -o a.pit --prog prog --pid 100 --unit "$UA=$CA" --unit "$UB=$CB"
pigen trace -o b.pit --prog prog --pid 200 --argv ./prog,7 --unit "$UA=1,2,3,4,5,6,7,8" \
    --lib "$LIB:00112233" --lib-unit "0x77=5,5"
pigen trace -o c.pit --prog prog --pid 300 --unit "$UB=100,200,300" --signal 6

run_pmopt merge -o ab.pit a.pit b.pit
[ $rc = 0 ] || { cat err; fail "merge a b exited $rc"; }
run_pmopt merge -o ba.pit b.pit a.pit
[ $rc = 0 ] || { cat err; fail "merge b a exited $rc"; }
cmp ab.pit ba.pit || fail "merge A+B differs from B+A"
ok "A+B = B+A byte for byte"
run_pmopt merge -o abc.pit a.pit b.pit c.pit
run_pmopt merge -o cab.pit c.pit a.pit b.pit
run_pmopt merge -o bca.pit b.pit c.pit a.pit
cmp abc.pit cab.pit && cmp abc.pit bca.pit || fail "merge of three depends on the order"
ok "A+B+C in three orders: same bytes"
# merging a merge with the rest gives the same bytes too
run_pmopt merge -o ab_c.pit ab.pit c.pit
cmp abc.pit ab_c.pit || fail "(A+B)+C differs from A+B+C"
ok "(A+B)+C = A+B+C"

# ---- the sums
run_pmopt dump abc.pit
[ $rc = 0 ] || { cat err; fail "dump of the merge exited $rc"; }
cat out
assert_contains "merged flag, pid 0, start 0" out "^header: version 1, flags 0x1 \(merged\), pid 0, ppid 0, start_ns 0, line_size 64"
assert_contains "no argv, threads summed" out "PROCESS end_ns 0, nthreads 3, argc 0$"
bid=$(pigen buildid prog)
assert_contains "modules sorted by build-id: the library (00112233) first" out "#1 @0x[0-9a-f]+ MODULE index 0, build-id 00112233, load_bias 0x0"
assert_contains "then the program" out "MODULE index 1, build-id $bid, load_bias 0x0, path \"$PWD/prog\""
python3 - <<'PY' || fail "merged counts are not the sums"
import re
t = open("out").read()
def counts(module, unit):
    m = re.search(r"COUNTS module %d, unit %s, ncounters \d+\n((?:    \[\d+\].*\n)+)" % (module, unit), t)
    assert m, (module, unit)
    return [int(x) for l in m.group(1).splitlines() for x in l.split("]")[1].split()]
assert counts(1, "0xa0a0a0a000000001") == [10+1, 4+2, 10+3, 1+4, 10+5, 1+6, 11+7, 1+8]
assert counts(1, "0xb0b0b0b000000002") == [1+100, 10+200, 1+300]
assert counts(0, "0x0000000000000077") == [5, 5]
assert "SIGNAL" not in t
print("sums ok")
PY
ok "merged counts are the sums"
run_pmopt report --format=json prog abc.pit
python3 -c "
import json; r=json.load(open('out')); s={(x['unit'],x['site']):x['count'] for x in r['sites']}
assert s[('0xa0a0a0a000000001',6)]==18 and s[('0xb0b0b0b000000002',2)]==301, s
assert r['traces'][0]['merged'] is True
" || fail "report of the merge"
ok "report reads the merged trace"
assert_contains "the library's counts are ignored with a note" err "is not prog \(a shared library\): ignored"

# ---- a different build of the program is refused, and kept apart with --force
pigen trace -o other.pit --prog prog --build-id 0123456789abcdef --unit "$UA=1,1,1,1,1,1,1,1"
run_pmopt merge -o x.pit a.pit other.pit
assert_eq "different builds: exit status" 1 "$rc"
assert_contains "different builds: names both traces" err "a.pit and other.pit are traces of different builds: prog has build-id"
[ ! -e x.pit ] || fail "a refused merge left x.pit"
run_pmopt merge --force -o x.pit a.pit other.pit
[ $rc = 0 ] || { cat err; fail "merge --force exited $rc"; }
run_pmopt merge --force -o y.pit other.pit a.pit
cmp x.pit y.pit || fail "merge --force depends on the order"
run_pmopt dump x.pit
assert_eq "--force keeps the builds apart" 2 "$(grep -c ' MODULE ' out)"
ok "--force: two modules"

# ---- mode off only when every input was off; usage errors
pigen trace -o off1.pit --prog prog --flags mode_off --unit "$UA=0,0,0,0,0,0,0,0"
pigen trace -o off2.pit --prog prog --flags mode_off
run_pmopt merge -o off.pit off1.pit off2.pit
run_pmopt dump off.pit
assert_contains "all off: merged|mode_off" out "flags 0x3 \(merged\|mode_off\)"
run_pmopt merge -o half.pit off1.pit a.pit
run_pmopt dump half.pit
assert_contains "one on: merged only" out "flags 0x1 \(merged\)"
run_pmopt merge a.pit
assert_eq "merge without -o: usage" 2 "$rc"
run_pmopt merge -o z.pit
assert_eq "merge without traces: usage" 2 "$rc"
run_pmopt merge -o z.pit a.pit missing.pit
assert_eq "a missing input: error" 1 "$rc"
assert_contains "a missing input is named" err "missing.pit: No such file"

# ---- one run given twice is refused (its counts would be added twice)
cp a.pit a-copy.pit
for pair in "a.pit a.pit" "a.pit a-copy.pit" "b.pit a-copy.pit c.pit a.pit"; do
    run_pmopt merge -o dup.pit $pair
    assert_eq "$pair: refused" 1 "$rc"
    assert_contains "$pair: says which" err "a(-copy)?\.pit is the same run as a(-copy)?\.pit \(pid 100, started at 1700000000000000000 ns\): its counts would be added twice \(--force merges it anyway\)"
    [ ! -e dup.pit ] || fail "a refused merge left dup.pit"
done
run_pmopt merge --force -o dup.pit a.pit a-copy.pit
assert_eq "--force: merged" 0 "$rc"
assert_contains "--force: said" err "a-copy.pit is the same run as a.pit .*: counted twice \(--force\)"
run_pmopt merge -o aa.pit a.pit
run_pmopt merge -o aa-copy.pit a.pit
run_pmopt merge -o aa2.pit aa.pit aa-copy.pit
assert_eq "two merged traces with the same bytes: refused" 1 "$rc"
assert_contains "... named" err "aa-copy.pit is the same run as aa.pit: its counts"
run_pmopt merge -o aab.pit aa.pit b.pit
assert_eq "a merged trace and another run: fine" 0 "$rc"

# ---- a partial input (written while its process ran on) makes a partial merge
pigen trace -o part.pit --prog prog --flags partial --unit "$UA=1,1,1,1,1,1,1,1"
run_pmopt dump part.pit
assert_contains "dump: partial" out "^header: version 1, flags 0x8 \(partial\)"
run_pmopt report prog part.pit
assert_contains "report: the trace is partial" out "trace part.pit: [0-9]+ records, partial$"
assert_contains "report: a note says what partial means" err "part.pit: partial: written while the process went on counting"
run_pmopt merge -o ap.pit a.pit part.pit
run_pmopt dump ap.pit
assert_contains "merge: partial" out "^header: version 1, flags 0x9 \(merged\|partial\)"
run_pmopt report --format=json prog ap.pit
python3 -c "
import json; r=json.load(open('out')); assert r['traces'][0]['partial'] is True, r['traces']
" || fail "json: partial"
ok "json: partial"

# stack samples are one run's (its addresses, its threads): merge leaves
# them out and says so (it dropped them silently, and report --tree of the
# merged trace then advised running with PERFINST_SAMPLE)
cat > burn.c << 'C'
#include <stdio.h>
int main(void)
{
    volatile unsigned long s = 0;
    for (unsigned long i = 0; i < 30000000; i++)
        s += i * i;
    printf("%lu\n", (unsigned long)s);
    return 0;
}
C
gcc -O2 -c burn.c -o burn.o
pi_ld --pi-runtime -O2 -o burn burn.o
for r in 1 2; do PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s$r.pit ./burn > /dev/null; done
run_pmopt merge -o s.pit s1.pit s2.pit
[ $rc = 0 ] || { cat err; fail "merge of sampled traces exited $rc"; }
assert_contains "merge says the samples are left out" err \
    "note: 2 of the 2 traces have stack samples \(PERFINST_SAMPLE, PERFINST_IDLE\), which pmopt merge leaves out: give pmopt report --tree the traces themselves"
run_pmopt report --tree ./burn s1.pit s2.pit
[ $rc = 0 ] || { cat err; fail "report --tree of the traces exited $rc"; }
