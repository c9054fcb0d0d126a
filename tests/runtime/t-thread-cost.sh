#!/bin/bash
# What a thread costs the runtime as it starts and ends, in a program of
# 100 counted units of which the thread runs one: it records no unit whose
# counters lie in the static TLS block (the unit's offset from the thread's
# pointer finds them: no getter call), and its flushes at the end (three:
# other keys' destructors may count after the first) test each module's
# span of counters 512 bytes at a time and flush only the units in chunks
# that counted; the later flushes find the span all 0.  Before, every
# thread called each unit's getter four times and tested each unit's
# counters three times: 37,000 instructions a thread with 200 units.
# Callgrind's call counts over 10 and over 100 threads: deterministic.
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitized runtime's calls are the sanitizer's"
command -v valgrind > /dev/null || skip "valgrind not installed"
for i in $(seq 0 99); do
    echo "int u${i}_f(int x) { int s = 0; for (int k = 0; k < x; k++) s += k % 3 ? k : -k; return s; }" > u$i.c
    pi_cc -O2 -fplugin-arg-perfinst-all=count -c u$i.c -o u$i.o
done
cat > main.c << 'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
int u7_f(int);
static void *work(void *p) { return (void *)(long)u7_f((int)(long)p); }
int main(int argc, char **argv)
{
    long s = 0, n = atol(argv[1]);
    for (long i = 0; i < n; i++) {
        pthread_t t;
        void *r;
        pthread_create(&t, NULL, work, (void *)(i % 10));
        pthread_join(t, &r);
        s += (long)r;
    }
    printf("%ld\n", s);
    return 0;
}
C
gcc -O2 -c main.c -o main.o
pi_ld -O2 -pthread -o prog main.o u*.o
for n in 10 100; do
    PERFINST_OUT=t$n.pit valgrind --tool=callgrind --callgrind-out-file=cg.$n ./prog $n > out$n 2> vg.err ||
        { cat vg.err; fail "$n threads under callgrind"; }
    assert_eq "$n threads: u7_f entered once by each" "$n" "$(function_entries prog t$n.pit u7_f)"
done
assert_eq "the units' getters: as many calls with 100 threads as with 10" \
    "$(cg_calls cg.10 __perfinst_tls)" "$(cg_calls cg.100 __perfinst_tls)"
# zero tests a thread: each flush's span whole (3), the first's chunks (13)
# and the units in the chunk that counted (8), where each flush tested
# each unit (300)
z10=$(cg_calls cg.10 pi_all_zero) z100=$(cg_calls cg.100 pi_all_zero)
per=$(( (z100 - z10) / 90 ))
[ "$per" -le 40 ] || fail "zero tests a thread: $per (three flushes of 100 units were 300)"
ok "zero tests a thread: $per (100 units)"
