#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/layout-shifts.sh — how much of a layout's simulated I1 misses is the
# luck of its alignment (docs/layout.md "Benchmark", "Layout noise").
#
#   bench/layout-shifts.sh [--work DIR] [--pads "0 1024 2048 3072"] [--test S] [--jobs N] [--record]
#
# From a bench/layout-all.sh work directory (default bench/.work/layout-all:
# rebuild/prog, the plans fb2 and fb2t), relinks each variant with `pmopt
# relink --pad-front=PAD` for every PAD (the planned functions, and all the
# code after them, shifted by PAD bytes against libc, the PLT and the code
# before them), runs cachegrind (--I1=32768,8,64 --D1=32768,8,64
# --LL=8388608,16,64) on `workload S test` (0.1) for each, and reports
# every count and the mean per variant:
#   rebuild        the rebuild's own layout: a plan naming only `main`
#                  (moved to the front), --no-hot-rest (ld's default order)
#   relink2-old    fb2 with --no-hot-rest --no-clones (the relink before 2026-11-22 10:00)
#   relink2        fb2 (clones matched, the unplanned .text.hot after the planned functions)
#   relink2t-old   fb2t with --no-hot-rest --no-clones
#   relink2t       fb2t
# Every program must print the checksum of the first.
# The shifts move the relinked code whole (--pad-front): one draw of where
# the cold code falls against the hot code, never redrawn, so the means rank
# nothing; bench/suite.sh ranks at 8 layouts x 8 redraws (docs/layout.md
# "Benchmarks").  This script answers how much one count of the relinks
# moves with the program's offset, as measured on 2026-11-22.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
cmdline="bench/layout-shifts.sh${*:+ $*}"
W=$here/.work/layout-all pads="0 1024 2048 3072" test=0.1 jobs=2 record=0
while [ $# -gt 0 ]; do
    case $1 in
    --work) W=$2; shift 2 ;;
    --pads) pads=$2; shift 2 ;;
    --test) test=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "layout-shifts: unknown argument $1" >&2; exit 2 ;;
    esac
done
say() { echo "layout-shifts: $(date -u +%T) $*" >&2; }
cd "$W"
for f in rebuild/prog fb2 fb2t; do [ -e "$f" ] || { say "error: $W/$f missing (run bench/layout-all.sh first)"; exit 1; }; done
export PERFINST_LIB_DIR=$B
GEOM="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
python3 -c "
import zlib
b=b'perfinst-feedback 1\nprogram rebuild/prog\n1 order-functions alg=none functions=main\n'
open('fbmain','wb').write(b+b'end 1 0x%08x\n'%zlib.crc32(b))"
declare -A FB=([rebuild]=fbmain [relink2-old]=fb2 [relink2]=fb2 [relink2t-old]=fb2t [relink2t]=fb2t)
declare -A FL=([rebuild]=--no-hot-rest [relink2-old]="--no-hot-rest --no-clones" [relink2]=""
    [relink2t-old]="--no-hot-rest --no-clones" [relink2t]="")
V=(rebuild relink2-old relink2 relink2t-old relink2t)
mkdir -p shifts
list=()
for v in "${V[@]}"; do
    for p in $pads; do
        d=shifts/$v-$p
        mkdir -p "$d"
        "$B/pmopt" relink rebuild/prog --feedback ${FB[$v]} ${FL[$v]} --pad-front=$p -o "$d/prog" > "$d/relink.out" 2>&1 ||
            { cat "$d/relink.out" >&2; exit 1; }
        list+=("$d")
    done
done
say "cachegrind on ${#list[@]} programs, $jobs at a time"
printf '%s\n' "${list[@]}" | xargs -P "$jobs" -I{} sh -c \
    "valgrind --tool=cachegrind --cache-sim=yes $GEOM --cachegrind-out-file=/dev/null {}/prog $test test > {}/cg.out 2> {}/cg.err"
report() {
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    echo "cachegrind I1 misses on \`workload $test test\` ($GEOM), the layout shifted by \`pmopt relink --pad-front=PAD\`:"
    echo
    printf '| variant |'; for p in $pads; do printf ' pad %s |' "$p"; done; echo ' mean |'
    printf '| --- |'; for p in $pads; do printf ' --- |'; done; echo ' --- |'
    local sum0=""
    for v in "${V[@]}"; do
        printf '| %s |' "$v"
        local s=0 n=0
        for p in $pads; do
            local c; c=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' shifts/$v-$p/cg.err | tr -d ,)
            local k; k=$(tail -1 shifts/$v-$p/cg.out | cut -d' ' -f1)
            [ -n "$sum0" ] || sum0=$k
            [ "$k" = "$sum0" ] || { say "error: $v pad $p printed $k, not $sum0"; exit 1; }
            printf ' %s |' "$c"; s=$((s + c)); n=$((n + 1))
        done
        echo " $((s / n)) |"
    done
    echo
    echo "Every program printed \`$sum0\`."
    echo
}
report > shifts/report.md
cat shifts/report.md
if [ $record = 1 ]; then
    { echo; cat shifts/report.md; } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
