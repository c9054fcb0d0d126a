#!/bin/bash
# Threads with small stacks of the program's own size (smallstack.c:
# PTHREAD_STACK_MIN, 64 KiB, an unaligned size) in a program whose counters
# take more static TLS than such a stack holds (a generated unit of 3,000
# functions, about 100 KiB of counters): glibc takes static TLS from each
# thread's stack, so without the runtime raising the size pthread_create
# fails with EINVAL (runtime/thread.c, with_tls_room); and a thread whose
# attributes set no stack size, which must keep glibc's default (it uses
# 1 MiB: given the TLS's size alone it would crash).  Exact counts, the
# same output as -O2's and with PERFINST_MODE=off.
. "$PERFINST_TOP/tests/lib.sh"
nf=3000
{
    for i in $(seq $nf); do
        echo "static unsigned long f$i(unsigned long x) { if (x & 1) x = x * $i + 1; else x -= $i; if (x & 2) return x ^ $i; return x + 7; }"
    done
    echo "long bulk(long x) { unsigned long s = 0, u = (unsigned long)x;"
    for i in $(seq $nf); do echo "  s += f$i(u + s);"; done
    echo "  return (long)(s & 0xff); }"
} > bulk.c
gcc -O2 -pthread "$T/runtime/smallstack.c" bulk.c -o ref
want=$(./ref)
[ -n "$want" ] || fail "ref: no output"
# (noinline: every generated function keeps its own counters)
pi_cc -O2 -g -fno-inline -fplugin-arg-perfinst-all=count -c bulk.c -o bulk.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/runtime/smallstack.c" -o smallstack.o
pi_ld -O2 -pthread -o prog smallstack.o bulk.o
tls=$(printf '%d' "$(readelf -lW prog | awk '$1 == "TLS" { print $6 }')")
[ -n "$tls" ] && [ "$tls" -gt 65536 ] || fail "the counters' TLS ($tls bytes) should outgrow a 64 KiB stack"
ok "static TLS $tls bytes"
run_exact prog "$T/runtime/smallstack.c" "$want" "small stacks"
PERFINST_MODE=off ./prog > off.out
assert_eq "small stacks, PERFINST_MODE=off" "$want" "$(cat off.out)"
