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
B=$top/build
cmdline="bench/layout-relink.sh $*"
. "$here/lib.sh"
bench_opts layout-relink "$@"
say() { echo "layout-relink: $*" >&2; }
W=$here/.work/layout
mkdir -p "$W"
SQ=$("$here/fetch-sqlite.sh" | tail -1)
export PERFINST_LIB_DIR=$B
DEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
if ! command -v llvm-bolt > /dev/null && [ ! -x /usr/lib/llvm-22/bin/llvm-bolt ]; then
    say "installing bolt-22 (llvm-bolt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y bolt-22 > "$W/apt.log" 2>&1 || {
        say "cannot install bolt-22: the bolt variant is skipped"; }
fi
BOLT=$(command -v llvm-bolt || echo /usr/lib/llvm-22/bin/llvm-bolt)
CG="valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
cd "$W"

# ---- builds ------------------------------------------------------------------
build() { # DIR CFLAGS... : sqlite3.o and workload.o in DIR, once
    local d=$1; shift
    mkdir -p "$d"
    if [ ! -f "$d/sqlite3.o" ] || [ ! -f "$d/flags" ] || [ "$(cat "$d/flags")" != "$*" ]; then
        say "compiling $d: $*"
        gcc "$@" $DEFS -I"$SQ" -c "$SQ/sqlite3.c" -o "$d/sqlite3.o"
        gcc "$@" $DEFS -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o "$d/workload.o"
        echo "$*" > "$d/flags"
    fi
}
build o2 -O2
build sec -O2 -ffunction-sections -fdata-sections
build bolt -O2 -fno-reorder-blocks-and-partition
build train -O2 -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections
gcc -O2 -o o2/prog o2/workload.o o2/sqlite3.o -lm
(cd sec && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm)
(cd train && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm)

# ---- training ----------------------------------------------------------------
say "training run (ours) at size $train"
rm -f train/t.pit
(cd train && PERFINST_OUT=t.pit ./prog "$train" train > train.out)
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
    gcc -O2 -Wl,--emit-relocs -o bolt/prog.in bolt/workload.o bolt/sqlite3.o -lm
    rm -f bolt/prof.fdata
    "$BOLT" bolt/prog.in -instrument -instrumentation-file="$W/bolt/prof.fdata" -o bolt/prog.inst > bolt/inst.log 2>&1
    (cd bolt && ./prog.inst "$train" train > /dev/null)
    "$BOLT" bolt/prog.in -data=bolt/prof.fdata -reorder-blocks=ext-tsp -reorder-functions=cdsort \
        -split-functions -o bolt/prog > bolt/opt.log 2>&1
    variants+=(bolt); P[bolt]=bolt/prog
fi

# ---- checksums, cachegrind -----------------------------------------------------
declare -A I1 IR SUM
for v in "${variants[@]}"; do
    say "cachegrind: $v at size $test (test mix)"
    $CG --cachegrind-out-file=/dev/null ./${P[$v]} "$test" test > cg-$v.out 2> cg-$v.err
    IR[$v]=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' cg-$v.err | tr -d ,)
    I1[$v]=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' cg-$v.err | tr -d ,)
    SUM[$v]=$(tail -1 cg-$v.out)
done
# ---- wall time, interleaved ------------------------------------------------------
declare -A WT
for r in $(seq "$rounds"); do
    n=${#variants[@]}
    for k in $(seq 0 $((n - 1))); do
        v=${variants[$(( (k + r) % n ))]}
        t0=$(date +%s.%N); ./${P[$v]} "$size" test > /dev/null; t1=$(date +%s.%N)
        WT[$v]="${WT[$v]:-} $(echo "$t1 - $t0" | bc)"
    done
done

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
declare -A CI1 CIR CWT
for v in o2 p r; do
    $CG --cachegrind-out-file=/dev/null ./cyc/$v 2000 > /dev/null 2> cyc/cg-$v.err
    CIR[$v]=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' cyc/cg-$v.err | tr -d ,)
    CI1[$v]=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' cyc/cg-$v.err | tr -d ,)
done
for r in $(seq "$rounds"); do
    for v in o2 p r; do
        t0=$(date +%s.%N); ./cyc/$v 200000 > /dev/null; t1=$(date +%s.%N)
        CWT[$v]="${CWT[$v]:-} $(echo "$t1 - $t0" | bc)"
    done
done

# ---- the report --------------------------------------------------------------------
ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }
stats() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {printf "%.3f s [%.3f–%.3f]", a[int((NR+1)/2)], a[1], a[NR]}'; }
med() { median $1; }
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
    echo "(I refs = instructions executed); wall: median of $rounds interleaved runs at size $size [range]."
    echo
    echo "| variant | I1 misses | × -O2 | I refs | × -O2 | misses / 1000 instr | wall | × -O2 | checksum |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    local w0; w0=$(med "${WT[O2]}")
    for v in "${variants[@]}"; do
        local w; w=$(med "${WT[$v]}")
        echo "| $v | ${I1[$v]} | $(ratio "${I1[$v]}" "${I1[O2]}") | ${IR[$v]} | $(ratio "${IR[$v]}" "${IR[O2]}") | $(python3 -c "print('%.2f' % (1000 * ${I1[$v]} / ${IR[$v]}))") | $(stats "${WT[$v]}") | $(ratio "$w" "$w0") | \`$(echo "${SUM[$v]}" | cut -d' ' -f1)\` |"
    done
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
    echo "cachegrind as above at 2000 rounds; wall: median of $rounds interleaved runs at 200000 rounds."
    echo
    echo "| variant | I1 misses | × -O2 | I refs | wall | × -O2 |"
    echo "| --- | --- | --- | --- | --- | --- |"
    local c0; c0=$(med "${CWT[o2]}")
    for v in o2 p r; do
        local name=$v
        [ $v = o2 ] && name="-O2"; [ $v = p ] && name="-O2 sections, perfinst-ld"; [ $v = r ] && name="relinked, reserved region"
        echo "| $name | ${CI1[$v]} | $(ratio "${CI1[$v]}" "${CI1[o2]}") | ${CIR[$v]} | $(stats "${CWT[$v]}") | $(ratio "$(med "${CWT[$v]}")" "$c0") |"
    done
    echo
    echo '```'
    grep -E "before|after|reserved|chase" cyc/plan.out
    grep -E "overflow" cyc/relink.out
    echo '```'
    echo
}
report > report.md
cat report.md
if [ $record = 1 ]; then
    { echo; cat report.md; } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
