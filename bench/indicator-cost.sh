#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# indicator-cost.sh — what each kind of indicator site costs per execution,
# on SQLite, and the cost of an all=count build with PERFINST_MODE=off.
#
#   bench/indicator-cost.sh [--rounds N] [--size S] [--small S] [--record]
#                           [--no-run] [--no-off] [--kinds LIST]
#
#   --rounds N   interleaved wall-time rounds (default 3; 0 = callgrind only)
#   --size S     workload size of the wall-time runs (default 0.3)
#   --small S    workload size under callgrind (default 0.1)
#   --no-off     leave out the all=count build (PERFINST_MODE=off ratio)
#   --kinds LIST only these kinds of site, comma-separated (default
#                count,types,trap,cycles,watch)
#   --record     append the result to bench/RESULTS.md
#
# Variants, each SQLite (bench/sqlite/workload.c on the amalgamation from
# bench/fetch-sqlite.sh) built into bench/.work/kinds/:
#
#   o2       gcc -O2 (the baseline)
#   count    the functions of MARKED below marked `count`
#   types    ... `types(branch,call,ret,load,store,string,fp)`
#   trap     ... `trap`, with an empty handler installed (kinds-handler.c)
#   cycles   ... `cycles(>1000000000)` (the rdtsc pair; nothing is over)
#   watch    field MemPage.nCell marked `watch` (every read and write of it)
#   all      every function counted (all=count), run with PERFINST_MODE=off
#
# The marks are pragmas inserted into a copy of sqlite3.c before each
# function's definition (watch: an attribute on the field).  Executions
# come from each run's own trace: for count, types, trap and cycles the
# entries of the marked functions (their entry blocks' counts), for watch
# the accesses the data sites saw (SITESTAT execs).  The cost of a kind is
# (instructions of the variant − instructions of o2) / executions, under
# callgrind (deterministic), and (median wall − median wall of o2) /
# executions over interleaved runs (noisy on a shared machine).  Every run
# must print o2's checksum.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/indicator-cost.sh${*:+ $*}"
rounds=3
size=0.3
small=0.1
record=0
do_off=1
kinds_arg=count,types,trap,cycles,watch
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --size) size=${2:?}; shift 2 ;;
    --small) small=${2:?}; shift 2 ;;
    --no-run) rounds=0; shift ;;
    --no-off) do_off=0; shift ;;
    --kinds) kinds_arg=${2:?}; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "indicator-cost: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
case "$rounds" in *[!0-9]*|"") echo "indicator-cost: --rounds must be an integer" >&2; exit 2 ;; esac

CC=${BENCH_CC:-gcc}
B=${PERFINST_BUILD:-$top/build}
PLUGIN=$B/perfinst.so
PILD=$B/perfinst-ld
PMOPT=$B/pmopt
W=$here/.work/kinds
SQLDEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
MARKED="sqlite3GetVarint sqlite3VdbeSerialGet getCellInfo btreeParseCellPtr"
say() { echo "indicator-cost: $*" >&2; }
die() { say "error: $*"; exit 1; }
for f in "$PLUGIN" "$PILD" "$PMOPT"; do [ -e "$f" ] || die "$f missing: run make first"; done
command -v valgrind >/dev/null || die "valgrind missing (apt-get install valgrind)"
mkdir -p "$W"
exec 9>"$W/.lock"
flock -n 9 || die "another indicator-cost.sh is using $W"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
SQ=$("$here/fetch-sqlite.sh" "$here/.cache/sqlite") || die "could not fetch SQLite"
TIMEIT=$here/.work/timeit
if [ ! -x "$TIMEIT" ] || [ "$here/timeit.c" -nt "$TIMEIT" ]; then
    mkdir -p "$here/.work"; "$CC" -O2 -Wall -o "$TIMEIT" "$here/timeit.c" || die "cannot build timeit"
fi
sha() { sha256sum "$1" | cut -d' ' -f1; }

# mark KIND DIRECTIVE — sqlite3.c with DIRECTIVE on the MARKED functions
# (a pragma before each definition: the line naming it that does not end
# in ';'), or with the watch attribute on MemPage.nCell.
mark() {
    local out=$W/$1/sqlite3.c
    if [ "$1" = watch ]; then
        awk '/^struct MemPage \{/ { inpage = 1 }
             inpage && /^  u16 nCell;/ { sub(/u16 nCell;/, "u16 nCell __attribute__((perfinst(\"watch\")));"); n++ }
             inpage && /^};/ { inpage = 0 }
             { print } END { if (n != 1) exit 1 }' "$SQ/sqlite3.c" > "$out"
    else
        awk -v names="$MARKED" -v dir="$2" '
            BEGIN { split(names, a, " "); for (i in a) want[a[i]] = 1 }
            /^[A-Za-z]/ && !/;[[:space:]]*$/ {
                for (f in want) if (index($0, " " f "(") && !done[f]) { print "#pragma perfinst " dir; done[f] = 1 }
            }
            { print }
            END { for (f in want) if (!done[f]) { print "no definition of " f > "/dev/stderr"; exit 1 } }' \
            "$SQ/sqlite3.c" > "$out"
    fi
}

declare -A DIR=([count]="count" [types]="types(branch,call,ret,load,store,string,fp)" [trap]="trap"
                [cycles]="cycles(>1000000000)" [watch]="watch")
IFS=, read -r -a KINDS <<< "$kinds_arg"
for k in "${KINDS[@]}"; do
    [ -n "${DIR[$k]:-}" ] || { echo "indicator-cost: unknown kind '$k' (count, types, trap, cycles, watch)" >&2; exit 2; }
done
VARIANTS=(o2 "${KINDS[@]}")
[ $do_off = 1 ] && VARIANTS+=(all)

# build V — cached: the stamp holds every input
build() {
    local v=$1 d=$W/$1 src cflags link
    mkdir -p "$d"
    case $v in
    o2) src=$SQ/sqlite3.c; cflags="-O2"; link=gcc ;;
    all) src=$SQ/sqlite3.c; cflags="-O2 -fplugin=$PLUGIN -fplugin-arg-perfinst-all=count"; link=pild ;;
    *) mark "$v" "${DIR[$v]}" || return 1; src=$d/sqlite3.c; cflags="-O2 -fplugin=$PLUGIN"; link=pild ;;
    esac
    {
        echo "$("$CC" --version | head -n1) $cflags $SQLDEFS $MARKED"
        sha "$src"; sha "$here/sqlite/workload.c"; sha "$here/sqlite/kinds-handler.c"
        [ $link = pild ] && { sha "$PLUGIN"; sha "$PILD"; sha "$B/libperfinst.so"; }
    } > "$d/stamp.new"
    if [ -x "$d/prog" ] && cmp -s "$d/stamp.new" "$d/stamp"; then return 0; fi
    rm -f "$d/prog"
    (
        cd "$d" || exit 1
        set -e
        "$CC" $cflags $SQLDEFS -I"$SQ" -c "$src" -o sqlite3.o
        "$CC" -O2 -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o workload.o
        if [ $link = pild ]; then
            "$CC" -O2 -I"$top/include" -c "$here/sqlite/kinds-handler.c" -o handler.o
            PERFINST_LIB_DIR=$B "$PILD" -O2 -o prog workload.o sqlite3.o handler.o -lm
        else
            "$CC" -O2 -o prog workload.o sqlite3.o -lm
        fi
    ) > "$d/build.log" 2>&1 || return 1
    mv "$d/stamp.new" "$d/stamp"
}

say "building ${VARIANTS[*]} in ${W#"$top"/}/ (two at a time, cached)"
pids=(); names=()
for v in "${VARIANTS[@]}"; do
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}" || die "build of ${names[0]} failed: ${W#"$top"/}/${names[0]}/build.log"; pids=("${pids[@]:1}"); names=("${names[@]:1}"); fi
    build "$v" & pids+=($!); names+=("$v")
done
for i in "${!pids[@]}"; do wait "${pids[$i]}" || die "build of ${names[$i]} failed: ${W#"$top"/}/${names[$i]}/build.log"; done

runenv() { [ "$1" = all ] && echo "PERFINST_MODE=off" || echo "PERFINST_MODE=on"; }
checksum_of() { sed -n 's/^checksum=\([0-9a-f]*\) .*/\1/p' "$1" | tail -n1; }

# executions V TRACE — of the marked sites, from the run's own trace
executions() {
    local v=$1 t=$2
    case $v in
    o2|all) echo 0 ;;
    watch) "$PMOPT" dump "$t" | sed -n 's/.*kind watch, count [0-9]*, execs \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }' ;;
    *) "$PMOPT" report --by=function --format=json "$W/$v/prog" "$t" |
           python3 -c 'import json, sys; print(sum(f["entries"] or 0 for f in json.load(sys.stdin)["functions"]))' ;;
    esac
}

R=$W/results
rm -rf "$R"; mkdir -p "$R"
declare -A IR EX SUM
for v in "${VARIANTS[@]}"; do
    say "callgrind: $v at size $small"
    (cd "$W/$v" && rm -f cg.pit && env $(runenv "$v") PERFINST_OUT="$W/$v/cg.pit" \
        valgrind --tool=callgrind --callgrind-out-file=/dev/null ./prog "$small" train > "$R/cg-$v" 2> "$R/cg-$v.err")
    IR[$v]=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$R/cg-$v.err")
    SUM[$v]=$(checksum_of "$R/cg-$v")
    [ -n "${IR[$v]}" ] && [ "${SUM[$v]}" = "${SUM[o2]}" ] || die "$v: callgrind run failed or checksum differs (see $R/cg-$v.err)"
    EX[$v]=$(executions "$v" "$W/$v/cg.pit")
done

declare -A WEX
if [ "$rounds" -gt 0 ]; then
    n=${#VARIANTS[@]}
    for ((r = 0; r < rounds; r++)); do
        say "wall round $((r + 1))/$rounds"
        for ((i = 0; i < n; i++)); do
            v=${VARIANTS[$(((i + r) % n))]}
            (cd "$W/$v" && rm -f w.pit && env $(runenv "$v") PERFINST_OUT="$W/$v/w.pit" \
                "$TIMEIT" "$R/$v.times" ./prog "$size" train > "$R/w-$v-$r" 2>/dev/null)
            [ "$(checksum_of "$R/w-$v-$r")" = "$(checksum_of "$R/w-o2-0" 2>/dev/null || checksum_of "$R/w-$v-$r")" ] ||
                die "$v: wall run checksum differs"
            [ $r = 0 ] && WEX[$v]=$(executions "$v" "$W/$v/w.pit")
        done
    done
fi
median() {
    sed -n "s/.*\<wall=\([0-9.]*\).*/\1/p" "$1" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR % 2) printf "%.6f", a[(NR + 1) / 2]; else printf "%.6f", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

report() {
    echo "### Cost of each kind of indicator site: SQLite workload (mix train)"
    echo
    echo "Marked: \`$MARKED\` (count, types, trap, cycles); watch: field \`MemPage.nCell\`."
    echo "Instructions: callgrind at size $small; wall: median of $rounds interleaved run(s) at size $size."
    echo "Per execution = (variant − \`gcc -O2\`) / executions of the marked sites (from the run's trace)."
    echo
    echo "| variant | instructions | × -O2 | executions | instructions per execution | per million executions | wall | ns per execution |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    local v bw w e ie ipe wpe lab
    bw=""; [ "$rounds" -gt 0 ] && bw=$(median "$R/o2.times")
    for v in "${VARIANTS[@]}"; do
        case $v in
        o2) lab='`gcc -O2`' ;;
        all) lab='`all=count`, `PERFINST_MODE=off`' ;;
        *) lab="\`${DIR[$v]}\`" ;;
        esac
        e=${EX[$v]}
        ipe=""; wpe=""
        if [ "$e" -gt 0 ] 2>/dev/null; then
            ipe=$(awk -v a="${IR[$v]}" -v b="${IR[o2]}" -v e="$e" 'BEGIN { printf "%.1f", (a - b) / e }')
        fi
        w=""; [ "$rounds" -gt 0 ] && w=$(median "$R/$v.times")
        if [ -n "$w" ] && [ "${WEX[$v]:-0}" -gt 0 ] 2>/dev/null; then
            wpe=$(awk -v a="$w" -v b="$bw" -v e="${WEX[$v]}" 'BEGIN { printf "%.1f", (a - b) / e * 1e9 }')
        fi
        ie=$(awk -v a="${IR[$v]}" -v b="${IR[o2]}" 'BEGIN { printf "%.3f", a / b }')
        echo "| $lab | ${IR[$v]} | ${ie}× | ${e} | ${ipe} | ${ipe:+$(awk -v x="$ipe" 'BEGIN { printf "%.0f M", x }')} | ${w:+$(awk -v x="$w" -v b="$bw" 'BEGIN { printf "%.3f s (%.3f×)", x, x / b }')} | ${wpe} |"
    done
    echo
    echo "Checksums: every run printed ${SUM[o2]} (size $small)."
}
out=$(report)
echo "$out"
if [ $record = 1 ]; then
    {
        echo
        echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
        echo
        echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1); load average at the start $load_start, at the end $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "- compiler: $("$CC" --version | head -n1); valgrind: $(valgrind --version)"
        echo "- tree: $(git -C "$top" rev-parse --short HEAD)$([ -n "$(git -C "$top" status --porcelain | head -n1)" ] && echo ' (with uncommitted changes)')"
        echo
        echo "$out"
    } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
