#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/layout-split.sh — the rebuild loop's hot/cold split on SQLite
# (-fplugin-arg-perfinst-split=gcc|2|3, docs/layout.md "The split"; results
# in bench/RESULTS.md with --record).
#
#   bench/layout-split.sh [--record] [--train S] [--test S] [--warm PCT...]
#
# bench/sqlite/workload.c + sqlite3.c: one training build (all=count,
# sections, perfinst-ld) run on mix train (size --train, 0.3), one `pmopt
# plan -o fb`, then -O2 -fplugin-arg-perfinst-feedback=fb
# -fplugin-arg-perfinst-sections with
#   split=gcc    GCC's partitioning of the applied profile (before this work)
#   split=2      every block judged never run cold
#   split=3:PCT  and the warm blocks (below PCT % of the entry count) in the
#                cold part's head, for each --warm PCT (default 1)
# measured on mix test at --test (0.1), every variant printing -O2's
# checksum: cachegrind I1 misses and I refs with --I1=32768,8,64
# --D1=32768,8,64 --LL=8388608,16,64 (deterministic), the instructions run
# in .cold parts (callgrind, per function: names ending in .cold) and in
# sqlite3VdbeExec.cold, and the text sizes of sqlite3VdbeExec's two parts.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
train=0.3 test=0.1 record=0 warms=()
cmdline="bench/layout-split.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case $1 in
    --record) record=1; shift ;;
    --train) train=$2; shift 2 ;;
    --test) test=$2; shift 2 ;;
    --warm) warms+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "layout-split: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ ${#warms[@]} -gt 0 ] || warms=(1)
say() { echo "layout-split: $(date -u +%T) $*" >&2; }
die() { say "error: $*"; exit 1; }
W=$here/.work/layout-split
mkdir -p "$W"
. "$here/lib.sh"
sqlite_setup
cd "$W"

t0=$(date +%s)
{ sqlite_build o2 -O2; sqlite_gcc_link o2; } &
p1=$!
sqlite_build_train train
wait $p1 || die "o2"
if [ ! -f fb ] || [ train/prog -nt fb ] || [ "$(cat fb.train 2> /dev/null)" != "$train" ]; then
    say "training run at size $train"
    sqlite_train train "$train"
    "$B/pmopt" plan -o fb train/prog train/t.pit > plan.out 2> plan.err || { cat plan.err >&2; die "pmopt plan"; }
    echo "$train" > fb.train
fi
V=(gcc 2)
for w in "${warms[@]}"; do V+=("3:$w"); done
declare -A D
running=0
for v in "${V[@]}"; do
    d=split-$(echo "$v" | tr : _)
    D[$v]=$d
    args=(-fplugin-arg-perfinst-split="${v%%:*}")
    [ "$v" = "${v#3:}" ] || args+=(-fplugin-arg-perfinst-warm="${v#3:}")
    { sqlite_build "$d" -O2 $PI -fplugin-arg-perfinst-feedback="$W/fb" -fplugin-arg-perfinst-sections "${args[@]}" &&
        sqlite_pild "$d"; } &
    running=$((running + 1))
    if [ $running -ge 2 ]; then wait -n || die "a rebuild failed"; running=$((running - 1)); fi
done
wait || die "a rebuild failed"
say "built in $(( $(date +%s) - t0 )) s"
declare -A I1 IR COLD VCOLD SUM HOT VC
for v in O2 "${V[@]}"; do
    if [ "$v" = O2 ]; then d=o2; else d=${D[$v]}; fi
    f=$(echo "$v" | tr : _)
    key=$(sha256sum < $d/prog | cut -c1-16)-$test
    if [ -f "$d/res-$key" ] && [ -f cg-$f-$test.txt ]; then # deterministic: the last run's counts
        read -r IR[$v] I1[$v] SUM[$v] _ < "$d/res-$key"
    else
        say "cachegrind + callgrind: $v at $test (test mix)"
        c=$(sqlite_cachegrind ./$d/prog "$test" cac-$f-$test) || die "cachegrind $v"
        read -r IR[$v] I1[$v] SUM[$v] <<< "$c"
        valgrind --tool=callgrind --callgrind-out-file=cg-$f-$test.data ./$d/prog "$test" test > /dev/null 2> cg-$f-$test.err
        callgrind_annotate --threshold=100 cg-$f-$test.data 2> /dev/null > cg-$f-$test.txt
        rm -f cg-$f-$test.data
        echo "${IR[$v]} ${I1[$v]} ${SUM[$v]}" > "$d/res-$key"
    fi
    [ "${SUM[$v]}" = "${SUM[O2]}" ] || die "$v printed ${SUM[$v]}, O2 ${SUM[O2]}"
    # per function (callgrind_annotate: "N (P%)  file:fn [obj]"; fn'K is fn in a
    # recursion of depth K)
    sed -n 's/^ *\([0-9,]*\) ([ 0-9.%]*)  *[^:]*:\([^ ]*\) \[.*/\1 \2/p' cg-$f-$test.txt | tr -d , |
        sed "s/'[0-9]*\$//" > fn-$f-$test.txt
    COLD[$v]=$(awk '$2 ~ /\.cold$/ { s += $1 } END { printf "%d", s }' fn-$f-$test.txt)
    VCOLD[$v]=$(awk '$2 == "sqlite3VdbeExec.cold" { s += $1 } END { printf "%d", s }' fn-$f-$test.txt)
    h=$(nm -S $d/prog | awk '$4 == "sqlite3VdbeExec" && !n++ { print $2 }') || true
    c=$(nm -S $d/prog | awk '$4 == "sqlite3VdbeExec.cold" && !n++ { print $2 }') || true
    HOT[$v]=$((16#${h:-0})) VC[$v]=$((16#${c:-0}))
done
say "done in $(( $(date +%s) - t0 )) s"
ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }
pct() { python3 -c "print('%.2f %%' % (100.0 * ${1:-0} / $2))"; }
report() {
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    echo "- machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $(gcc --version | head -1); $(valgrind --version)"
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)')"
    echo "- trained on mix train at $train, measured on mix test at $test; cachegrind $GEOM"
    echo
    echo "| variant | I1 misses | vs -O2 | vs split=gcc | I refs | vs -O2 | in .cold parts | in sqlite3VdbeExec.cold | sqlite3VdbeExec hot / cold bytes |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for v in O2 "${V[@]}"; do
        echo "| ${v/#[23g]/split=&} | ${I1[$v]} | $(ratio "${I1[$v]}" "${I1[O2]}")× | $(ratio "${I1[$v]}" "${I1[gcc]}")× | ${IR[$v]} | $(ratio "${IR[$v]}" "${IR[O2]}")× | $(pct "${COLD[$v]}" "${IR[$v]}") | $(pct "${VCOLD[$v]:-0}" "${IR[$v]}") | ${HOT[$v]:-?} / ${VC[$v]:-0} |"
    done | sed 's/^| split=O2/| O2/'
    echo
}
report | tee "$W/report.md"
if [ $record = 1 ]; then report >> "$here/RESULTS.md"; fi
