#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# layout-rebuild.sh — the rebuild loop on SQLite, beside GCC's own PGO.
# See docs/layout.md.
#
#   bench/layout-rebuild.sh [--train-size S] [--size S] [--rounds N] [--record]
#
#   --train-size S  workload size of the training runs (default 0.2, mix train)
#   --size S        workload size of the measured runs (default 0.05, mix test:
#                   a different seed and mix of operations than training)
#   --rounds N      interleaved rounds of wall-time runs at 10 x --size (default 5)
#   --record        append the result to bench/RESULTS.md
#   --no-after      do not build the counted rebuild (no measured "after"
#                   statistics; the plan's prediction is still printed)
#
# Variants, all gcc -O2 on bench/sqlite/workload.c + sqlite3.c:
#
#   o2        plain -O2
#   pgo       -fprofile-generate, trained on mix train, then -fprofile-use
#   perfinst  the rebuild loop: all=count + perfinst-ld, trained on mix
#             train, `pmopt plan -o FEEDBACK`, then -O2 with
#             -fplugin-arg-perfinst-feedback=FEEDBACK (no instrumentation)
#
# Measured on mix test: instructions and simulated I1 misses (cachegrind
# with a fixed geometry: --I1=32768,8,64 --D1=32768,8,64
# --LL=8388608,16,64), the taken branches of each program's own code
# (callgrind --collect-jumps --dump-instr, bench/taken-branches.py), wall
# and user CPU time (rounds of interleaved runs, compared with o2 round by
# round: bench/paired.py), and the taken branches / fall-through of the
# layout before and after the plan as pmopt plan --stats measures them on
# instrumented builds (the all=count build, and the same with the feedback
# applied).  Every run must print the same checksum.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/layout-rebuild.sh${*:+ $*}"
train=0.2
size=0.05
rounds=5
record=0
after=1
while [ $# -gt 0 ]; do
    case "$1" in
    --train-size) train=${2:?}; shift 2 ;;
    --size) size=${2:?}; shift 2 ;;
    --rounds) rounds=${2:?}; shift 2 ;;
    --record) record=1; shift ;;
    --no-after) after=0; shift ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "layout-rebuild: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
B=${PERFINST_BUILD:-$top/build}
W=$here/.work/layout
say() { echo "layout-rebuild: $*" >&2; }
die() { say "error: $*"; exit 1; }
mkdir -p "$W"
. "$here/lib.sh"
sqlite_setup
cd "$W" || die "no $W"

# build_with LINKER NAME CFLAGS...: NAME/prog from NAME's objects (reused while
# their stamp holds: bench/lib.sh sqlite_build), linked by perfinst-ld (pild)
# or by gcc with CFLAGS
build_with() {
    local ld=$1 n=$2; shift 2
    sqlite_build "$n" "$@" || die "building $n"
    if [ "$ld" = pild ]; then sqlite_pild "$n" || die "linking $n"
    elif [ ! "$n/prog" -nt "$n/sqlite3.o" ]; then
        gcc "$@" -o "$n/prog" "$n/workload.o" "$n/sqlite3.o" -lm || die "linking $n"
    fi
}
build() { build_with gcc "$@"; }
build_pi() { build_with pild "$@"; }
t0=$(date +%s)
say "building o2, pgo, perfinst (training, rebuild, rebuild counted), two at a time"
PI="-fplugin=$B/perfinst.so"
PGO_USE="-O2 -g -fprofile-use -Wno-missing-profile"
pgo_fresh=0
if [ -x pgo/prog ] && sqlite_stamp $PGO_USE | cmp -s - pgo/stamp; then pgo_fresh=1; fi
# (PGO is built, trained and rebuilt in one directory: the .gcda files lie
# beside the objects)
{ build o2 -O2 -g
  if [ $pgo_fresh = 0 ]; then
      rm -f pgo/*.gcda
      build pgo -O2 -g -fprofile-generate
      (cd pgo && ./prog "$train" train > train.out) || die "pgo training"
  fi; } &
p1=$!
{ build_pi pi-train -O2 -g $PI -fplugin-arg-perfinst-all=count
  [ pi-train/train.pit -nt pi-train/prog ] ||
      sqlite_train pi-train "$train" train.pit ||
      die "perfinst training"; } &
p2=$!
wait $p1 || die "o2/pgo"
wait $p2 || die "perfinst training"
t_plan0=$(date +%s.%N)
"$B/pmopt" plan -o plan.fb pi-train/prog pi-train/train.pit > plan.out 2> plan.err || { cat plan.err; die "pmopt plan"; }
t_plan1=$(date +%s.%N)
{ [ $pgo_fresh = 1 ] || build pgo $PGO_USE; } &
p1=$!
build perfinst -O2 -g $PI -fplugin-arg-perfinst-feedback="$W/plan.fb" &
p2=$!
wait $p1 || die "pgo"
wait $p2 || die "perfinst"
[ $after = 0 ] || build_pi pi-after -O2 -g $PI -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-feedback="$W/plan.fb"
t1=$(date +%s)
say "built in $((t1 - t0)) s"

# the layout's own statistics, before (the training build) and after, on mix test
(cd pi-train && rm -f test.pit && PERFINST_OUT=test.pit ./prog "$size" test > test.out)
"$B/pmopt" plan --stats pi-train/prog pi-train/test.pit > stats-before.txt || die "stats before"
if [ $after = 1 ]; then
    (cd pi-after && rm -f test.pit && PERFINST_OUT=test.pit ./prog "$size" test > test.out)
    "$B/pmopt" plan --stats pi-after/prog pi-after/test.pit > stats-after.txt || die "stats after"
else
    echo "(not measured: --no-after)" > stats-after.txt
fi

V=(o2 pgo perfinst)
declare -A IR I1 SUM TB
for v in "${V[@]}"; do
    c=$(sqlite_cachegrind "$v/prog" "$size" "$v/cac") || die "cachegrind $v"
    read -r IR[$v] I1[$v] SUM[$v] <<< "$c"
    [ "${SUM[$v]}" = "${SUM[o2]}" ] || die "$v printed ${SUM[$v]}, o2 ${SUM[o2]}"
    TB[$v]=$(sqlite_taken "$v/prog" "$size" "$v/taken.txt") || die "callgrind $v"
done
wsize=$(awk -v s="$size" 'BEGIN { print s * 10 }')
rm -f times.txt
time_rounds "$rounds" "$W/times.txt" "$wsize test" o2=o2/prog pgo=pgo/prog perfinst=perfinst/prog || die "timing"
tb() { awk '/taken branches/ { print $3, $4 }' "$1"; }
ft() { awk '/fall-through/ { print $2, $3 }' "$1"; }
fl() { awk '/executed edges/ { print $3 }' "$1"; }
{
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — \`$cmdline\`"
    echo
    echo "The rebuild loop on SQLite beside GCC PGO ($(gcc --version | head -1); commit"
    echo "$(git -C "$top" rev-parse --short HEAD); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))."
    echo
    echo "Command: \`$cmdline\`; trained on \`workload $train train\`, measured on \`workload $size test\`"
    echo "(wall and user CPU time of \`workload $wsize test\`, $rounds rounds, each running every variant once"
    echo "in rotated order; against o2 the median of the per-round ratios with a bootstrap 95 % interval,"
    echo "bench/paired.py).  cachegrind $GEOM (I refs = instructions executed); taken branches of"
    echo "the program's own code (callgrind --collect-jumps --dump-instr, bench/taken-branches.py)."
    echo
    echo "| variant | instructions | ratio | I1 misses | ratio | taken branches | ratio |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    for v in "${V[@]}"; do
        awk -v v="$v" -v ir="${IR[$v]}" -v ir0="${IR[o2]}" -v i1="${I1[$v]}" -v i10="${I1[o2]}" \
            -v tb="${TB[$v]}" -v tb0="${TB[o2]}" \
            'BEGIN { printf "| %s | %d | %.3f | %d | %.3f | %d | %.3f |\n", v, ir, ir / ir0, i1, i1 / i10, tb, tb / tb0 }'
    done
    echo
    paired_report "$W/times.txt" o2
    echo
    echo "Layout statistics of the counted builds on the test input (\`pmopt plan --stats\`):"
    echo "before (the -O2 layout) $(tb stats-before.txt) taken of $(fl stats-before.txt) edges"
    echo "($(ft stats-before.txt) fall through); after the plan $(tb stats-after.txt) taken of"
    echo "$(fl stats-after.txt) ($(ft stats-after.txt) fall through).  On the training input the plan"
    echo "predicted $(sed -n '/predicted/,$p' plan.out | awk '/taken branches/ { print $3, $4 }') taken where the -O2 layout took"
    echo "$(sed -n '1,/predicted/p' plan.out | awk '/taken branches/ { print $3, $4; exit }').  Plan: $(grep '^branches:' plan.out)"
    awk -v a="$t_plan0" -v b="$t_plan1" 'BEGIN { printf "(pmopt plan took %.1f s).\n", b - a }'
} > result.md
cat result.md
if [ $record = 1 ]; then
    { echo; cat result.md; } >> "$here/RESULTS.md"
fi
