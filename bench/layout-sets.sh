#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/layout-sets.sh — the three variants of bench/layout-all.sh that the
# set-pressure order needs, alone: O2, rebuild and rebuild+relink-sets
# (docs/layout.md "Set pressure"; results in bench/RESULTS.md with --record).
#
#   bench/layout-sets.sh [--record] [--train S] [--test S] [--tag NAME] [-- PLAN-ARGS...]
#
# The same steps, flags and work directory as bench/layout-all.sh
# (bench/.work/layout-all: its objects are reused while their flags, the
# plugin and the feedback file are unchanged, and the other way round):
#   O2             gcc -O2
#   rebuild        the training build (all=count, sections) run at --train on
#                  mix train, `pmopt plan --order=exttsp --rebuild -o fb`, then
#                  -O2 -fplugin-arg-perfinst-feedback=fb
#                  -fplugin-arg-perfinst-sections, linked by perfinst-ld
#   relink-sets    a counted rebuild (all=count + feedback=fb + sections)
#                  trained again, `pmopt plan --order=sets --target=rebuild/prog
#                  --reserve-sets=0 PLAN-ARGS -o fbs`, `pmopt relink rebuild/prog
#                  --feedback fbs` (into relinks-NAME/, NAME from --tag, default
#                  "sets")
# Measured on mix test at --test (0.1): cachegrind I1 misses and I refs with
# --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 (deterministic), and the
# set pressure of rebuild and relink-sets as linked (`pmopt plan --order=sets
# --sets-passes=0 --target=PROG`, with the same PLAN-ARGS).  No wall time.
# PMOPT (env) plans and relinks instead of the build's pmopt (an older one,
# to compare); the pressures as linked are always the build's pmopt's.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
PM=${PMOPT:-$B/pmopt}
export PERFINST_LD=$B/perfinst-ld
cmdline="bench/layout-sets.sh${*:+ $*}"
tag=sets
args=()
plan_args=()
while [ $# -gt 0 ]; do
    case $1 in
    --tag) tag=$2; shift 2 ;;
    --) shift; plan_args=("$@"); break ;;
    *) args+=("$1"); shift ;;
    esac
done
. "$here/lib.sh"
bench_opts layout-sets "${args[@]}"
say() { echo "layout-sets: $(date -u +%T) $*" >&2; }
die() { say "error: $*"; exit 1; }
W=$here/.work/layout-all
mkdir -p "$W"
sqlite_setup
cd "$W"

t0=$(date +%s)
{ sqlite_build o2 -O2; [ o2/prog -nt o2/sqlite3.o ] || sqlite_gcc_link o2; } &
p1=$!
sqlite_build_train train &
p2=$!
wait $p1 || die "o2"
wait $p2 || die "training build"
if [ ! -f fb ] || [ train/prog -nt fb ] || [ ! -f fb.train ] || [ "$(cat fb.train)" != "$train" ]; then
    say "training run (ours) at size $train"
    sqlite_train train "$train"
    "$B/pmopt" plan --order=exttsp --rebuild -o fb train/prog train/t.pit > plan.out 2> plan.err ||
        { cat plan.err >&2; die "pmopt plan"; }
    echo "$train" > fb.train
fi
sqlite_build_rebuild rebuild-count "$W/fb" count &
p1=$!
sqlite_build_rebuild rebuild "$W/fb" &
p2=$!
wait $p1 || die "rebuild-count"
wait $p2 || die "rebuild"
say "built in $(( $(date +%s) - t0 )) s"
if [ ! -f rebuild-count/t.pit ] || [ rebuild-count/prog -nt rebuild-count/t.pit ]; then
    say "training run of the counted rebuild at size $train"
    sqlite_train rebuild-count "$train"
fi
R=relinks-$tag
mkdir -p "$R"
say "planning --order=sets ${plan_args[*]:-} for the rebuilt program"
t_s0=$(date +%s.%N)
"$PM" plan --order=sets --target=rebuild/prog --reserve-sets=0 "${plan_args[@]}" -o "$R/fbs" \
    rebuild-count/prog rebuild-count/t.pit > "$R/plan.out" 2> "$R/plan.err" ||
    { cat "$R/plan.err" >&2; die "plan sets"; }
t_s1=$(date +%s.%N)
"$PM" relink rebuild/prog --feedback "$R/fbs" -o "$R/prog" --smoke "0.02 test" > "$R/out" 2> "$R/err" ||
    { cat "$R/err" >&2; die "relink sets"; }
for v in rebuild "$R"; do
    "$B/pmopt" plan --order=sets --sets-passes=0 --target=$v/prog "${plan_args[@]}" --advise \
        rebuild-count/prog rebuild-count/t.pit 2>&1 | grep 'as linked' > "aslinked-${v//\//_}" || true
done
declare -A I1 IR SUM
V=(O2 rebuild "$R")
declare -A P=([O2]=o2/prog [rebuild]=rebuild/prog [$R]=$R/prog)
for v in "${V[@]}"; do
    if [ -f "cac-$v.err" ] && [ "cac-$v.err" -nt "${P[$v]}" ] && [ -f "cac-$v.test" ] &&
       [ "$(cat "cac-$v.test")" = "$test" ]; then
        say "cachegrind: $v (kept)"
    else
        say "cachegrind: $v at $test (test mix)"
        sqlite_cachegrind ./${P[$v]} "$test" "cac-$v" > /dev/null || die "cachegrind $v"
        echo "$test" > "cac-$v.test"
    fi
    read -r IR[$v] I1[$v] SUM[$v] <<< "$(sqlite_cachegrind_read "cac-$v")"
    [ "${SUM[$v]}" = "${SUM[O2]}" ] || die "$v printed ${SUM[$v]}, O2 ${SUM[O2]}"
done
say "done in $(( $(date +%s) - t0 )) s"
ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }
report() {
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    echo "- machine: $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    [ "$PM" = "$B/pmopt" ] || echo "- plan and relink by $PM"
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)')"
    echo "- trained on mix train at $train, measured on mix test at $test, $GEOM"
    echo
    echo "| variant | I1 misses | × -O2 | I refs | × -O2 | set pressure as linked |"
    echo "| --- | --- | --- | --- | --- | --- |"
    for v in "${V[@]}"; do
        local p="" f="aslinked-${v//\//_}"
        [ -f "$f" ] && p=$(sed -n 's/.*as linked: \([0-9]*\) .*/\1/p' "$f")
        printf '| %s | %s | %s | %s | %s | %s |\n' "$v" "${I1[$v]}" "$(ratio "${I1[$v]}" "${I1[O2]}")" \
            "${IR[$v]}" "$(ratio "${IR[$v]}" "${IR[O2]}")" "$p"
    done
    echo
    echo "Every variant printed the -O2 checksum \`${SUM[O2]}\`."
    echo "The plan ($(echo "$t_s1 - $t_s0" | bc | xargs printf '%.1f') s):"
    echo
    grep -E '^  (set pressure|Ext-TSP score|cold parts|target )' "$R/plan.out" | sed 's/^ */    /'
    echo
    echo "Relink: $(grep -m1 'planned order' "$R/out" | sed 's/^pmopt relink: //')"
    echo
}
report > "$R/report.md"
bench_record "$R/report.md"
