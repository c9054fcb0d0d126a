#!/bin/bash
# icall-cost.sh — what an indirect call costs counting, by how many targets
# its site calls in turn, beside -O2 and -fprofile-generate.  See
# bench/README.md.
#
#   bench/icall-cost.sh [--targets "1 2 3 4 5 10 16"] [--calls N] [--record]
#
# One site (`site(fn, x)`, noinline) called N times, the i-th call through
# target i mod K, for each K of --targets; each variant's instructions a
# call (callgrind) are (Ir at N calls - Ir at 0 calls) / N, so the start and
# the exit of the process cancel.  Variants: o2 (gcc -O2), pgen (gcc -O2
# -fprofile-generate: its indirect-call profiler), count (all=count, the
# default PERFINST_ICALL=sampled), exact (the same program with
# PERFINST_ICALL=exact).  Deterministic: one run each.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
B=$top/build
targets="1 2 3 4 5 10 16" calls=200000 record=0
while [ $# -gt 0 ]; do
    case $1 in
    --targets) targets=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "icall-cost: unknown argument $1" >&2; exit 2 ;;
    esac
done
bench_work icall-cost
cat > rot.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#define F(i) __attribute__((noinline)) static long f##i(long x) { return x * 3 + i; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)
static long (*const ops[16])(long) = {f0, f1, f2, f3, f4, f5, f6, f7,
                                      f8, f9, f10, f11, f12, f13, f14, f15};
__attribute__((noinline)) long site(long (*fn)(long), long x) { return fn(x); }
int main(int argc, char **argv)
{
    long n = atol(argv[1]), k = atol(argv[2]), acc = 0;
    for (long i = 0; i < n; i++)
        acc = site(ops[i % k], acc) & 0xffff;
    printf("%ld\n", acc);
    return 0;
}
EOF
gcc -O2 -o o2 rot.c
gcc -O2 -fprofile-generate -o pgen rot.c
gcc -O2 -fplugin="$B/perfinst.so" -I"$top/include" -fplugin-arg-perfinst-all=count -c rot.c -o rot.o
"$B/perfinst-ld" -O2 -o count rot.o
ir() { # VARIANT N K [ENV...]: Ir of one run
    local v=$1 n=$2 k=$3; shift 3
    rm -f ./*.gcda
    env PERFINST_OUT=/dev/null "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "./$v" "$n" "$k" 2>&1 > /dev/null | sed -n 's/.*Collected : //p'
}
per_call() { # VARIANT K [ENV...]
    local v=$1 k=$2; shift 2
    local a b
    a=$(ir "$v" 0 "$k" "$@"); b=$(ir "$v" "$calls" "$k" "$@")
    awk -v a="$a" -v b="$b" -v n="$calls" 'BEGIN { printf "%.1f", (b - a) / n }'
}
out=$work/report.md
{
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — indirect-call cost by targets a site calls in turn (\`bench/icall-cost.sh --targets \"$targets\" --calls $calls\`)"
    echo
    echo "Instructions a call (callgrind, (Ir at $calls calls − Ir at 0) / $calls); \`count\` is all=count with the default PERFINST_ICALL=sampled, \`exact\` the same binary with PERFINST_ICALL=exact."
    echo
    echo "| targets | -O2 | -fprofile-generate | count | exact | count × -O2 | pgen × -O2 |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for k in $targets; do
        o=$(per_call o2 "$k"); p=$(per_call pgen "$k")
        c=$(per_call count "$k"); e=$(per_call count "$k" PERFINST_ICALL=exact)
        awk -v k="$k" -v o="$o" -v p="$p" -v c="$c" -v e="$e" \
            'BEGIN { printf "| %s | %s | %s | %s | %s | %.2f× | %.2f× |\n", k, o, p, c, e, c / o, p / o }'
    done
} > "$out"
bench_record "$out"
