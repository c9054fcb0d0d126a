#!/bin/bash
# A dlopen'ed module's counted call takes its counters' offset from the
# runtime's stub (glibc gives the module's TLS block to each thread apart):
# the stub answers from the getter's own slot of the thread's cache with
# three registers saved and no call (runtime/thread.c), where it saved ten
# and called the C look-up (47 instructions a call with it, 22 without).
# Two units of one module called alternately, 100,000 calls each: exact
# counts, the stub under 25 instructions a call and the C look-up
# (pi_ctr_base_cached) a handful of times, not once a call.  Counted under
# callgrind: instructions do not vary from run to run.
. "$PERFINST_TOP/tests/lib.sh"
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
callgrind_annotate --threshold=100 cg.out > cg.txt 2> /dev/null
self() { awk -v f="$1" '$0 ~ f" \\[" { gsub(",", "", $1); print $1; exit }' cg.txt; }
stub=$(self ':__perfinst_ctr_base_stub')
cached=$(self 'thread.c:pi_ctr_base_cached')
[ -n "$stub" ] || { cat cg.txt; fail "no __perfinst_ctr_base_stub in callgrind's profile (the module's counters static?)"; }
per=$((stub / 200000))
[ "$per" -lt 25 ] || fail "the stub: $per instructions a call (over 25)"
ok "the stub: $per instructions a call"
[ "${cached:-0}" -lt 2000 ] || fail "the C look-up: ${cached} instructions over 200,000 calls"
ok "the C look-up: ${cached:-0} instructions over 200,000 calls"
