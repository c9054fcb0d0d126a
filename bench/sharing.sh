#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# sharing.sh — what the sharing repair gains and what detection costs.
# See docs/sharing.md.
#
#   bench/sharing.sh [--rounds N] [--iters N] [--detect-iters N]
#                    [--sqlite-size S] [--no-sqlite] [--record]
#
#   --rounds N        interleaved rounds of every timed part (default 5)
#   --iters N         iterations per thread of bench/sharing/fsbench.c (default 50000000)
#   --detect-iters N  iterations per thread for the detection overhead (default 20000000:
#                     at 2000000 the uninstrumented run takes 3 ms of CPU and the
#                     runtime's fixed cost, about 2.5 ms, would be most of the ratio)
#   --sqlite-size S   the SQLite workload's size for the detection overhead (default 0.2)
#   --no-sqlite       leave SQLite out (its build with the plugin takes minutes)
#   --callgrind       also count instructions under callgrind (deterministic, unlike
#                     the times on a shared machine): fsbench at --cg-iters and the
#                     SQLite workload at --cg-sqlite-size, each against gcc -O2
#   --cg-iters N      iterations per thread under callgrind (default 2000000)
#   --cg-sqlite-size S  the SQLite workload's size under callgrind (default 0.05)
#   --record          append the result to bench/RESULTS.md
#
# 1. Repair.  Per fixture of fsbench.c (globals, mixed, linreg; 2 threads):
#    the program as written (gcc -O2), automatically repaired (a detection
#    run of the sharing=all build at --detect-iters, `pmopt plan --sharing`,
#    then gcc -O2 -fplugin-arg-perfinst-feedback=PLAN) and hand-fixed
#    (-DHAND_FIXED: alignas(64) in the source), run interleaved, the order
#    rotated each round.  Median wall and CPU (user+sys) time; speedup over
#    the original; the repair's share of the hand fix's speedup.
# 2. Detection overhead of sharing=all, in its default (sampled) mode:
#    fsbench at --detect-iters (the worst case: nothing but accesses to
#    shared lines) and the SQLite workload (bench/sqlite/workload.c,
#    single-threaded), each against gcc -O2, interleaved.
# Every run of a fixture must print the same checksum in every variant.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/sharing.sh${*:+ $*}"
rounds=5
iters=50000000
diters=20000000
sqsize=0.2
do_sqlite=1
record=0
do_cg=0
cgiters=2000000
cgsq=0.05
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --iters) iters=${2:?}; shift 2 ;;
    --detect-iters) diters=${2:?}; shift 2 ;;
    --sqlite-size) sqsize=${2:?}; shift 2 ;;
    --no-sqlite) do_sqlite=0; shift ;;
    --record) record=1; shift ;;
    --callgrind) do_cg=1; shift ;;
    --cg-iters) cgiters=${2:?}; shift 2 ;;
    --cg-sqlite-size) cgsq=${2:?}; shift 2 ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "sharing.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

B=${PERFINST_BUILD:-$top/build}
W=$here/.work/sharing
mkdir -p "$W"
CC=${BENCH_CC:-gcc}
PLUGIN=$B/perfinst.so PILD=$B/perfinst-ld PMOPT=$B/pmopt
export PERFINST_LIB_DIR=$B
die() { echo "sharing.sh: $*" >&2; exit 1; }
for f in "$PLUGIN" "$PILD" "$PMOPT" "$B/libperfinst.a"; do [ -e "$f" ] || die "$f missing: run make"; done
TIMEIT=$W/timeit
[ -x "$TIMEIT" ] && [ ! "$here/timeit.c" -nt "$TIMEIT" ] || "$CC" -O2 -o "$TIMEIT" "$here/timeit.c" || die "timeit"

median() { # FILE FIELD
    sed -n "s/.*\b$2=\([0-9.]*\).*/\1/p" "$1" | sort -g | awk '{a[NR]=$1} END {if (!NR) print "nan"; else if (NR%2) print a[(NR+1)/2]; else printf "%.6f\n", (a[NR/2]+a[NR/2+1])/2}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

cd "$W" || die "cannot enter $W"
S=$here/sharing/fsbench.c
MODES="globals mixed linreg"

# ---- builds -----------------------------------------------------------------
"$CC" -O2 -g -pthread "$S" -o orig || die "build orig"
"$CC" -O2 -pthread -DHAND_FIXED "$S" -o hand || die "build hand"
"$CC" -O2 -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -I"$top/include" -c "$S" -o inst.o &&
    "$PILD" -O2 -o inst inst.o || die "build inst"
for m in $MODES; do
    rm -f "$m.pit"
    # every access checked (no private fast path), so that the threads overlap
    PERFINST_SHARING_SAMPLE=0 PERFINST_OUT=$m.pit ./inst $m "$diters" > /dev/null || die "detection run $m"
    "$PMOPT" plan --sharing -o "$m.fb" inst "$m.pit" || die "plan $m"
    "$CC" -O2 -pthread -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback="$m.fb" "$S" "$B/libperfinst.a" \
        -o "fixed-$m" || die "build fixed-$m"
done

# ---- 1. repair ------------------------------------------------------------------
out=$W/result.md
{
echo "### False-sharing repair: fsbench.c, 2 threads, $iters iterations each, $rounds interleaved rounds"
echo
echo "| fixture | plan | variant | wall (median) | CPU (median) | speedup (wall) | speedup (CPU) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
} > "$out"
status=0
for m in $MODES; do
    rm -f "$m".*.times
    variants="orig fixed-$m hand"
    for r in $(seq 1 "$rounds"); do
        set -- $variants
        for k in $(seq 1 $(( (r - 1) % 3 ))); do set -- "$2" "$3" "$1"; done
        for v in "$@"; do
            "$TIMEIT" "$m.$v.times" ./$v $m "$iters" > "$m.$v.out" || status=1
            cmp -s "$m.orig.out" "$m.$v.out" 2>/dev/null || [ ! -e "$m.orig.out" ] ||
                { echo "sharing.sh: $m: $v printed another checksum" >&2; status=1; }
        done
    done
    bw=$(median "$m.orig.times" wall) bc=$(median "$m.orig.times" cpu)
    plan=$(grep -E '^[0-9]+ ' "$m.fb" | awk '{print $2}' | sort | uniq -c | awk '{printf "%s%s×%s", sep, $1, $2; sep=", "}')
    for v in $variants; do
        w=$(median "$m.$v.times" wall) c=$(median "$m.$v.times" cpu)
        echo "| $m | ${plan:-none} | $v | ${w} s | ${c} s | $(ratio "$bw" "$w")× | $(ratio "$bc" "$c")× |" >> "$out"
    done
    hw=$(median "$m.hand.times" wall) fw=$(median "$m.fixed-$m.times" wall)
    share=$(awk -v b="$bw" -v h="$hw" -v f="$fw" 'BEGIN { sh = b / h - 1; sf = b / f - 1; if (sh > 0.05) printf "%.0f %%", 100 * sf / sh; else print "n/a (the hand fix gained under 5 %)" }')
    echo "| $m | | repair / hand fix speedup | $share | | | |" >> "$out"
done

# ---- 2. detection overhead -----------------------------------------------------------
{
echo
echo "### Detection overhead of sharing=all, $rounds interleaved rounds (ratio to gcc -O2)"
echo
echo "| program | gcc -O2 wall | sharing=all wall | wall ratio | gcc -O2 CPU | sharing=all CPU | CPU ratio |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
} >> "$out"
for m in $MODES; do
    rm -f "d$m".*.times
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) = 1 ]; then order="orig inst"; else order="inst orig"; fi
        for v in $order; do
            PERFINST_OUT=$W/d.pit "$TIMEIT" "d$m.$v.times" ./$v $m "$diters" > /dev/null || status=1
            rm -f "$W"/d.pit*
        done
    done
    ow=$(median "d$m.orig.times" wall) iw=$(median "d$m.inst.times" wall)
    oc=$(median "d$m.orig.times" cpu) ic=$(median "d$m.inst.times" cpu)
    echo "| fsbench $m ($diters iterations) | $ow s | $iw s | $(ratio "$iw" "$ow")× | $oc s | $ic s | $(ratio "$ic" "$oc")× |" >> "$out"
done
if [ $do_sqlite = 1 ]; then
    SQ=$("$here/fetch-sqlite.sh") || die "no SQLite"
    D="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
    [ -e sq-o2.o ] || "$CC" -O2 $D -I"$SQ" -c "$SQ/sqlite3.c" -o sq-o2.o || die "sqlite -O2"
    [ -e sq-sh.o ] && [ ! "$PLUGIN" -nt sq-sh.o ] ||
        "$CC" -O2 -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all $D -I"$SQ" -c "$SQ/sqlite3.c" -o sq-sh.o ||
        die "sqlite sharing=all"
    "$CC" -O2 -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o sq-w.o || die "workload"
    "$CC" -O2 -o sq-o2 sq-w.o sq-o2.o -lm && "$PILD" -O2 -o sq-sh sq-w.o sq-sh.o -lm || die "sqlite link"
    rm -f sq.*.times
    for r in $(seq 1 "$rounds"); do
        if [ $((r % 2)) = 1 ]; then order="o2 sh"; else order="sh o2"; fi
        for v in $order; do
            PERFINST_OUT=$W/sq.pit "$TIMEIT" "sq.$v.times" ./sq-$v "$sqsize" > "sq.$v.out" || status=1
            rm -f "$W"/sq.pit*
        done
        cmp -s sq.o2.out sq.sh.out || { echo "sharing.sh: SQLite checksums differ" >&2; status=1; }
    done
    ow=$(median sq.o2.times wall) iw=$(median sq.sh.times wall)
    oc=$(median sq.o2.times cpu) ic=$(median sq.sh.times cpu)
    echo "| SQLite workload (size $sqsize, 1 thread) | $ow s | $iw s | $(ratio "$iw" "$ow")× | $oc s | $ic s | $(ratio "$ic" "$oc")× |" >> "$out"
fi
# ---- 3. instructions under callgrind (deterministic) -------------------------------
if [ $do_cg = 1 ]; then
    command -v valgrind > /dev/null || die "--callgrind: valgrind not installed"
    # instructions of a run, all threads (the runtime maps smaller shadows
    # under valgrind, so the inlined checks run as they do natively)
    irs() { PERFINST_OUT=$W/cg.pit valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
                sed -n 's/.*I *refs: *//p' | tr -d ,; rm -f "$W"/cg.pit*; }
    {
    echo
    echo "### Instructions under callgrind (valgrind $(valgrind --version | sed 's/valgrind-//'); deterministic)"
    echo
    echo "| program | gcc -O2 Ir | sharing=all Ir | ratio |"
    echo "| --- | --- | --- | --- |"
    } >> "$out"
    for m in $MODES; do
        a=$(irs ./orig $m "$cgiters") b=$(irs ./inst $m "$cgiters")
        echo "| fsbench $m ($cgiters iterations) | $a | $b | $(ratio "$b" "$a")× |" >> "$out"
    done
    if [ $do_sqlite = 1 ]; then
        a=$(irs ./sq-o2 "$cgsq") b=$(irs ./sq-sh "$cgsq")
        echo "| SQLite workload (size $cgsq, 1 thread) | $a | $b | $(ratio "$b" "$a")× |" >> "$out"
    fi
fi
echo >> "$out"
echo "Target: detection ≤ 3× (Predator: 5.4×); repair ≥ 95 % of the hand fix's speedup." >> "$out"

cat "$out"
if [ $record = 1 ]; then
    {
        echo
        echo "## $(date -u +%Y-%m-%d) — sharing: \`$cmdline\`"
        echo
        echo "Machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
        echo
        cat "$out"
    } >> "$here/RESULTS.md"
fi
exit $status
