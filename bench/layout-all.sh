#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/layout-all.sh — every layout variant on SQLite in one run (docs/layout.md
# "Benchmark"; results in bench/RESULTS.md with --record).
#
#   bench/layout-all.sh [--record] [--train S] [--test S] [--size S] [--rounds N]
#                       [--work DIR] [--wall-only]
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
#                  `pmopt plan --order=exttsp --rebuild -o fb` (the order
#                  the algorithm's order, pmopt's default), then -O2
#                  -fplugin-arg-perfinst-feedback=fb -fplugin-arg-perfinst-sections
#                  linked by perfinst-ld
#   rebuild+relink rebuild relinked with the same file: `pmopt relink
#                  rebuild --feedback fb` (the order of the training build)
#   rebuild+promote as rebuild, the plan with --promote-calls (fbp: fb's
#                  recommendations and promote-call for the indirect call
#                  sites with a dominant target, docs/layout.md "Promoted
#                  indirect calls")
#   rebuild+promote+relink rebuild+promote relinked with fbp
#   rebuild+relink2 rebuild relinked with an order planned on the rebuilt
#                  program's own sections: a counted rebuild (all=count +
#                  feedback=fb + sections) trained again, `pmopt plan
#                  --order=exttsp --no-tier-first -o fb2` (Ext-TSP's order
#                  alone), `pmopt relink rebuild --feedback fb2`
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
# --D1=32768,8,64 --LL=8388608,16,64; taken branches of the program's own
# code (callgrind --collect-jumps --dump-instr read by
# bench/taken-branches.py: every jmp, and every jcc that jumped;
# docs/layout.md "Taken branches under callgrind"), beside pmopt's own
# statistics of the counted builds on the training mix (`pmopt plan
# --stats`: the training build, i.e. -O2's layout, measured; the plan's
# prediction; the counted rebuild measured); wall and user CPU time
# (bench/timeit) of --rounds (5) rounds at --size (1), each round running
# every variant once in rotated order, compared round by round with -O2
# and with BOLT (bench/paired.py: the median of the per-round ratios and a
# bootstrap 95 % interval; docs/layout.md "Paired wall time").
# --wall-only: no build, no valgrind; only the timing rounds, of the
# programs already in the work directory (--work DIR, default
# bench/.work/layout-all; each VARIANT/prog that exists), for a quiet
# machine; the runs go to DIR/wall-DATE.times and the report to
# DIR/wall-DATE.md (nothing in DIR is rewritten).
# Relink time (median of 3) against perfinst-ld's link of the same objects.
# Every variant must print the -O2 checksum.
# One cachegrind count per variant: a shift of the layout by 1-3 KiB moves it
# by up to 15 % on SQLite; bench/layout-shifts.sh measures the rebuild and its
# relinks at several shifts from this script's work directory.  Both count
# one draw of the cold code (no redraws) and rank nothing: the variants and
# defaults are ranked by bench/suite.sh, 8 layouts x 8 redraws a pair
# (docs/layout.md "Benchmarks").
# (The first runs' "taken jumps", callgrind's jump totals per source line,
# came out the same for every variant, BOLT included: without line
# information every jump within a function was dropped; bench/RESULTS.md.)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
cmdline="bench/layout-all.sh${*:+ $*}"
W=$here/.work/layout-all wall_only=0
args=()
while [ $# -gt 0 ]; do
    case $1 in
    --work) [ $# -ge 2 ] || { echo "layout-all: --work needs a value" >&2; exit 2; }; W=$2; shift 2 ;;
    --wall-only) wall_only=1; shift ;;
    *) args+=("$1"); shift ;;
    esac
done
. "$here/lib.sh"
bench_opts layout-all "${args[@]}"
say() { echo "layout-all: $(date -u +%T) $*" >&2; }
die() { say "error: $*"; exit 1; }
# the variants, their programs in the work directory (the order of the rotation)
V=(O2 pgo rebuild rebuild+relink rebuild+relink2 rebuild+relink2t rebuild+relink-sets rebuild+promote rebuild+promote+relink)
declare -A P=([O2]=o2/prog [pgo]=pgo/prog [rebuild]=rebuild/prog [rebuild+relink]=relink/prog [rebuild+relink2]=relink2/prog
    [rebuild+relink2t]=relink2t/prog [rebuild+relink-sets]=relinks/prog [bolt]=bolt/prog
    [rebuild+promote]=rebuild-p/prog [rebuild+promote+relink]=relinkp/prog)
machine() {
    echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
# the timing rounds of VARIANTS... into TIMES (fresh), then the paired table
time_variants() {
    local times=$1 v tv=(); shift
    rm -f "$times"
    for v in "$@"; do tv+=("$v=./${P[$v]}"); done
    say "timing: $rounds rounds of ${#tv[@]} programs at $size (test mix)"
    time_rounds "$rounds" "$times" "$size test" "${tv[@]}"
}
wall_text() {
    echo "Wall and user CPU time (bench/timeit) of \`PROG $size test\`: $rounds rounds, each running every"
    echo "variant once in rotated order; per variant the median over its runs, and against -O2 and BOLT"
    echo "the median of the per-round ratios with a bootstrap 95 % interval (bench/paired.py, seed 1)."
    echo
}
if [ $wall_only = 1 ]; then
    cd "$W" || die "no work directory $W"
    TV=()
    for v in "${V[@]}" bolt; do [ -x "${P[$v]}" ] && TV+=("$v"); done
    [ ${#TV[@]} -gt 1 ] || die "$W: fewer than two programs (run bench/layout-all.sh first)"
    stamp=$(date -u +%Y%m%d-%H%M%S)
    time_variants "$W/wall-$stamp.times" "${TV[@]}"
    {
        echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
        echo
        machine
        echo "- programs: $W (built $(date -u -r "$W/${P[${TV[0]}]}" '+%Y-%m-%d %H:%M UTC'))"
        echo "- tree: $(cd "$top" && git rev-parse --short HEAD)"
        echo
        wall_text
        paired_report "$W/wall-$stamp.times"
        echo
        echo "Runs: \`$W/wall-$stamp.times\`."
        echo
    } > "$W/wall-$stamp.md"
    bench_record "$W/wall-$stamp.md"
    exit 0
fi
mkdir -p "$W"
sqlite_setup
bolt_setup "$W/apt.log"
cd "$W"
t0=$(date +%s)
# ---- round 1: o2, pgo-gen, bolt, training (two at a time) ---------------------------
{ sqlite_build o2 -O2; sqlite_gcc_link o2
  sqlite_build bolt -O2 -fno-reorder-blocks-and-partition; } &
p1=$!
{ sqlite_build_train train
  mkdir -p pgo
  if [ ! -f pgo/used ]; then
      rm -f pgo/*.gcda pgo/stamp
      sqlite_build pgo -O2 -fprofile-generate
      sqlite_gcc_link pgo -fprofile-generate
      (cd pgo && ./prog "$train" train > /dev/null)
  fi; } &
p2=$!
wait $p1 || die "o2/bolt"
wait $p2 || die "training/pgo"
say "training run (ours) at size $train"
sqlite_train train "$train"
t_p0=$(date +%s.%N)
"$B/pmopt" plan --order=exttsp --rebuild -o fb train/prog train/t.pit > plan.out 2> plan.err ||
    { cat plan.err >&2; die "pmopt plan"; }
t_p1=$(date +%s.%N)
"$B/pmopt" plan --order=exttsp --rebuild --promote-calls -o fbp train/prog train/t.pit > planp.out 2> planp.err ||
    { cat planp.err >&2; die "pmopt plan (promote)"; }
# ---- round 2: pgo-use, rebuild, counted rebuild ------------------------------------
{ sqlite_build pgo -O2 -fprofile-use -Wno-missing-profile
  sqlite_gcc_link pgo; touch pgo/used
  sqlite_build_rebuild rebuild-count "$W/fb" count; } &
p1=$!
{ sqlite_build_rebuild rebuild "$W/fb"
  sqlite_build_rebuild rebuild-p "$W/fbp"; } &
p2=$!
wait $p1 || die "pgo/rebuild-count"
wait $p2 || die "rebuild"
say "built in $(( $(date +%s) - t0 )) s"
# ---- relinks --------------------------------------------------------------------------
mkdir -p relink relink2 relink2t relinks relinkp
"$B/pmopt" relink rebuild/prog --feedback fb -o relink/prog --smoke "0.02 test" > relink/out 2> relink/err ||
    { cat relink/err >&2; die "relink"; }
"$B/pmopt" relink rebuild-p/prog --feedback fbp -o relinkp/prog --smoke "0.02 test" > relinkp/out 2> relinkp/err ||
    { cat relinkp/err >&2; die "relink (promote)"; }
sqlite_train rebuild-count "$train"
"$B/pmopt" plan --stats rebuild-count/prog rebuild-count/t.pit > stats-rebuild-count.out 2>&1 ||
    { cat stats-rebuild-count.out >&2; die "pmopt plan --stats"; }
"$B/pmopt" plan --order=exttsp --no-tier-first -o fb2 rebuild-count/prog rebuild-count/t.pit > plan2.out 2> plan2.err ||
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
    a=$(date +%s.%N); (cd rebuild && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm); b=$(date +%s.%N)
    lt+=("$(echo "$b - $a" | bc)")
done
relink_med=$(median "${rt[@]}") link_med=$(median "${lt[@]}")
if [ -x "$BOLT" ]; then
    say "BOLT: instrument, train at $train, optimize"
    sqlite_bolt bolt "$train" || die "bolt"
    V+=(bolt)
fi
for v in rebuild relink relink2 relink2t relinks; do
    "$B/pmopt" plan --order=sets --sets-passes=0 --target=$v/prog --advise rebuild-count/prog rebuild-count/t.pit 2>&1 |
        grep 'as linked' > aslinked-$v || true
done
# ---- valgrind -----------------------------------------------------------------------------
declare -A I1 IR TB SUM
for v in "${V[@]}"; do
    say "cachegrind + callgrind: $v at $test (test mix)"
    f=$(echo "$v" | tr + _)
    c=$(sqlite_cachegrind ./${P[$v]} "$test" cac-$f) || die "cachegrind $v"
    read -r IR[$v] I1[$v] SUM[$v] <<< "$c"
    [ "${SUM[$v]}" = "${SUM[O2]}" ] || die "$v printed ${SUM[$v]}, O2 ${SUM[O2]}"
    TB[$v]=$(sqlite_taken ./${P[$v]} "$test" taken-$f.txt) || die "callgrind $v"
done
time_variants "$W/times.txt" "${V[@]}"
say "done in $(( $(date +%s) - t0 )) s"
# ---- report ---------------------------------------------------------------------------------
ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }
# pmopt's taken branches (share of executed edges) in FILE's first or second statistics
pm_taken() { awk -v k="$2" '/taken branches/ && ++n == k { print $4 }' "$1" | tr -d '()'; }
report() {
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    machine
    echo "- compiler: $(gcc --version | head -1); $(valgrind --version); $("$BOLT" --version 2>/dev/null | grep -m1 -i 'llvm version' | sed 's/^ *//' || echo 'no BOLT')"
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)')"
    echo
    echo "### All layout variants: SQLite workload, trained on mix train (size $train), measured on mix test"
    echo
    echo "cachegrind/callgrind at size $test with $GEOM (I refs = instructions executed;"
    echo "taken branches = the program's own jmp and taken jcc executions, callgrind --collect-jumps"
    echo "--dump-instr read by bench/taken-branches.py); pmopt = \`pmopt plan --stats\` of the counted builds"
    echo "on the training mix, taken branches as a share of executed edges (O2: the training build's"
    echo "layout, measured; ours: the plan's prediction / the counted rebuild measured; a relink keeps"
    echo "the rebuild's blocks)."
    echo
    echo "| variant | I1 misses | × -O2 | I refs | × -O2 | taken branches | × -O2 | pmopt taken (train mix) |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    local v pm
    for v in "${V[@]}"; do
        case $v in
        O2) pm="$(pm_taken plan.out 1) measured" ;;
        rebuild*) pm="$(pm_taken plan.out 2) predicted / $(pm_taken stats-rebuild-count.out 1) measured" ;;
        *) pm="—" ;;
        esac
        printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$v" \
            "${I1[$v]}" "$(ratio "${I1[$v]}" "${I1[O2]}")" "${IR[$v]}" "$(ratio "${IR[$v]}" "${IR[O2]}")" \
            "${TB[$v]}" "$(ratio "${TB[$v]}" "${TB[O2]}")" "$pm"
    done
    echo
    wall_text
    paired_report "$W/times.txt"
    echo
    echo "Every variant printed the -O2 checksum \`${SUM[O2]}\`."
    echo "One plan file for both loops: $(tail -1 plan.out) (pmopt plan $(echo "$t_p1 - $t_p0" | bc | xargs printf '%.1f') s);"
    echo "promote: $(tail -1 planp.out) ($(grep -m1 '^promote:' planp.out | sed 's/^promote: //')); the rebuild: $(grep -ho 'fbp: [0-9]* call promotions applied ([0-9]* call edges), [0-9]* skipped' rebuild-p/cc.err | head -1 | sed 's/^fbp: //');"
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
bench_record report.md
