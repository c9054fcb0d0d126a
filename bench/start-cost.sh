#!/bin/bash
# start-cost.sh — what a process pays at its start and exit, counted or
# not, beside -O2 and -fprofile-generate: the cost a test suite or a
# configure script of many short processes pays once per process.  See
# bench/README.md.
#
#   bench/start-cost.sh [--runs N] [--record]
#
# One trivial program (ten calls of a small function, one printf) built as
# o2 (gcc -O2), pgen (-fprofile-generate), count (all=count with
# libperfinst.so), count-static (--pi-static-runtime), and count run with
# PERFINST_MODE=off.  Instructions of one run (callgrind, deterministic;
# the trace to /dev/null, as configure and test suites are told to run,
# and once to a file; pgen's .gcda written), and with perf (software
# events) the task clock and page faults over N runs each (default 300).
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
B=$top/build
runs=300 record=0
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "start-cost: unknown argument $1" >&2; exit 2 ;;
    esac
done
bench_work start-cost
cat > t.c <<'EOF'
#include <stdio.h>
static int f(int x) { return x * 3 + 1; }
int main(int argc, char **argv)
{
    (void)argv;
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += f(i + argc);
    printf("%d\n", s);
    return 0;
}
EOF
gcc -O2 -o o2 t.c
gcc -O2 -fprofile-generate -o pgen t.c
gcc -O2 -fplugin="$B/perfinst.so" -I"$top/include" -fplugin-arg-perfinst-all=count -c t.c -o t.o
"$B/perfinst-ld" -O2 -o count t.o
"$B/perfinst-ld" -O2 --pi-static-runtime -o count-static t.o
ir() { # PROG [ENV...]
    local p=$1; shift
    env PERFINST_OUT=/dev/null "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "./$p" 2>&1 > /dev/null |
        sed -n 's/.*Collected : //p'
}
perf_of() { # PROG [ENV...]: "task-clock-ms page-faults", or "- -" without perf
    local p=$1; shift
    if ! command -v perf > /dev/null; then echo "- -"; return; fi
    env PERFINST_OUT=/dev/null "$@" perf stat -x, -e task-clock,page-faults -r "$runs" "./$p" 2>&1 > /dev/null |
        awk -F, '/task-clock/ { t = $1 } /page-faults/ { f = $1 } END { if (t == "") print "- -"; else printf "%.3f %d\n", t, f }'
}
out=$work/report.md
base=$(ir o2)
{
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — a process's start and exit (\`bench/start-cost.sh --runs $runs\`)"
    echo
    echo "A trivial program; instructions of one run (callgrind), extra over -O2; task clock (ms) and page faults a run, the mean of $runs (\`perf stat\`, software events)."
    echo
    echo "| variant | instructions | over -O2 | task clock ms | page faults |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    for v in "o2" "pgen" "count" "count PERFINST_OUT=t.pit" "count-static" "count PERFINST_MODE=off"; do
        set -- $v
        n=$(ir "$@"); read -r tc pf <<< "$(perf_of "$@")"
        rm -f ./*.gcda
        echo "| $v | $n | $((n - base)) | $tc | $pf |"
    done
} > "$out"
bench_record "$out"
