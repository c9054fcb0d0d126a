#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# ri-overhead.sh — what runtime instrumentation (report groups every N
# units, seed 001) costs on the SQLite workload.  See docs/sampling.md.
#
#   bench/ri-overhead.sh [--rounds N] [--size S] [--small S] [--no-run]
#                        [--no-callgrind] [--record]
#
#   --rounds N   interleaved rounds of wall/CPU time (default 3)
#   --size S     workload size for wall/CPU time (default 0.5)
#   --small S    workload size under callgrind (default 0.05)
#   --record     append the result to bench/RESULTS.md
#
# Variants (SQLite amalgamation + bench/sqlite/workload.c, in bench/.work/ri/):
#
#   o2          gcc -O2
#   ri-off      -fplugin-arg-perfinst-all=sample (every block a unit, calls,
#               returns and taken branches into the collection buffer), run
#               with PERFINST_RI=off: the probes run and return at once
#   ri-100000   the same build, PERFINST_RI=every=100000 (rgs 2, full=drain)
#   ri-10000    the same build, PERFINST_RI=every=10000
#
# Every run must print the workload's checksum, the same for all variants.
# Reported: callgrind instructions (deterministic) and median wall and CPU
# time, each as a ratio to -O2, and the report groups the trace holds.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/ri-overhead.sh${*:+ $*}"
rounds=3 size=0.5 small=0.05 do_run=1 do_cg=1 record=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --size) size=${2:?}; shift 2 ;;
    --small) small=${2:?}; shift 2 ;;
    --no-run) do_run=0; shift ;;
    --no-callgrind) do_cg=0; shift ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "ri-overhead: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
CC=${BENCH_CC:-gcc}
B=${PERFINST_BUILD:-$top/build}
W=$here/.work/ri
SQLDEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
say() { echo "ri-overhead: $*" >&2; }
die() { say "error: $*"; exit 1; }
[ -f "$B/perfinst.so" ] && [ -x "$B/perfinst-ld" ] || die "build perfinst first (make)"
mkdir -p "$W/o2" "$W/ri" "$W/results"
SQ=$("$here/fetch-sqlite.sh") || die "could not fetch SQLite"
TIMEIT=$W/timeit
[ -x "$TIMEIT" ] && [ "$TIMEIT" -nt "$here/timeit.c" ] || "$CC" -O2 -o "$TIMEIT" "$here/timeit.c" || die "timeit"

# ---- builds (cached by the inputs' checksums) ------------------------------
stamp() { sha256sum "$SQ/sqlite3.c" "$here/sqlite/workload.c" "$@" 2>/dev/null | cut -d' ' -f1 | tr '\n' ' '; }
build() { # DIR CFLAGS LINKER...
    local d=$1 fl=$2; shift 2
    local s; s="$fl $(stamp "$B/perfinst.so" "$B/perfinst-ld" "$B/libperfinst.so")"
    [ -x "$d/prog" ] && [ "$(cat "$d/stamp" 2>/dev/null)" = "$s" ] && return 0
    say "building $(basename "$d") ($fl)"
    (cd "$d" && "$CC" $fl $SQLDEFS -c "$SQ/sqlite3.c" -o sqlite3.o &&
        "$CC" $fl -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o workload.o &&
        "$@" -O2 -o prog workload.o sqlite3.o -lm) > "$d/build.log" 2>&1 || { tail "$d/build.log" >&2; return 1; }
    echo "$s" > "$d/stamp"
}
build "$W/o2" "-O2" "$CC" & p1=$!
build "$W/ri" "-O2 -fplugin=$B/perfinst.so -fplugin-arg-perfinst-all=sample" env PERFINST_LIB_DIR="$B" "$B/perfinst-ld" & p2=$!
wait $p1 || die "o2 build failed"
wait $p2 || die "ri build failed"

VARIANTS=(o2 ri-off ri-100000 ri-10000)
declare -A DIR ENV LABEL
DIR[o2]=o2; DIR[ri-off]=ri; DIR[ri-100000]=ri; DIR[ri-10000]=ri
ENV[o2]="PERFINST_RI=off"; ENV[ri-off]="PERFINST_RI=off"
ENV[ri-100000]="PERFINST_RI=every=100000"; ENV[ri-10000]="PERFINST_RI=every=10000"
LABEL[o2]='`gcc -O2`'
LABEL[ri-off]='`all=sample`, `PERFINST_RI=off`'
LABEL[ri-100000]='`all=sample`, `PERFINST_RI=every=100000`'
LABEL[ri-10000]='`all=sample`, `PERFINST_RI=every=10000`'
R=$W/results
rm -f "$R"/*
sum() { sed -n 's/^checksum=\([0-9a-f]*\) .*/\1/p' "$1" | tail -n1; }
groups() { # TRACE: report groups in it
    [ -f "$1" ] && "$B/pmopt" dump "$1" | awk '/ RI tid/ { for (i = 1; i <= NF; i++) if ($i == "ngroups") n += $(i+1) } END { print n + 0 }'
}
declare -A IR NGROUPS SUMS
if [ $do_cg = 1 ]; then
    for v in "${VARIANTS[@]}"; do
        say "callgrind: $v at size $small"
        d=$W/${DIR[$v]}
        rm -f "$d"/*.pit
        (cd "$d" && env ${ENV[$v]} PERFINST_OUT="$d/cg-$v.pit" valgrind --tool=callgrind \
            --callgrind-out-file=/dev/null ./prog "$small" > "$R/cg-$v" 2> "$R/cg-$v.err")
        SUMS[cg-$v]=$(sum "$R/cg-$v")
        IR[$v]=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$R/cg-$v.err" | tail -n1)
        NGROUPS[$v]=$(groups "$d/cg-$v.pit")
    done
fi
if [ $do_run = 1 ]; then
    n=${#VARIANTS[@]}
    for ((r = 0; r < rounds; r++)); do
        for ((i = 0; i < n; i++)); do
            v=${VARIANTS[$(((i + r) % n))]}
            d=$W/${DIR[$v]}
            rm -f "$d/run-$v.pit"
            (cd "$d" && env ${ENV[$v]} PERFINST_OUT="$d/run-$v.pit" "$TIMEIT" "$R/$v.times" ./prog "$size" > "$R/run-$v-$r")
            SUMS[run-$v-$r]=$(sum "$R/run-$v-$r")
        done
        say "round $((r + 1))/$rounds done"
    done
fi
# every checksum of one size must agree
bad=0
for k in "${!SUMS[@]}"; do
    [ -n "${SUMS[$k]}" ] || { say "$k: no checksum"; bad=1; }
done
[ "$(for k in "${!SUMS[@]}"; do case $k in cg-*) echo "${SUMS[$k]}" ;; esac; done | sort -u | wc -l)" -le 1 ] || { say "callgrind checksums differ"; bad=1; }
[ "$(for k in "${!SUMS[@]}"; do case $k in run-*) echo "${SUMS[$k]}" ;; esac; done | sort -u | wc -l)" -le 1 ] || { say "run checksums differ"; bad=1; }

median() { [ -s "$1" ] && sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" "$1" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) printf "%.3f", a[(NR + 1) / 2]; else printf "%.3f", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "–"; else printf "%.3f×", a / b }'; }
report() {
    echo "### Runtime instrumentation: report groups every N units, SQLite workload"
    echo
    echo "Instructions: callgrind, one run at size $small.  Wall and CPU: medians of $rounds"
    echo "interleaved run(s) at size $size.  Groups: report groups in the callgrind run's trace."
    echo
    echo "| variant | instructions | × -O2 | groups | wall | × -O2 | CPU | × -O2 |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    for v in "${VARIANTS[@]}"; do
        w=$(median "$R/$v.times" wall); c=$(median "$R/$v.times" cpu)
        echo "| ${LABEL[$v]} | ${IR[$v]:-–} | $(ratio "${IR[$v]:-}" "${IR[o2]:-}") | ${NGROUPS[$v]:-–} | ${w:-–} s | $(ratio "$w" "$(median "$R/o2.times" wall)") | ${c:-–} s | $(ratio "$c" "$(median "$R/o2.times" cpu)") |"
    done
    echo
    echo "Command: \`$cmdline\`; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
}
report > "$R/report.md"
cat "$R/report.md"
if [ $record = 1 ]; then
    { echo; echo "## $(date -u +%Y-%m-%d) — runtime instrumentation overhead"; echo; cat "$R/report.md"; } >> "$here/RESULTS.md"
fi
exit $bad
