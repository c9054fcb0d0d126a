#!/bin/bash
# A dlopen'ed module's counted call: glibc gives the module's TLS block to
# each thread apart, so its counters' offset from the thread pointer is the
# thread's own.  The runtime keeps each thread's offset of the module's
# block in a slot of its own static TLS (eight modules); the unit's
# constructor stores the slot's place, and the counting copy adds the
# unit's place in the block (@dtpoff) with no call: the runtime's stub
# runs once per thread and module, to fill the slot (runtime/thread.c).
# A module without a slot (a ninth, or one loaded again: slots are not
# given twice) calls the stub each time, which answers from the getter's
# own slot of the thread's cache with three registers saved (47
# instructions a call with the C look-up, 22 without).  The stub's first
# call in a thread also makes a thread the runtime did not start known
# (started before the runtime was loaded): its counts were lost.
# Counted under callgrind: instructions do not vary from run to run.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitized runtime's instructions are the sanitizer's"
command -v valgrind > /dev/null || skip "valgrind not installed"
command -v callgrind_annotate > /dev/null || skip "callgrind_annotate not installed"
cat > a.c << 'C'
__attribute__((noinline)) long fa(long x) { return x % 7 == 0 ? x * 3 : x + 1; }
C
cat > b.c << 'C'
__attribute__((noinline)) long fb(long x) { return x % 5 == 0 ? x * 2 : x - 1; }
C
cat > m.c << 'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h)
        return 2;
    long (*fa)(long) = (long (*)(long))dlsym(h, "fa"), (*fb)(long) = (long (*)(long))dlsym(h, "fb");
    long s = 0;
    for (long i = 0; i < 100000; i++)
        s += fa(i) + fb(i);
    printf("%ld\n", s);
    return 0;
}
C
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c a.c -o a.o
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c b.c -o b.o
pi_ld -shared -o libab.so a.o b.o
gcc -O2 -o m m.c -ldl
PERFINST_OUT=t.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./m ./libab.so > out 2> vg.err ||
    { cat vg.err; fail "the program under callgrind"; }
assert_eq "fa's entries" 100000 "$(function_entries libab.so t.pit fa)"
assert_eq "fb's entries" 100000 "$(function_entries libab.so t.pit fb)"
stub_calls() { cg_calls "$1" __perfinst_ctr_base_stub; }
# INCL CG FUNC: FUNC's inclusive instructions
incl() { callgrind_annotate --inclusive=yes --threshold=100 "$1" 2> /dev/null | awk -v f="$2" '$0 ~ f" \\[" { gsub(",", "", $1); print $1; exit }'; }
assert_eq "two units of one module, 200,000 calls: the stub called once (the slot filled)" 1 "$(stub_calls cg.out)"

# threads, nine modules, a module loaded again (ctrslots.c)
pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c a.c -o a.o
libs=
for i in 1 2 3 4 5 6 7 8 9; do
    pi_ld -shared -o lib$i.so a.o
    libs="$libs ./lib$i.so"
done
gcc -O2 -pthread -o slots "$R/ctrslots.c" -ldl
# shellcheck disable=SC2086
PERFINST_OUT=s.pit valgrind --tool=callgrind --callgrind-out-file=cg.slots ./slots $libs > out 2> vg.err ||
    { cat vg.err; fail "ctrslots under callgrind"; }
dump s.pit
# fa: 143 of each 1000 calls take the first way
assert_eq "each module's counts: every thread's, the early one's too, the first module's two loads" \
    "0:715,4285 1:429,2571 2:429,2571 3:429,2571 4:429,2571 5:429,2571 6:429,2571 7:429,2571 8:429,2571" \
    "$(awk '/^counts / { split($3, m, "="); split($5, c, "="); printf "%s%s:%s", n++ ? " " : "", m[2], c[2] }' s.pit.txt)"
# The host is a plain program: the runtime points its modules' imports of
# pthread_create and the like at its own (runtime/gotpatch.c) and scans
# each module loaded later once, at its first unit, not every module again
# at each load: the relocation tables read (two a module at most) grow by
# two a module from one module to nine, and by all of them once again for
# the module unloaded (another may come at its place), where they grew by
# two for every module loaded at each load (178 against 50 here)
# shellcheck disable=SC2086
PERFINST_OUT=s1.pit valgrind --tool=callgrind --callgrind-out-file=cg.one ./slots ./lib1.so > out1 2> vg.err ||
    { cat vg.err; fail "ctrslots, one module, under callgrind"; }
one=$(cg_calls cg.one scan_relocs) nine=$(cg_calls cg.slots scan_relocs)
[ "$one" -gt 0 ] && [ $((nine - one)) -le $((2 * 9 + one)) ] ||
    fail "relocation tables scanned: $one with one module, $nine with nine and one loaded again (over 2 a module)"
ok "relocation tables scanned: $one with one module, $nine with nine and one loaded again"
# the stub: each thread's first call into modules 1-8 (3 x 8), then every
# call into the ninth (3,000) and into the first loaded again (2,000)
calls=$(stub_calls cg.slots)
assert_eq "the stub's calls" 5024 "$calls"
stub=$(incl cg.slots ':__perfinst_ctr_base_stub')
libc=$(incl cg.slots 'thread.c:pi_ctr_base_libc')
nlibc=29   # each thread's first call into each module, the ninth's and the reloaded one's included
per=$(( (stub - libc) / (calls - nlibc) ))
[ "$per" -lt 25 ] || fail "the stub's cached answer: $per instructions a call (over 25)"
ok "the stub's cached answer: $per instructions a call"
