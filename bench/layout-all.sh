#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/layout-all.sh — every layout variant on SQLite in one run (docs/layout.md
# "Benchmark"; results in bench/RESULTS.md with --record).
#
#   bench/layout-all.sh [--record] [--train S] [--test S] [--size S] [--rounds N]
#
# bench/sqlite/workload.c + sqlite3.c, every variant trained on mix train
# (size --train, 0.3) and measured on mix test (size --test, 0.1):
#   O2             gcc -O2
#   pgo            -fprofile-generate, trained, -fprofile-use
#   bolt           -O2 -fno-reorder-blocks-and-partition -Wl,--emit-relocs,
#                  llvm-bolt -instrument, trained, llvm-bolt
#                  -reorder-blocks=ext-tsp -reorder-functions=cdsort
#                  -split-functions (bolt-22)
#   rebuild        the training build (all=count, sections) run, ONE plan
#                  `pmopt plan --order=exttsp --rebuild -o fb`, then -O2
#                  -fplugin-arg-perfinst-feedback=fb -fplugin-arg-perfinst-sections
#                  linked by perfinst-ld
#   rebuild+relink rebuild relinked with the same file: `pmopt relink
#                  rebuild --feedback fb` (the order of the training build)
#   rebuild+relink2 rebuild relinked with an order planned on the rebuilt
#                  program's own sections: a counted rebuild (all=count +
#                  feedback=fb + sections) trained again, `pmopt plan
#                  --order=exttsp -o fb2`, `pmopt relink rebuild --feedback fb2`
#   rebuild+relink2t as relink2, the order planned with --tier-first (the hot
#                  tier's functions first, the other executed ones after)
#   rebuild+relink-sets as relink2, the order planned with --order=sets
#                  --target=rebuild: Ext-TSP's order spread over the L1i sets
#                  by set pressure, for the rebuilt program's sizes
#                  (docs/layout.md "Set pressure"); --reserve-sets=0: the
#                  order alone, as measured first (a reserved region naming a
#                  static function failed to link then; fixed in ee93d02)
# Measured on mix test at --test: cachegrind I1 misses and I refs (the
# instructions executed, what callgrind counts) with --I1=32768,8,64
# --D1=32768,8,64 --LL=8388608,16,64; taken jumps from callgrind
# --collect-jumps (unconditional jumps + taken conditional jumps, within
# functions); wall and user CPU time (bench/timeit): median of --rounds (5)
# interleaved runs at --size (1).
# Relink time (median of 3) against perfinst-ld's link of the same objects.
# Every variant must print the -O2 checksum.
# One cachegrind count per variant: a shift of the layout by 1-3 KiB moves it
# by up to 15 % on SQLite; bench/layout-shifts.sh measures the rebuild and its
# relinks at several shifts from this script's work directory.
# (The taken-jumps column came out the same for every variant, BOLT
# included, in the first run: callgrind's jump counts do not see the
# layout here; bench/RESULTS.md.)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
cmdline="bench/layout-all.sh${*:+ $*}"
. "$here/lib.sh"
bench_opts layout-all "$@"
say() { echo "layout-all: $(date -u +%T) $*" >&2; }
die() { say "error: $*"; exit 1; }
W=$here/.work/layout-all
mkdir -p "$W"
SQ=$("$here/fetch-sqlite.sh" | tail -1)
export PERFINST_LIB_DIR=$B
DEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
if ! command -v llvm-bolt > /dev/null && [ ! -x /usr/lib/llvm-22/bin/llvm-bolt ]; then
    say "installing bolt-22 (llvm-bolt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y bolt-22 > "$W/apt.log" 2>&1 ||
        say "cannot install bolt-22: the bolt variant is skipped"
fi
BOLT=$(command -v llvm-bolt || echo /usr/lib/llvm-22/bin/llvm-bolt)
GEOM="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
PI="-fplugin=$B/perfinst.so"
cd "$W"

# build DIR CFLAGS...: sqlite3.o and workload.o in DIR, reused while the
# flags, the plugin and a named feedback file are unchanged
stamp() {
    echo "$*"
    for a in "$@"; do
        case $a in
        -fplugin=*) sha256sum "${a#-fplugin=}" ;;
        -fplugin-arg-perfinst-feedback=*) sha256sum "${a#-fplugin-arg-perfinst-feedback=}" ;;
        -fprofile-use) cat pgo/*.gcda 2> /dev/null | sha256sum ;;
        esac
    done
    sha256sum "$here/sqlite/workload.c" "$SQ/sqlite3.c"
}
build() {
    local d=$1; shift
    mkdir -p "$d"
    if [ -f "$d/sqlite3.o" ] && stamp "$@" | cmp -s - "$d/stamp"; then return 0; fi
    say "compiling $d: $*"
    rm -f "$d/stamp"
    gcc "$@" $DEFS -I"$SQ" -c "$SQ/sqlite3.c" -o "$d/sqlite3.o"
    gcc "$@" $DEFS -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o "$d/workload.o"
    stamp "$@" > "$d/stamp"
}
pild() { (cd "$1" && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm); }
t0=$(date +%s)
# ---- round 1: o2, pgo-gen, bolt, training (two at a time) ---------------------------
{ build o2 -O2; gcc -O2 -o o2/prog o2/workload.o o2/sqlite3.o -lm
  build bolt -O2 -fno-reorder-blocks-and-partition; } &
p1=$!
{ build train -O2 $PI -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections; pild train
  mkdir -p pgo
  if [ ! -f pgo/used ]; then
      rm -f pgo/*.gcda pgo/stamp
      build pgo -O2 -fprofile-generate
      gcc -O2 -fprofile-generate -o pgo/prog pgo/workload.o pgo/sqlite3.o -lm
      (cd pgo && ./prog "$train" train > /dev/null)
  fi; } &
p2=$!
wait $p1 || die "o2/bolt"
wait $p2 || die "training/pgo"
say "training run (ours) at size $train"
(cd train && rm -f t.pit && PERFINST_OUT=t.pit ./prog "$train" train > /dev/null)
t_p0=$(date +%s.%N)
"$B/pmopt" plan --order=exttsp --rebuild -o fb train/prog train/t.pit > plan.out 2> plan.err ||
    { cat plan.err >&2; die "pmopt plan"; }
t_p1=$(date +%s.%N)
# ---- round 2: pgo-use, rebuild, counted rebuild ------------------------------------
{ build pgo -O2 -fprofile-use -Wno-missing-profile
  gcc -O2 -o pgo/prog pgo/workload.o pgo/sqlite3.o -lm; touch pgo/used
  build rebuild-count -O2 $PI -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-feedback="$W/fb" \
      -fplugin-arg-perfinst-sections; pild rebuild-count; } &
p1=$!
{ build rebuild -O2 $PI -fplugin-arg-perfinst-feedback="$W/fb" -fplugin-arg-perfinst-sections
  pild rebuild; } &
p2=$!
wait $p1 || die "pgo/rebuild-count"
wait $p2 || die "rebuild"
say "built in $(( $(date +%s) - t0 )) s"
# ---- relinks --------------------------------------------------------------------------
mkdir -p relink relink2 relink2t relinks
"$B/pmopt" relink rebuild/prog --feedback fb -o relink/prog --smoke "0.02 test" > relink/out 2> relink/err ||
    { cat relink/err >&2; die "relink"; }
(cd rebuild-count && rm -f t.pit && PERFINST_OUT=t.pit ./prog "$train" train > /dev/null)
"$B/pmopt" plan --order=exttsp -o fb2 rebuild-count/prog rebuild-count/t.pit > plan2.out 2> plan2.err ||
    { cat plan2.err >&2; die "plan 2"; }
"$B/pmopt" relink rebuild/prog --feedback fb2 -o relink2/prog --smoke "0.02 test" > relink2/out 2> relink2/err ||
    { cat relink2/err >&2; die "relink 2"; }
"$B/pmopt" plan --order=exttsp --tier-first -o fb2t rebuild-count/prog rebuild-count/t.pit > plan2t.out 2> plan2t.err ||
    { cat plan2t.err >&2; die "plan 2t"; }
"$B/pmopt" relink rebuild/prog --feedback fb2t -o relink2t/prog --smoke "0.02 test" > relink2t/out 2> relink2t/err ||
    { cat relink2t/err >&2; die "relink 2t"; }
say "planning --order=sets for the rebuilt program"
t_s0=$(date +%s.%N)
"$B/pmopt" plan --order=sets --target=rebuild/prog --reserve-sets=0 -o fbs rebuild-count/prog rebuild-count/t.pit > plans.out 2> plans.err ||
    { cat plans.err >&2; die "plan sets"; }
t_s1=$(date +%s.%N)
"$B/pmopt" relink rebuild/prog --feedback fbs -o relinks/prog --smoke "0.02 test" > relinks/out 2> relinks/err ||
    { cat relinks/err >&2; die "relink sets"; }
rt=() lt=()
for i in 1 2 3; do
    a=$(date +%s.%N); "$B/pmopt" relink rebuild/prog --feedback fb -o relink/prog > /dev/null 2>&1; b=$(date +%s.%N)
    rt+=("$(echo "$b - $a" | bc)")
    a=$(date +%s.%N); pild rebuild; b=$(date +%s.%N)
    lt+=("$(echo "$b - $a" | bc)")
done
relink_med=$(median "${rt[@]}") link_med=$(median "${lt[@]}")
V=(O2 pgo rebuild rebuild+relink rebuild+relink2 rebuild+relink2t rebuild+relink-sets)
declare -A P=([O2]=o2/prog [pgo]=pgo/prog [rebuild]=rebuild/prog [rebuild+relink]=relink/prog [rebuild+relink2]=relink2/prog
    [rebuild+relink2t]=relink2t/prog [rebuild+relink-sets]=relinks/prog)
if [ -x "$BOLT" ]; then
    say "BOLT: instrument, train at $train, optimize"
    gcc -O2 -Wl,--emit-relocs -o bolt/prog.in bolt/workload.o bolt/sqlite3.o -lm
    rm -f bolt/prof.fdata
    "$BOLT" bolt/prog.in -instrument -instrumentation-file="$W/bolt/prof.fdata" -o bolt/prog.inst > bolt/inst.log 2>&1
    (cd bolt && ./prog.inst "$train" train > /dev/null)
    "$BOLT" bolt/prog.in -data=bolt/prof.fdata -reorder-blocks=ext-tsp -reorder-functions=cdsort \
        -split-functions -o bolt/prog > bolt/opt.log 2>&1
    V+=(bolt); P[bolt]=bolt/prog
fi
for v in rebuild relink relink2 relink2t relinks; do
    "$B/pmopt" plan --order=sets --sets-passes=0 --target=$v/prog --advise rebuild-count/prog rebuild-count/t.pit 2>&1 |
        grep 'as linked' > aslinked-$v || true
done
# ---- valgrind -----------------------------------------------------------------------------
declare -A I1 IR TJ SUM WT UT
gcc -O2 -o timeit "$here/timeit.c"
for v in "${V[@]}"; do
    say "cachegrind + callgrind: $v at $test (test mix)"
    f=$(echo "$v" | tr + _)
    valgrind --tool=cachegrind --cache-sim=yes $GEOM --cachegrind-out-file=/dev/null ./${P[$v]} "$test" test > cac-$f.out 2> cac-$f.err
    IR[$v]=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' cac-$f.err | tr -d ,)
    I1[$v]=$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' cac-$f.err | tr -d ,)
    SUM[$v]=$(tail -1 cac-$f.out | cut -d' ' -f1)
    [ "${SUM[$v]}" = "${SUM[O2]}" ] || die "$v printed ${SUM[$v]}, O2 ${SUM[O2]}"
    valgrind --tool=callgrind --collect-jumps=yes --callgrind-out-file=cg-$f.data ./${P[$v]} "$test" test > /dev/null 2> cg-$f.err
    # jump=COUNT TARGET; jcnd=TAKEN/EXECUTED TARGET
    TJ[$v]=$(awk -F'[= /]' '/^jump=/ {t += $2} /^jcnd=/ {t += $2} END {printf "%d", t}' cg-$f.data)
    rm -f cg-$f.data
done
for r in $(seq "$rounds"); do
    n=${#V[@]}
    for k in $(seq 0 $((n - 1))); do
        v=${V[$(( (k + r) % n ))]}
        rm -f time.1
        ./timeit time.1 ./${P[$v]} "$size" test > /dev/null
        WT[$v]="${WT[$v]:-} $(sed -n 's/^wall=\([0-9.]*\) .*/\1/p' time.1)"
        UT[$v]="${UT[$v]:-} $(sed -n 's/.* user=\([0-9.]*\) .*/\1/p' time.1)"
    done
done
say "done in $(( $(date +%s) - t0 )) s"
# ---- report ---------------------------------------------------------------------------------
ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }
report() {
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- compiler: $(gcc --version | head -1); $(valgrind --version); $("$BOLT" --version 2>/dev/null | grep -m1 -i 'llvm version' | sed 's/^ *//' || echo 'no BOLT')"
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)')"
    echo
    echo "### All layout variants: SQLite workload, trained on mix train (size $train), measured on mix test"
    echo
    echo "cachegrind/callgrind at size $test with $GEOM (I refs = instructions executed;"
    echo "taken jumps = callgrind --collect-jumps, unconditional + taken conditional); wall: median of"
    echo "$rounds interleaved runs at size $size [range] (bench/timeit; user CPU: median of the same runs;"
    echo "the machine is shared: wall and CPU time are noisy, the cachegrind counts are deterministic)."
    echo
    echo "| variant | I1 misses | × -O2 | I refs | × -O2 | taken jumps | × -O2 | wall | × -O2 | user CPU | × -O2 |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    local w0; w0=$(median ${WT[O2]})
    local u0; u0=$(median ${UT[O2]})
    for v in "${V[@]}"; do
        local w; w=$(median ${WT[$v]})
        local lo hi
        lo=$(printf '%s\n' ${WT[$v]} | sort -g | head -1); hi=$(printf '%s\n' ${WT[$v]} | sort -g | tail -1)
        local u; u=$(median ${UT[$v]})
        printf '| %s | %s | %s | %s | %s | %s | %s | %.3f s [%.3f–%.3f] | %s | %.3f s | %s |\n' "$v" \
            "${I1[$v]}" "$(ratio "${I1[$v]}" "${I1[O2]}")" "${IR[$v]}" "$(ratio "${IR[$v]}" "${IR[O2]}")" \
            "${TJ[$v]}" "$(ratio "${TJ[$v]}" "${TJ[O2]}")" "$w" "$lo" "$hi" "$(ratio "$w" "$w0")" \
            "$u" "$(ratio "$u" "$u0")"
    done
    echo
    echo "Every variant printed the -O2 checksum \`${SUM[O2]}\`."
    echo "One plan file for both loops: $(tail -1 plan.out) (pmopt plan $(echo "$t_p1 - $t_p0" | bc | xargs printf '%.1f') s);"
    echo "relink: $(grep -m1 'planned order' relink/out | sed 's/^pmopt relink: //');"
    echo "relink2 (order planned on the counted rebuild): $(grep -m1 'planned order' relink2/out | sed 's/^pmopt relink: //');"
    echo "relink2t (the same, --tier-first: $(grep -m1 'the hot tier' plan2t.out | sed 's/^ *the hot tier //')): $(grep -m1 'planned order' relink2t/out | sed 's/^pmopt relink: //')."
    echo "relink-sets: $(grep -m1 'set pressure (' plans.out | sed 's/^ *//'), $(grep -m1 'Ext-TSP score .* -> ' plans.out | sed 's/^ *//') (pmopt plan --order=sets $(echo "$t_s1 - $t_s0" | bc | xargs printf '%.1f') s on a loaded machine);"
    echo "set pressure of the programs as linked (the counted rebuild's profile): $(for v in rebuild relink relink2 relink2t relinks; do printf '%s %s; ' $v "$(sed -n 's/.*as linked: \([0-9]*\) .*/\1/p' aslinked-$v)"; done)"
    echo "$(grep -m1 'planned order' relinks/out | sed 's/^pmopt relink: //')."
    echo "Relink time (median of 3) $relink_med s against perfinst-ld's link $link_med s: $(ratio "$relink_med" "$link_med")×."
    echo
}
report > report.md
cat report.md
if [ $record = 1 ]; then
    { echo; cat report.md; } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
