#!/bin/bash
# export.sh — what `pmopt export` costs: time and size of each format for
# the exact counts of programs built with all=count, and for a stack
# profile of at least 100,000 timer samples.
#
#   bench/export.sh [--programs "sqlite lua zstd"] [--no-stacks] [--reps N] [--work DIR] [--record]
#
#   --programs LIST  the programs of bench/workloads.sh (default: all; "" for none)
#   --no-stacks      no stack profile
#   --reps N         runs of each export; the median CPU time is reported (3)
#   --work DIR       builds, traces and exports (default bench/.work/export)
#   --record         append the report to bench/RESULTS.md
#
# Each program is built -O2 -g with the plugin and all=count (linked by
# perfinst-ld) and run on each of its workloads at the small scale
# (bench/workloads.sh), one trace each.  For each trace, `pmopt export
# --FORMAT OUT PROG TRACE` is run alone per format (pprof, callgrind, lcov,
# gcovr, speedscope, chrome) and `pmopt report --format=json` once beside
# them (what reading PROG and the trace costs): CPU time (user + sys,
# bench/timeit.c) and the output's size.  The stack profile: SQLite's sort
# mix at scale 1 sampled with PERFINST_SAMPLE=wall:50us (its counts too: a
# cpu timer ticks with the kernel's clock, and gives few samples of many
# periods each), so that the trace holds at least 100,000 samples; the same
# formats plus the flame graph and folded stacks.  bench/export-report.py
# makes the table.  Times are CPU time under whatever load the
# machine has (the report says the load average); sizes are exact.
# Environment: PERFINST_BUILD (default build/).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/export.sh${*:+ $*}"
. "$here/workloads.sh"

programs=$WL_PROGRAMS reps=3 record=0 stacks=1 W=$here/.work/export
while [ $# -gt 0 ]; do
    case $1 in
    --programs) programs=${2?}; shift 2 ;;
    --reps) reps=${2:?}; shift 2 ;;
    --no-stacks) stacks=0; shift ;;
    --work) W=${2:?}; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "export: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
B=${PERFINST_BUILD:-$top/build}
[ -f "$B/perfinst.so" ] && [ -x "$B/perfinst-ld" ] && [ -x "$B/pmopt" ] ||
    { echo "export: no $B/perfinst.so, perfinst-ld or pmopt (make first)" >&2; exit 1; }
mkdir -p "$W"
W=$(cd "$W" && pwd)
TIMEIT=$W/timeit
[ -x "$TIMEIT" ] && [ "$TIMEIT" -nt "$here/timeit.c" ] || gcc -O2 -o "$TIMEIT" "$here/timeit.c" || exit 1
say() { echo "export: $(date -u +%T) $*" >&2; }
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
FORMATS="pprof callgrind lcov gcovr speedscope chrome"

# cpu_of CMD...: the median CPU seconds of $reps runs of CMD (its output kept)
cpu_of() {
    local i t=() f=$W/time.$$
    for ((i = 0; i < reps; i++)); do
        rm -f "$f"
        "$TIMEIT" "$f" "$@" > /dev/null 2> "$W/err" || { cat "$W/err" >&2; return 1; }
        t+=("$(sed -n 's/.*cpu=\([0-9.]*\).*/\1/p' "$f")")
    done
    rm -f "$f"
    printf '%s\n' "${t[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# measure LABEL DIR TRACE [FORMAT...]: one row per format, "LABEL FORMAT CPU BYTES"
measure() {
    local label=$1 d=$2 trace=$3 fmt out t; shift 3
    t=$(cpu_of "$B/pmopt" report --format=json "$d/prog" "$trace") || return 1
    echo "$label report-json $t $(stat -c %s "$trace")"
    for fmt in "$@"; do
        out=$d/out.$fmt
        t=$(cpu_of "$B/pmopt" export --"$fmt" "$out" "$d/prog" "$trace") || return 1
        echo "$label $fmt $t $(stat -c %s "$out")"
        rm -f "$out"
    done
}

rows=$W/rows
: > "$rows"
for p in $programs; do
    wl_fetch "$p" || exit 1
    d=$W/$p
    say "building $p (-O2 -g, all=count)"
    wl_build "$p" "$d" pild -O2 -g -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count || exit 1
    s=$(wl_scale "$p" small)
    for wl in $(wl_workloads "$p"); do
        say "$p $wl at $s"
        rm -f "$d/$wl.pit"
        wl_run "$p" "$wl" "$d" "$s" env PERFINST_OUT="$d/$wl.pit" > /dev/null || exit 1
        measure "$p:$wl" "$d" "$d/$wl.pit" $FORMATS >> "$rows" || exit 1
    done
done

# the stack profile: SQLite's sort mix sampled every 50 us of wall time
head=
if [ $stacks = 1 ]; then
    wl_fetch sqlite || exit 1
    d=$W/sqlite
    wl_build sqlite "$d" pild -O2 -g -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count || exit 1
    say "sqlite sort at 1, PERFINST_SAMPLE=wall:50us"
    rm -f "$d/stacks.pit"
    wl_run sqlite sort "$d" 1 env PERFINST_OUT="$d/stacks.pit" PERFINST_SAMPLE=wall:50us > /dev/null || exit 1
    head=$("$B/pmopt" report --tree "$d/prog" "$d/stacks.pit" | head -1)
    nsamples=$(echo "$head" | sed -n 's/.*: \([0-9]*\) samples for.*/\1/p')
    [ "${nsamples:-0}" -ge 100000 ] || { echo "export: only ${nsamples:-0} samples: $head" >&2; exit 1; }
    measure "stacks" "$d" "$d/stacks.pit" $FORMATS flamegraph folded >> "$rows" || exit 1
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

report=$W/report.md
python3 "$here/export-report.py" "$rows" "$cmdline" "$reps" "$load_start" "$load_end" "$head" > "$report" || exit 1
cat "$report"
if [ "$record" = 1 ]; then
    { echo; cat "$report"; } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
