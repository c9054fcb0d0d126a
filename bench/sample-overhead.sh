#!/bin/bash
# bench/sample-overhead.sh — what stack sampling costs (docs/sampling-stacks.md).
#
#   bench/sample-overhead.sh [--rounds N] [--size S] [--tokens T] [--record]
#
# Two programs, both built -O2 -g (no plugin, no frame pointers) and linked
# with perfinst-ld --pi-runtime so that libperfinst is loaded (nothing in
# them refers to it):
#   sqlite     bench/sqlite/workload.c on SQLite's amalgamation (SIZE, default 1)
#   blockwork  bench/sampling/blockwork.c: a 4-thread condition-variable
#              pipeline, T tokens (default 30000): threads block all the time
# Variants, run round-robin (order rotated each round), N rounds (default 5):
#   base       no sampling (PERFINST_* unset: the runtime is loaded, idle)
#   cpu1k      PERFINST_SAMPLE=cpu:1ms   per-thread CPU-time timer, stacks by our CFI unwinder
#              (the kernel checks CPU-time timers at its tick: 250 signals/s, weighted)
#   wall1k     PERFINST_SAMPLE=wall:1ms  a high-resolution timer per thread: 1000 signals/s
#   idle1k     PERFINST_IDLE=both        idle-transition samplers at 1 ms
#   perf-fp    perf record -e cpu-clock -c 1000000 -g            (1 kHz, frame-pointer stacks)
#   perf-dwarf perf record -e cpu-clock -c 1000000 --call-graph dwarf  (1 kHz, 8 KiB stack copies)
# Reported: median wall and user+sys CPU time as ratios to base, samples
# taken, and for our timer sampler the time its handler took (rdtsc, per
# sample and as a share of the run's CPU time).  On a loaded machine wall
# time is noise; CPU time and the handler's own share are the numbers.  perf variants are left out with a message where perf cannot run.
# --record appends the table to bench/RESULTS.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
rounds=5 size=1 tokens=30000 record=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --tokens) tokens=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sample-overhead: unknown argument $1" >&2; exit 2 ;;
    esac
done
B=$top/build
W=$here/.work/sampling
mkdir -p "$W"
CC=${CC:-gcc}
SQ=$("$here/fetch-sqlite.sh" | tail -1)
TIMEIT=$W/timeit
[ -x "$TIMEIT" ] && [ "$TIMEIT" -nt "$here/timeit.c" ] || "$CC" -O2 -Wall -o "$TIMEIT" "$here/timeit.c"

if [ ! -x "$W/sqlite" ] || [ "$here/sqlite/workload.c" -nt "$W/sqlite" ]; then
    "$CC" -O2 -g -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I"$SQ" -c "$SQ/sqlite3.c" -o "$W/sqlite3.o"
    "$CC" -O2 -g -I"$SQ" -c "$here/sqlite/workload.c" -o "$W/workload.o"
    "$B/perfinst-ld" --pi-runtime -O2 -o "$W/sqlite" "$W/workload.o" "$W/sqlite3.o" -lm
fi
"$CC" -O2 -g -c "$here/sampling/blockwork.c" -o "$W/blockwork.o"
"$B/perfinst-ld" --pi-runtime -O2 -o "$W/blockwork" "$W/blockwork.o" -pthread

variants=(base cpu1k wall1k idle1k)
perf_ok=1
if ! perf record -q -e cpu-clock -c 1000000 -o "$W/probe.data" -- true > /dev/null 2>&1; then
    perf_ok=0
    echo "sample-overhead: perf record cannot run here; perf variants left out" >&2
else
    variants+=(perf-fp perf-dwarf)
fi
rm -f "$W/probe.data"

run_variant() { # VARIANT OUT COMMAND...
    local v=$1 out=$2
    shift 2
    case "$v" in
    base) env -u PERFINST_SAMPLE -u PERFINST_IDLE PERFINST_OUT="$W/t.pit" "$TIMEIT" "$out" "$@" ;;
    cpu1k) PERFINST_SAMPLE=cpu:1ms PERFINST_OUT="$W/t.pit" "$TIMEIT" "$out" "$@" ;;
    wall1k) PERFINST_SAMPLE=wall:1ms PERFINST_OUT="$W/t.pit" "$TIMEIT" "$out" "$@" ;;
    idle1k) PERFINST_IDLE=both PERFINST_OUT="$W/t.pit" "$TIMEIT" "$out" "$@" ;;
    perf-fp) "$TIMEIT" "$out" perf record -q -e cpu-clock -c 1000000 -g -o "$W/perf.data" -- "$@" ;;
    perf-dwarf) "$TIMEIT" "$out" perf record -q -e cpu-clock -c 1000000 --call-graph dwarf -o "$W/perf.data" -- "$@" ;;
    esac > "$W/stdout" 2>> "$W/stderr"
    if [ -e "$W/t.pit" ]; then
        "$B/pmopt" dump "$W/t.pit" | grep -E "SAMPLE_STATS|IDLE_STATS" >> "$W/$v.$(basename "$1").stats" || true
    fi
    if [ -e "$W/perf.data" ]; then
        perf script -i "$W/perf.data" -F tid 2>/dev/null | grep -c . >> "$W/$v.$(basename "$1").stats" || true
    fi
    rm -f "$W/t.pit" "$W/perf.data"
}

rm -f "$W"/*.times "$W"/*.stats "$W/stderr"
# the TSC rate, to turn the handler's rdtsc ticks into time
cat > "$W/tsc.c" <<'C'
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>
int main(void)
{
    struct timespec a, b, d = {0, 200000000};
    clock_gettime(CLOCK_MONOTONIC, &a);
    unsigned long long t0 = __rdtsc();
    nanosleep(&d, NULL);
    unsigned long long t1 = __rdtsc();
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.0f\n", (t1 - t0) / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9));
    return 0;
}
C
"$CC" -O2 -o "$W/tsc" "$W/tsc.c"
tsc_hz=$("$W/tsc")
for prog in sqlite blockwork; do
    if [ $prog = sqlite ]; then args=("$W/sqlite" "$size"); else args=("$W/blockwork" "$tokens"); fi
    n=${#variants[@]}
    for r in $(seq 1 "$rounds"); do
        for i in $(seq 0 $((n - 1))); do
            v=${variants[$(( (i + r) % n ))]}
            run_variant "$v" "$W/$v.$prog.times" "${args[@]}"
        done
    done
done

median() { # FILE FIELD
    sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" "$1" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR % 2) printf "%.4f", a[(NR + 1) / 2]; else printf "%.4f", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
samples() { # VARIANT PROG: median samples per run
    local f="$W/$1.$2.stats"
    [ -s "$f" ] || { echo "–"; return; }
    case "$1" in
    cpu1k|wall1k) sed -n 's/.*taken \([0-9]*\), periods \([0-9]*\).*handler cycles \([0-9]*\).*/\1 \2 \3/p' "$f" |
        sort -n | awk -v hz="$tsc_hz" -v cpu="$(median "$W/$1.$2.times" cpu)" '{ a[NR] = $0 } END {
            split(a[int((NR + 1) / 2)], m, " ");
            printf "%d (%d periods); handler %.1f µs/sample, %.2f%% of CPU", m[1], m[2], m[3] / m[1] / hz * 1e6, 100 * m[3] / hz / cpu }' ;;
    idle1k) sed -n 's/.*ticks \([0-9]*\), idle \([0-9]*\), busy \([0-9]*\).*to \([0-9]*\), from \([0-9]*\).*/\4 to + \5 from of \1 ticks/p' "$f" | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }' ;;
    *) sort -n "$f" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' ;;
    esac
}
{
    echo "### Stack sampling overhead ($(date -u +%Y-%m-%d), $(nproc) CPUs, $rounds rounds)"
    echo
    echo "\`bench/sample-overhead.sh --rounds $rounds --size $size --tokens $tokens\`"
    echo
    echo "| program | variant | wall (median s) | wall ratio | CPU (median s) | CPU ratio | samples per run (median) |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    for prog in sqlite blockwork; do
        bw=$(median "$W/base.$prog.times" wall)
        bc=$(median "$W/base.$prog.times" cpu)
        for v in "${variants[@]}"; do
            w=$(median "$W/$v.$prog.times" wall)
            c=$(median "$W/$v.$prog.times" cpu)
            echo "| $prog | $v | $w | $(ratio "$w" "$bw")× | $c | $(ratio "$c" "$bc")× | $(samples "$v" "$prog") |"
        done
    done
} > "$W/report.md"
cat "$W/report.md"
if [ $record = 1 ]; then
    { echo; cat "$W/report.md"; } >> "$here/RESULTS.md"
    echo "sample-overhead: appended to bench/RESULTS.md"
fi
