#!/bin/bash
# bench/merge-fleet.sh — merging a fleet's profiles: N runs (default 1000)
# of one build, each a separate process with its own profile file, merged
# into one by each tool (docs/pmopt.md "pmopt merge").
#
#   bench/merge-fleet.sh [--runs N] [--size S] [--record]
#
# The program is SQLite's amalgamation with bench/sqlite/workload.c (SIZE,
# default 0.01: a short run; mix train), built three ways, each run N times:
#   perfinst   -O2 all=count, linked by perfinst-ld: N traces (*.pit)
#   gcov       -O2 -fprofile-generate: N .gcda sets (GCOV_PREFIX per run)
#   bolt       -O2, llvm-bolt -instrument (-instrumentation-file-append-pid):
#              N .fdata files
# and merged by:
#   pmopt merge -o all.pit *.pit                    (one command, streaming)
#   merge-fdata *.fdata -o all.fdata                (LLVM BOLT, one command)
#   gcov-tool merge A B -o C                        (GCC 12's takes two
#              directories: the fold acc+1, +2, ... is N-1 commands)
# and, for the record, by the pmopt given as OLD_PMOPT (e.g. a build of the
# tree before the streaming merge).  Reported: wall time (on a shared, loaded
# machine: indicative), user+sys CPU time, peak resident memory (the largest
# of the fold's commands for gcov-tool), the inputs' total size.  Scratch in
# bench/.work/merge-fleet (kept: delete it when done).
# --record appends the table to bench/RESULTS.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
runs=1000 size=0.01 record=0
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) runs=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "merge-fleet.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
source "$here/lib.sh"
sqlite_setup
w=$here/.work/merge-fleet
mkdir -p "$w"
bolt_setup "$w/apt.log"
MERGE_FDATA=$(command -v merge-fdata || echo /usr/lib/llvm-22/bin/merge-fdata)

# ---- the three builds
sqlite_build "$w/pi" -O2 $PI -fplugin-arg-perfinst-all=count && sqlite_pild "$w/pi"
sqlite_build "$w/gcov" -O2 -fprofile-generate && sqlite_gcc_link "$w/gcov" -fprofile-generate
sqlite_build "$w/bolt" -O2 -fno-reorder-blocks-and-partition
if [ ! -x "$w/bolt/prog.inst" ]; then
    gcc -O2 -Wl,--emit-relocs -o "$w/bolt/prog.in" "$w/bolt/workload.o" "$w/bolt/sqlite3.o" -lm
    "$BOLT" "$w/bolt/prog.in" -instrument -instrumentation-file="$w/runs-bolt/prof" \
        -instrumentation-file-append-pid -o "$w/bolt/prog.inst" > "$w/bolt/inst.log" 2>&1 ||
        { tail "$w/bolt/inst.log" >&2; exit 1; }
fi

# ---- N runs of each (the profiles are kept: a second invocation reuses them)
strip=$(echo "$w/gcov" | tr -cd / | wc -c)
if [ "$(ls "$w/runs-pi" 2>/dev/null | wc -l)" != "$runs" ]; then
    rm -rf "$w/runs-pi" "$w/runs-gcov" "$w/runs-bolt"
    mkdir -p "$w/runs-pi" "$w/runs-gcov" "$w/runs-bolt"
    echo "merge-fleet.sh: $(date -u +%T) $runs runs of each build" >&2
    for i in $(seq 0 $((runs - 1))); do
        PERFINST_OUT="$w/runs-pi/$i.pit" "$w/pi/prog" "$size" train > /dev/null
        GCOV_PREFIX="$w/runs-gcov/$i" GCOV_PREFIX_STRIP=$strip "$w/gcov/prog" "$size" train > /dev/null
        "$w/bolt/prog.inst" "$size" train > /dev/null
    done
fi

# ---- the merges: "TOOL WALL CPU MAXRSS_KB" lines
res=$w/results
: > "$res"
measure() { # NAME CMD...: one command under /usr/bin/time
    local name=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$w/time" "$@" > /dev/null
    awk -v n="$name" '{ printf "%s %s %.2f %s\n", n, $1, $2 + $3, $4 }' "$w/time" >> "$res"
}
echo "merge-fleet.sh: $(date -u +%T) merging" >&2
measure pmopt "$B/pmopt" merge -o "$w/all.pit" "$w"/runs-pi/*.pit
[ -z "${OLD_PMOPT:-}" ] || measure pmopt-old "$OLD_PMOPT" merge -o "$w/old.pit" "$w"/runs-pi/*.pit
[ -z "${OLD_PMOPT:-}" ] || cmp "$w/all.pit" "$w/old.pit" || echo "merge-fleet.sh: the old merge wrote other bytes" >&2
measure merge-fdata "$MERGE_FDATA" "$w"/runs-bolt/*.fdata -o "$w/all.fdata"
# gcov-tool: the fold, each step timed; wall and CPU summed, the largest RSS
rm -rf "$w/acc" "$w/acc2"
cp -r "$w/runs-gcov/0" "$w/acc"
gw=0 gc=0 gm=0
for i in $(seq 1 $((runs - 1))); do
    /usr/bin/time -f "%e %U %S %M" -o "$w/time" gcov-tool merge "$w/acc" "$w/runs-gcov/$i" -o "$w/acc2" > /dev/null
    read -r e u s m < "$w/time"
    gw=$(awk -v a="$gw" -v b="$e" 'BEGIN { printf "%.2f", a + b }')
    gc=$(awk -v a="$gc" -v b="$u" -v c="$s" 'BEGIN { printf "%.2f", a + b + c }')
    [ "$m" -le "$gm" ] || gm=$m
    rm -rf "$w/acc"
    mv "$w/acc2" "$w/acc"
done
echo "gcov-tool $gw $gc $gm" >> "$res"

kb() { du -sk "$1" | cut -f1; }
out=$w/report
{
    echo "## $(date -u '+%F %H:%M') UTC — merging $runs runs' profiles: pmopt merge, merge-fdata, gcov-tool merge (\`bench/merge-fleet.sh --runs $runs --size $size\`)"
    echo
    echo "tree $(git -C "$top" rev-parse --short HEAD); $(gcc --version | head -1); $("$MERGE_FDATA" --version 2>&1 | grep -m1 -i version | sed 's/^ *//')."
    echo "SQLite + bench/sqlite/workload.c $size train, each run a process with its own profile;"
    echo "inputs: $(kb "$w/runs-pi") KiB of traces, $(kb "$w/runs-bolt") KiB of .fdata, $(kb "$w/runs-gcov") KiB of .gcda;"
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg) (wall time indicative only)."
    echo
    echo "| tool | commands | wall s | CPU s | peak RSS MiB |"
    echo "| --- | --- | --- | --- | --- |"
    while read -r n e c m; do
        cmds=1
        [ "$n" != gcov-tool ] || cmds=$((runs - 1))
        printf '| %s | %s | %s | %s | %.1f |\n' "$n" "$cmds" "$e" "$c" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')"
    done < "$res"
} > "$out"
bench_record "$out"
