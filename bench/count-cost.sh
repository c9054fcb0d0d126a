#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# count-cost.sh — what counting costs on several programs and workloads
# (bench/workloads.sh: SQLite's train, sort and insert mixes, Lua 5.4, zstd
# -3 compression and decompression, gawk's field aggregation, regexps and
# numeric loops, ninja's dry run and command listing, C++), beside gcc -O2
# and -fprofile-generate.
#
#   bench/count-cost.sh [--programs "sqlite lua zstd gawk ninja"] [--workloads LIST]
#                       [--count-flags FLAGS] [--extra NAME=FLAGS]... [--no-pgen] [--rounds N]
#                       [--no-callgrind] [--compile N] [--work DIR] [--record]
#
#   --programs LIST  the programs (default: bench/workloads.sh's, gawk and ninja;
#                    also speedtest1 and leveldb, the layout suite's other two)
#   --workloads LIST only these of the programs' workloads (e.g. "sort
#                    compress decompress all"; default: every one)
#   --count-flags FLAGS  more plugin arguments for the all=count variant
#                    (e.g. -fplugin-arg-perfinst-count-at=late); also in
#                    the compile rounds
#   --extra NAME=FLAGS  one more all=count build, FLAGS after --count-flags'
#                    (e.g. all=-fplugin-arg-perfinst-clean-copies=all):
#                    variants NAME and NAME-off beside count and off, in the
#                    same runs and rounds (repeatable)
#   --no-pgen        no -fprofile-generate variant
#   --rounds N       interleaved CPU-time rounds at the big scale (default 0:
#                    none; each round runs every variant once per workload)
#   --no-callgrind   no instruction counts
#   --compile N      N interleaved rounds of compile cost: user CPU of cc1
#                    (gcc -S, no assembler) over every source of the
#                    program, plain, with the plugin and no directives, and
#                    with all=count (default 0: none); and the text size
#   --work DIR       builds and outputs (default bench/.work/cost); a
#                    callgrind result is kept there while its program is
#                    older (an interrupted run resumes), with its profile
#                    (cg-PROG-WORKLOAD-VARIANT.out, for callgrind_annotate)
#   --record         append the report to bench/RESULTS.md
#
# Variants: o2 (gcc -O2), pgen (-O2 -fprofile-generate), count (-O2 with
# the plugin and all=count, linked by perfinst-ld), off (count's program
# run with PERFINST_MODE=off).  Instructions: callgrind's "Collected" total
# of one run at the small scale (deterministic).  CPU time: user CPU of the
# runs, compared with o2 round by round (bench/paired.py: median of the
# per-round ratios, bootstrap 95 % interval).  Every run of every variant
# of a workload must print the same checksum, or the script fails.
# Environment: PERFINST_BUILD (default build/).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/count-cost.sh${*:+ $*}"
. "$here/workloads.sh"

programs="$WL_PROGRAMS gawk ninja" only="" cflags_count="" rounds=0 do_cg=1 crounds=0 record=0 W=$here/.work/cost
extras=() pgen=pgen
while [ $# -gt 0 ]; do
    case $1 in
    --programs) programs=${2:?}; shift 2 ;;
    --workloads) only=${2:?}; shift 2 ;;
    --count-flags) cflags_count=${2:?}; shift 2 ;;
    --extra) [[ ${2:?} == [a-z]*=* ]] || { echo "count-cost: --extra NAME=FLAGS" >&2; exit 2; }
        extras+=("$2"); shift 2 ;;
    --no-pgen) pgen=""; shift ;;
    --rounds) rounds=${2:?}; shift 2 ;;
    --no-callgrind) do_cg=0; shift ;;
    --compile) crounds=${2:?}; shift 2 ;;
    --work) W=${2:?}; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "count-cost: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
B=${PERFINST_BUILD:-$top/build}
[ -f "$B/perfinst.so" ] && [ -x "$B/perfinst-ld" ] || { echo "count-cost: no $B/perfinst.so or perfinst-ld (make first)" >&2; exit 1; }
mkdir -p "$W"
W=$(cd "$W" && pwd)
TIMEIT=$W/timeit
[ -x "$TIMEIT" ] && [ "$TIMEIT" -nt "$here/timeit.c" ] || gcc -O2 -o "$TIMEIT" "$here/timeit.c" || exit 1
say() { echo "count-cost: $(date -u +%T) $*" >&2; }
failed=0
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
PLUGIN="-fplugin=$B/perfinst.so"
declare -A FLAGS=([o2]="-O2" [pgen]="-O2 -fprofile-generate" [count]="-O2 $PLUGIN -fplugin-arg-perfinst-all=count $cflags_count")
declare -A LINKER=([o2]=gcc [pgen]=gcc [count]=pild)
VARIANTS="o2 $pgen count off" BUILDS="o2 $pgen count" EXTRAS=""
for x in "${extras[@]}"; do
    n=${x%%=*}
    FLAGS[$n]="${FLAGS[count]} ${x#*=}" LINKER[$n]=pild
    VARIANTS="$VARIANTS $n $n-off" BUILDS="$BUILDS $n" EXTRAS="$EXTRAS $n"
done
build_of() { case $1 in off) echo count ;; *-off) echo "${1%-off}" ;; *) echo "$1" ;; esac; }
# the workloads of program $1 that --workloads keeps
workloads_of() {
    local w
    for w in $(wl_workloads "$1"); do
        [ -z "$only" ] || [[ " $only " == *" $w "* ]] && echo "$w"
    done
}
env_of() { case $1 in off|*-off) echo "PERFINST_MODE=off" ;; *) echo "PERFINST_MODE=on" ;; esac; }

R=$W/report.md
: > "$R"
declare -A IR SUM
geo=() # "workload variant ratio" lines for the means
for p in $programs; do
    wl_fetch "$p" || { failed=1; continue; }
    for v in $BUILDS; do
        say "building $p/$v"
        wl_build "$p" "$W/$p/$v" "${LINKER[$v]}" ${FLAGS[$v]} || { say "build of $p/$v failed"; failed=1; }
    done
    for wl in $(workloads_of "$p"); do
        if [ $do_cg = 1 ]; then
            for v in $VARIANTS; do
                d=$W/$p/$(build_of $v)
                # kept while the program is older than the result (resumable)
                res=$W/cg-$p-$wl-$v.txt
                if [ ! -s "$res" ] || [ "$d/prog" -nt "$res" ]; then
                    rm -f "$d"/*.gcda "$d"/*.pit
                    say "callgrind $p $wl $v"
                    s=$(wl_run "$p" "$wl" "$d" "$(wl_scale "$p" small)" env $(env_of $v) PERFINST_OUT="$d/t.pit" \
                        valgrind --tool=callgrind --callgrind-out-file="$W/cg-$p-$wl-$v.out" --log-file="$W/cg.log")
                    echo "$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$W/cg.log" | tail -1) ${s%% *}" > "$res"
                fi
                read -r IR[$p/$wl/$v] SUM[$p/$wl/$v] < "$res"
                [ -n "${IR[$p/$wl/$v]}" ] || { say "$p $wl $v: no callgrind total"; failed=1; }
            done
        fi
        if [ "$rounds" -gt 0 ]; then
            T=$W/$p-$wl.times
            echo "# variants $VARIANTS" > "$T"
            vs=($VARIANTS)
            for ((r = 1; r <= rounds; r++)); do
                say "timing $p $wl round $r/$rounds"
                for ((k = 0; k < ${#vs[@]}; k++)); do
                    v=${vs[$(((k + r) % ${#vs[@]}))]}
                    d=$W/$p/$(build_of $v)
                    rm -f "$d"/*.gcda "$d"/*.pit "$W/t1"
                    s=$(wl_run "$p" "$wl" "$d" "$(wl_scale "$p" big)" env $(env_of $v) PERFINST_OUT="$d/t.pit" "$TIMEIT" "$W/t1")
                    [ -z "${SUM[$p/$wl/$v/big]:-}" ] || [ "${SUM[$p/$wl/$v/big]}" = "${s%% *}" ] ||
                        { say "$p $wl $v: checksum changed"; failed=1; }
                    SUM[$p/$wl/$v/big]=${s%% *}
                    echo "$r $v $(sed -n 's/^wall=\([0-9.]*\) user=\([0-9.]*\) .*/\1 \2/p' "$W/t1")" >> "$T"
                done
            done
        fi
    done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf "%.3f", a / b }'; }
{
    echo "### Counting cost on several programs (\`$cmdline\`)"
    echo
    if [ $do_cg = 1 ]; then
        echo "Instructions (callgrind, one run at the small scale of bench/workloads.sh) × gcc -O2:"
        echo
        cols="$pgen count off" head="" rule=""
        [ -z "$pgen" ] || head=" -fprofile-generate |"
        head="$head all=count | all=count, off |"
        for n in $EXTRAS; do cols="$cols $n $n-off" head="$head $n | $n, off |"; done
        for v in $cols; do rule="$rule --- |"; done
        echo "| program | workload | -O2 instructions |$head checksums |"
        echo "| --- | --- | --- |$rule --- |"
        for p in $programs; do
            for wl in $(workloads_of "$p"); do
                b=${IR[$p/$wl/o2]:-}
                same=same
                for v in $VARIANTS; do [ "${SUM[$p/$wl/$v]:-}" = "${SUM[$p/$wl/o2]:-x}" ] || same="**differ**"; done
                [ "$same" = same ] || failed=1
                line="| $p | $wl (scale $(wl_scale "$p" small)) | $b"
                for v in $cols; do
                    x=$(ratio "${IR[$p/$wl/$v]:-}" "$b")
                    line="$line | ${x}×"
                    geo+=("cg $v $x")
                done
                echo "$line | $same |"
            done
        done
        for v in $cols; do
            printf '%s\n' "${geo[@]}" | awk -v v="$v" '$1 == "cg" && $2 == v && $3 != "" { s += log($3); n++; if ($3 > w) w = $3 }
                END { if (n) printf "- %s: geometric mean %.3f×, worst %.3f× (%d workloads)\n", v, exp(s / n), w, n }'
        done
        echo
    fi
    if [ "$rounds" -gt 0 ]; then
        echo "User CPU time at the big scale, $rounds interleaved rounds, × gcc -O2 (median of per-round ratios [95 % interval]; the machine is shared and loaded: load average at the start $load_start):"
        echo
        for p in $programs; do
            for wl in $(workloads_of "$p"); do
                echo "$p $wl (scale $(wl_scale "$p" big)):"
                echo
                python3 "$here/paired.py" --base o2 "$W/$p-$wl.times"
                echo
            done
        done
    fi
} >> "$R"

# ---- compile cost: user CPU of cc1 ----------------------------------------------
if [ "$crounds" -gt 0 ]; then
    declare -A CFL=([plain]="-O2" [plugin]="-O2 $PLUGIN" [count]="-O2 $PLUGIN -fplugin-arg-perfinst-all=count $cflags_count")
    {
        echo "Compile cost: user CPU of \`gcc -S\` (cc1 or cc1plus alone: no assembler) over every C and C++ source of the program, $crounds interleaved round(s), median; text size of the linked programs (\`size\`):"
        echo
        echo "| program | plain -O2 | plugin, no directives | × plain | all=count | × plain | text -O2 | text all=count | × |"
        echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    } >> "$R"
    for p in $programs; do
        wl_fetch "$p" || continue
        own=$(wl_cflags "$p")
        declare -A CT=()
        cv=(plain plugin count)
        for ((r = 0; r < crounds; r++)); do
            for ((k = 0; k < 3; k++)); do
                v=${cv[$(((k + r) % 3))]}
                say "compile $p $v round $((r + 1))"
                rm -f "$W/ct"
                for f in $(wl_sources "$p"); do
                    case $f in *.c) std=-std=gnu11 ;; *.cc) std= ;; *) continue ;; esac
                    "$TIMEIT" "$W/ct" gcc ${CFL[$v]} $std $own -S "$f" -o /dev/null 2> /dev/null || { say "compile of $f ($v) failed"; failed=1; }
                done
                CT[$v]="${CT[$v]:-} $(awk -F'user=' '{ split($2, a, " "); s += a[1] } END { printf "%.2f", s }' "$W/ct")"
            done
        done
        med() { printf '%s\n' $1 | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
        pl=$(med "${CT[plain]}") pg=$(med "${CT[plugin]}") ct=$(med "${CT[count]}")
        t1=$(size "$W/$p/o2/prog" 2> /dev/null | awk 'NR == 2 { print $1 }')
        t2=$(size "$W/$p/count/prog" 2> /dev/null | awk 'NR == 2 { print $1 }')
        echo "| $p | $pl s | $pg s | $(ratio "$pg" "$pl")× | $ct s | $(ratio "$ct" "$pl")× | $t1 | $t2 | $(ratio "$t2" "$t1")× |" >> "$R"
    done
    echo >> "$R"
fi

cat "$R"
if [ $record = 1 ]; then
    {
        echo
        echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
        echo
        echo "- tree: $(git -C "$top" rev-parse --short HEAD)$([ -n "$(git -C "$top" status --porcelain | head -1)" ] && echo ' (with uncommitted changes)'); $(gcc --version | head -1); load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
        echo
        cat "$R"
    } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
exit $failed
