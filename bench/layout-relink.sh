#!/bin/bash
# bench/layout-relink.sh — function order + relink against plain -O2 and BOLT
# (docs/layout.md; results in bench/RESULTS.md with --record).
#
#   bench/layout-relink.sh [--record] [--rounds N] [--train S] [--test S] [--size S]
#
# On the SQLite workload (bench/sqlite/workload.c), every variant trained on
# the "train" mix and measured on the "test" mix:
#   O2           gcc -O2, linked by gcc
#   O2-sections  gcc -O2 -ffunction-sections -fdata-sections, linked by
#                perfinst-ld (the input of our relink: the control for it)
#   bolt         gcc -O2 -fno-reorder-blocks-and-partition -Wl,--emit-relocs,
#                llvm-bolt -instrument, trained, then llvm-bolt
#                -reorder-blocks=ext-tsp -reorder-functions=cdsort
#                -split-functions (Debian bolt-22; installed if missing)
#   ours-none    O2-sections relinked with the hot functions by samples
#   ours-c3      ... in C3 order          (pmopt plan --order=c3)
#   ours-exttsp  ... in Ext-TSP order     (pmopt plan --order=exttsp)
# The profile for ours comes from a build with
# -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections run on the
# train mix.  Measured: cachegrind I1 misses and I refs (= instructions
# executed, what callgrind counts) at --test size, test mix, with the
# geometry given (deterministic); wall time of --rounds interleaved runs at
# --size (median, range); link time of O2-sections (perfinst-ld) against
# `pmopt relink` (median of 3).  Then the chase-tail workload whose hot code
# is larger than L1i (tests/relink/cyclic.c, 40 KiB of hot code): -O2
# against the relinked program with its reserved region.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
cmdline="bench/layout-relink.sh $*"
. "$here/lib.sh"
bench_opts layout-relink "$@"
say() { echo "layout-relink: $*" >&2; }
W=$here/.work/layout
mkdir -p "$W"
sqlite_setup
bolt_setup "$W/apt.log"
CG="valgrind --tool=cachegrind --cache-sim=yes $GEOM"
cd "$W"

# ---- builds ------------------------------------------------------------------
sqlite_build o2 -O2
sqlite_build sec -O2 -ffunction-sections -fdata-sections
sqlite_build bolt -O2 -fno-reorder-blocks-and-partition
sqlite_build_train train
sqlite_gcc_link o2
sqlite_pild sec

# ---- training ----------------------------------------------------------------
say "training run (ours) at size $train"
sqlite_train train "$train"
for alg in none c3 exttsp; do
    mkdir -p $alg
    "$B/pmopt" plan --order=$alg -o $alg/fb train/prog train/t.pit > $alg/plan.out
done
cat c3/plan.out >&2
relink_times=()
for alg in none c3 exttsp; do
    t0=$(date +%s.%N)
    "$B/pmopt" relink sec/prog --feedback $alg/fb -o $alg/prog --smoke "0.02 test" > $alg/relink.out 2> $alg/relink.err || {
        cat $alg/relink.err >&2; exit 1; }
    t1=$(date +%s.%N)
    [ $alg = c3 ] && relink_times+=("$(echo "$t1 - $t0" | bc)")
done
for i in 1 2; do
    t0=$(date +%s.%N); "$B/pmopt" relink sec/prog --feedback c3/fb -o c3/prog > /dev/null 2>&1; t1=$(date +%s.%N)
    relink_times+=("$(echo "$t1 - $t0" | bc)")
done
link_times=()
for i in 1 2 3; do
    t0=$(date +%s.%N); (cd sec && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm); t1=$(date +%s.%N)
    link_times+=("$(echo "$t1 - $t0" | bc)")
done
link_med=$(median "${link_times[@]}"); relink_med=$(median "${relink_times[@]}")

variants=(O2 O2-sections ours-none ours-c3 ours-exttsp)
declare -A P=([O2]=o2/prog [O2-sections]=sec/prog [ours-none]=none/prog [ours-c3]=c3/prog [ours-exttsp]=exttsp/prog)
if [ -x "$BOLT" ]; then
    say "BOLT: instrumenting, training at size $train, optimizing"
    sqlite_bolt bolt "$train" || exit 1
    variants+=(bolt); P[bolt]=bolt/prog
fi

# ---- checksums, cachegrind -----------------------------------------------------
declare -A I1 IR SUM
for v in "${variants[@]}"; do
    say "cachegrind: $v at size $test (test mix)"
    c=$(sqlite_cachegrind ./${P[$v]} "$test" cg-$v) || exit 1
    read -r IR[$v] I1[$v] SUM[$v] <<< "$c"
done
# ---- wall time: rounds, every variant once per round in rotated order ---------------
tv=()
for v in "${variants[@]}"; do tv+=("$v=./${P[$v]}"); done
rm -f times.txt
time_rounds "$rounds" "$W/times.txt" "$size test" "${tv[@]}" || exit 1

# ---- the footprint > L1i workload -------------------------------------------------
say "chase-tail workload (tests/relink/cyclic.c)"
mkdir -p cyc
gcc -O2 -ffunction-sections -falign-functions=64 -o cyc/o2 "$top/tests/relink/cyclic.c"
gcc -O2 -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections \
    -falign-functions=64 -I"$top/include" -c "$top/tests/relink/cyclic.c" -o cyc/t.o
(cd cyc && "$B/perfinst-ld" -O2 -o t t.o && rm -f t.pit && PERFINST_OUT=t.pit ./t 20 > /dev/null)
gcc -O2 -ffunction-sections -falign-functions=64 -c "$top/tests/relink/cyclic.c" -o cyc/p.o
(cd cyc && "$B/perfinst-ld" -O2 -o p p.o)
"$B/pmopt" plan --order=c3 -o cyc/fb cyc/t cyc/t.pit > cyc/plan.out
"$B/pmopt" relink cyc/p --feedback cyc/fb -o cyc/r --smoke 5 > cyc/relink.out
declare -A CI1 CIR
for v in o2 p r; do
    $CG --cachegrind-out-file=/dev/null ./cyc/$v 2000 > /dev/null 2> cyc/cg-$v.err
    CIR[$v]=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' cyc/cg-$v.err | tr -d ,)
    CI1[$v]=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' cyc/cg-$v.err | tr -d ,)
done
rm -f cyc/times.txt
time_rounds "$rounds" "$W/cyc/times.txt" 200000 o2=cyc/o2 p=cyc/p r=cyc/r || exit 1

# ---- the report --------------------------------------------------------------------
ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }
report() {
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- compiler: $(gcc --version | head -1); $(valgrind --version); $("$BOLT" --version 2>/dev/null | grep -m1 -i 'llvm version' | sed 's/^ *//' || echo 'no BOLT')"
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)')"
    echo
    echo "### Layout: SQLite workload, trained on mix train (size $train), measured on mix test"
    echo
    echo "cachegrind at size $test with --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
    echo "(I refs = instructions executed); wall and user CPU time: $rounds rounds at size $size, every"
    echo "variant once per round in rotated order, against -O2 and BOLT the median of the per-round"
    echo "ratios with a bootstrap 95 % interval (bench/paired.py)."
    echo
    echo "| variant | I1 misses | × -O2 | I refs | × -O2 | misses / 1000 instr | checksum |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    for v in "${variants[@]}"; do
        echo "| $v | ${I1[$v]} | $(ratio "${I1[$v]}" "${I1[O2]}") | ${IR[$v]} | $(ratio "${IR[$v]}" "${IR[O2]}") | $(python3 -c "print('%.2f' % (1000 * ${I1[$v]} / ${IR[$v]}))") | \`${SUM[$v]}\` |"
    done
    echo
    paired_report "$W/times.txt"
    echo
    echo "Relink time: \`pmopt relink\` (C3 plan, median of 3) $relink_med s against the original link"
    echo "(perfinst-ld, median of 3) $link_med s: $(ratio "$relink_med" "$link_med")× (target ≤ 2×)."
    echo
    echo "The plan (C3) on the training build:"
    echo
    echo '```'
    sed -n '1,12p' c3/plan.out
    echo '```'
    echo
    echo "### Hot code larger than L1i: tests/relink/cyclic.c (80 × ~500-byte functions in a cycle)"
    echo
    echo "cachegrind as above at 2000 rounds; wall and user CPU time: $rounds rounds at 200000 rounds"
    echo "(o2 = -O2, p = -O2 sections linked by perfinst-ld, r = relinked with the reserved region),"
    echo "against o2 round by round (bench/paired.py)."
    echo
    echo "| variant | I1 misses | × -O2 | I refs |"
    echo "| --- | --- | --- | --- |"
    for v in o2 p r; do
        echo "| $v | ${CI1[$v]} | $(ratio "${CI1[$v]}" "${CI1[o2]}") | ${CIR[$v]} |"
    done
    echo
    paired_report "$W/cyc/times.txt" o2
    echo
    echo '```'
    grep -E "before|after|reserved|chase" cyc/plan.out
    grep -E "overflow" cyc/relink.out
    echo '```'
    echo
}
report > report.md
bench_record report.md
