#!/bin/bash
# shellcheck disable=SC2086,SC2016  # flag lists are word-split on purpose; labels hold Markdown backquotes
# count-overhead.sh — what counting costs, on SQLite, beside what users would
# pick instead.  See bench/README.md.
#
#   bench/count-overhead.sh [--rounds N] [--size S] [--mix train|test]
#                           [--small S] [--compile-rounds N] [--quick]
#                           [--no-run] [--no-callgrind] [--no-compile] [--record]
#
#   --rounds N          interleaved rounds of the run-time part (default 5)
#   --size S            workload size for wall/CPU time (default 1: ~2 s at -O2)
#   --mix M             workload mix, train or test (default train)
#   --small S           workload size under callgrind (default 0.1)
#   --compile-rounds N  interleaved rounds of the compile-time part (default 3)
#   --count-compile-rounds N  of those, how many also compile with all=count
#                       (default 1: it takes ~2x as long and has no target)
#   --quick             --rounds 1 --compile-rounds 1
#   --baseline-only     leave the perfinst variants out even when built
#   --no-run / --no-callgrind / --no-compile   leave a part out
#   --record            append the result to bench/RESULTS.md
#
# Builds the SQLite workload (bench/sqlite/workload.c + the amalgamation from
# bench/fetch-sqlite.sh) into bench/.work/ as these variants:
#
#   o2        gcc -O2
#   pgen      gcc -O2 -fprofile-generate
#   pg        gcc -O2 -pg
#   pi-count  gcc -O2 -fplugin=build/perfinst.so -fplugin-arg-perfinst-all=count,
#             linked with build/perfinst-ld
#   pi-off    the same program run with PERFINST_MODE=off
#
# (the perfinst variants are skipped, with a line saying so, until
# build/perfinst.so and build/perfinst-ld exist), then measures
#
#   1. run time: every variant runs the workload at --size, interleaved
#      round-robin for --rounds rounds (the order rotated each round); median
#      wall time and median user+sys CPU time, each as a ratio to gcc -O2;
#   2. instructions: one run of each variant at --small under callgrind
#      (deterministic: the ratios do not depend on the machine's load);
#   3. compile time: gcc -O2 -c sqlite3.c, plain / with the plugin loaded
#      and no directives / with all=count, interleaved for --compile-rounds.
#
# Every run of every variant must print the same checksum, or the script
# fails.  The Markdown result goes to stdout; with --record it is also
# appended to bench/RESULTS.md with the date, the command and the machine.
# Exit status: 0 when all that ran worked and agreed (targets missed are
# reported, not failed), 1 otherwise, 2 on bad usage.
#
# Environment: PERFINST_BUILD (default: build/ at the top of the tree),
# BENCH_CC (default gcc; the plugin only loads into the gcc that built it).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/count-overhead.sh${*:+ $*}"

rounds=5
size=1
mix=train
small=0.1
crounds=3
ccrounds=1
do_run=1
do_cg=1
do_compile=1
record=0
baseline_only=0

usage() { sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --size) size=${2:?}; shift 2 ;;
    --mix) mix=${2:?}; shift 2 ;;
    --small) small=${2:?}; shift 2 ;;
    --compile-rounds) crounds=${2:?}; shift 2 ;;
    --count-compile-rounds) ccrounds=${2:?}; shift 2 ;;
    --quick) rounds=1; crounds=1; shift ;;
    --no-run) do_run=0; shift ;;
    --no-callgrind) do_cg=0; shift ;;
    --no-compile) do_compile=0; shift ;;
    --record) record=1; shift ;;
    --baseline-only) baseline_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "count-overhead: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
case "$rounds$crounds$ccrounds" in *[!0-9]*) echo "count-overhead: rounds must be integers" >&2; exit 2 ;; esac
if [ "$rounds" -lt 1 ] || [ "$crounds" -lt 1 ]; then echo "count-overhead: rounds must be >= 1" >&2; exit 2; fi

CC=${BENCH_CC:-gcc}
B=${PERFINST_BUILD:-$top/build}
PLUGIN=$B/perfinst.so
PILD=$B/perfinst-ld
W=$here/.work
SQLDEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"

say() { echo "count-overhead: $*" >&2; }
die() { say "error: $*"; exit 1; }
failed=0

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$W"
exec 9>"$W/.lock"
flock -n 9 || die "another count-overhead.sh is using $W"

# ---- sources and helpers ------------------------------------------------------
SQ=$("$here/fetch-sqlite.sh" "$here/.cache/sqlite") || die "could not fetch SQLite"
sqlite_version=$(sed -n 's/^#define SQLITE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$SQ/sqlite3.h")
bsq_version=$(sed -n 's/^BSQ_VERSION=\([^ ]*\).*/\1/p' "$here/fetch-sqlite.sh")
TIMEIT=$W/timeit
if [ ! -x "$TIMEIT" ] || [ "$here/timeit.c" -nt "$TIMEIT" ]; then
    "$CC" -O2 -Wall -o "$TIMEIT" "$here/timeit.c" || die "cannot build timeit"
fi
sha() { [ -e "$1" ] && sha256sum "$1" | cut -d' ' -f1 || echo none; }

have_pi=1
pi_missing=""
[ -f "$PLUGIN" ] || { have_pi=0; pi_missing="${PLUGIN#"$top"/}"; }
[ -x "$PILD" ] || { have_pi=0; pi_missing="${pi_missing:+$pi_missing and }${PILD#"$top"/}"; }
pi_skip="skipped: $pi_missing missing"
[ $baseline_only = 1 ] && { have_pi=0; pi_skip="skipped: --baseline-only"; }
[ $have_pi = 1 ] || say "$pi_skip — the perfinst variants are not measured"
pi_sums_start="$(sha "$PLUGIN") $(sha "$PILD")"

# ---- the variants ---------------------------------------------------------------
# name | label | compile flags | link driver ("gcc" or "pild") | run env
ALL_VARIANTS=(o2 pgen pg pi-count pi-off)
declare -A LABEL CFLAGS LINK RUNENV PROG
LABEL[o2]='`gcc -O2`'
LABEL[pgen]='`-O2 -fprofile-generate`'
LABEL[pg]='`-O2 -pg`'
LABEL[pi-count]='perfinst `all=count`'
LABEL[pi-off]='perfinst `all=count`, `PERFINST_MODE=off`'
CFLAGS[o2]="-O2"
CFLAGS[pgen]="-O2 -fprofile-generate"
CFLAGS[pg]="-O2 -pg"
CFLAGS[pi-count]="-O2 -fplugin=$PLUGIN -fplugin-arg-perfinst-all=count"
LINK[o2]=gcc; LINK[pgen]=gcc; LINK[pg]=gcc; LINK[pi-count]=pild
# (env arguments; a PERFINST_MODE inherited from the caller is dropped)
RUNENV[o2]="-u PERFINST_MODE"; RUNENV[pgen]="-u PERFINST_MODE"; RUNENV[pg]="-u PERFINST_MODE"
RUNENV[pi-count]="-u PERFINST_MODE"; RUNENV[pi-off]="PERFINST_MODE=off"
PROG[o2]=o2; PROG[pgen]=pgen; PROG[pg]=pg; PROG[pi-count]=pi-count; PROG[pi-off]=pi-count

VARIANTS=()
for v in "${ALL_VARIANTS[@]}"; do
    case $v in pi-*) [ $have_pi = 1 ] || continue ;; esac
    VARIANTS+=("$v")
done
BUILDS=()
for v in "${VARIANTS[@]}"; do [ "${PROG[$v]}" = "$v" ] && BUILDS+=("$v"); done

# ---- building (cached: stamps record the inputs of each step) -----------------
# step_stamp VARIANT STEP — what the step's output depends on
step_stamp() {
    local v=$1
    echo "cc: $("$CC" --version | head -n1)"
    echo "flags: ${CFLAGS[$v]}"
    if [ "${LINK[$v]}" = pild ]; then
        echo "plugin: $(sha "$PLUGIN")"
    fi
    case $2 in
    sqlite) echo "defs: $SQLDEFS"; echo "sqlite3.c: $(sha "$SQ/sqlite3.c")" ;;
    workload) echo "workload.c: $(sha "$here/sqlite/workload.c")"; echo "sqlite3.h: $(sha "$SQ/sqlite3.h")" ;;
    link)
        echo "link: ${LINK[$v]}"
        if [ "${LINK[$v]}" = pild ]; then
            echo "perfinst-ld: $(sha "$PILD")"
            for f in "$B"/libperfinst*; do [ -e "$f" ] && echo "$(basename "$f"): $(sha "$f")"; done
        fi
        ;;
    esac
    return 0
}

# step VARIANT STEP OUTPUT COMMAND... — run COMMAND in the variant's
# directory unless OUTPUT exists and its stamp is unchanged.
step() {
    local v=$1 st=$2 o=$3 d=$W/$1
    shift 3
    step_stamp "$v" "$st" > "$d/$o.stamp.new"
    if [ -e "$d/$o" ] && cmp -s "$d/$o.stamp.new" "$d/$o.stamp"; then
        rm -f "$d/$o.stamp.new"; return 0
    fi
    rm -f "$d/$o" "$d/$o.stamp" "$d/prog"
    echo "+ $*"
    (cd "$d" && "$@") || return 1
    mv "$d/$o.stamp.new" "$d/$o.stamp"
}

build_one() { # variant — runs in the background, output to build.log
    local v=$1 d=$W/$1
    mkdir -p "$d"
    {
        step "$v" sqlite sqlite3.o "$CC" ${CFLAGS[$v]} $SQLDEFS -c "$SQ/sqlite3.c" -o sqlite3.o &&
        step "$v" workload workload.o "$CC" ${CFLAGS[$v]} -std=c11 -I"$SQ" \
            -c "$here/sqlite/workload.c" -o workload.o &&
        if [ "${LINK[$v]}" = pild ]; then
            step "$v" link prog env PERFINST_LIB_DIR="$B" "$PILD" -O2 -o prog workload.o sqlite3.o -lm
        else
            step "$v" link prog "$CC" ${CFLAGS[$v]} -o prog workload.o sqlite3.o -lm
        fi
    } > "$d/build.log" 2>&1
}

declare -A BUILD_OK
build_all() {
    local pids=() names=() i
    for v in "${BUILDS[@]}"; do
        if [ ${#pids[@]} -ge 2 ]; then  # two CPUs: two builds at a time
            wait "${pids[0]}"; BUILD_OK[${names[0]}]=$?
            pids=("${pids[@]:1}"); names=("${names[@]:1}")
        fi
        build_one "$v" & pids+=($!); names+=("$v")
    done
    for i in "${!pids[@]}"; do wait "${pids[$i]}"; BUILD_OK[${names[$i]}]=$?; done
}

say "building ${BUILDS[*]} in ${W#"$top"/}/ (cached between runs)"
build_all
for v in "${BUILDS[@]}"; do
    if [ "${BUILD_OK[$v]}" != 0 ]; then
        say "build of $v failed; the end of ${W#"$top"/}/$v/build.log:"
        tail -n 20 "$W/$v/build.log" | sed 's/^/    /' >&2
        failed=1
    fi
done
RUNNABLE=()
declare -A STATUS
for v in "${VARIANTS[@]}"; do
    if [ "${BUILD_OK[${PROG[$v]}]:-1}" = 0 ]; then RUNNABLE+=("$v"); else STATUS[$v]="build failed (bench/.work/${PROG[$v]}/build.log)"; fi
done

# run_variant VARIANT SIZE OUT — one run, in the variant's directory; the
# measurement line is appended to OUT.times, the program's stdout to OUT.
run_variant() {
    local v=$1 sz=$2 out=$3 d=$W/${PROG[$1]}
    rm -f "$d"/*.gcda "$d"/gmon.out "$d/trace-$v.out"*
    (cd "$d" && env ${RUNENV[$v]} PERFINST_OUT="$d/trace-$v.out" \
        "$TIMEIT" "$out.times" ./prog "$sz" "$mix" > "$out" 2> "$out.err")
}

checksum_of() { sed -n 's/^checksum=\([0-9a-f]*\) .*/\1/p' "$1" | tail -n1; }

# ---- 1. run time ----------------------------------------------------------------------
R=$W/results
rm -rf "$R"; mkdir -p "$R"
declare -A SUM_BIG SUM_SMALL
check_sum() { # variant file which(big|small)
    local v=$1 f=$2 c
    c=$(checksum_of "$f")
    if [ -z "$c" ]; then
        STATUS[$v]="run failed (see ${f#"$top"/}.err)"; failed=1
        say "$v: no checksum; stderr:"; sed 's/^/    /' "$f.err" | tail -n 10 >&2
        return 1
    fi
    if [ "$3" = big ]; then
        if [ -n "${SUM_BIG[$v]:-}" ] && [ "${SUM_BIG[$v]}" != "$c" ]; then
            STATUS[$v]="checksum changed between runs"; failed=1
        fi
        SUM_BIG[$v]=$c
    else
        SUM_SMALL[$v]=$c
    fi
}

if [ $do_run = 1 ] && [ ${#RUNNABLE[@]} -gt 0 ]; then
    say "warm-up: one run of each variant at size $small"
    for v in "${RUNNABLE[@]}"; do run_variant "$v" "$small" "$R/warm-$v"; done
    n=${#RUNNABLE[@]}
    for ((r = 0; r < rounds; r++)); do
        order=()
        for ((i = 0; i < n; i++)); do order+=("${RUNNABLE[$(((i + r) % n))]}"); done
        say "round $((r + 1))/$rounds: ${order[*]}"
        for v in "${order[@]}"; do
            run_variant "$v" "$size" "$R/run-$v-$r"
            check_sum "$v" "$R/run-$v-$r" big
        done
    done
fi

# ---- 2. instructions under callgrind (one run each, small size) ----------------------
declare -A IR
if [ $do_cg = 1 ] && [ ${#RUNNABLE[@]} -gt 0 ]; then
    if ! command -v valgrind >/dev/null 2>&1; then
        say "skipped: valgrind missing (apt-get install valgrind) — no instruction counts"
        do_cg=0
    else
        for v in "${RUNNABLE[@]}"; do
            say "callgrind: $v at size $small"
            d=$W/${PROG[$v]}
            rm -f "$d"/*.gcda "$d"/gmon.out "$d/trace-$v.out"*
            # A -pg program can be killed by a late SIGPROF under valgrind,
            # after the counts are complete: the outer 2>/dev/null hides the
            # shell's "Profiling timer expired"; the checksum and the
            # "Collected" line are what is checked.
            (cd "$d" && env ${RUNENV[$v]} PERFINST_OUT="$d/trace-$v.out" \
                valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                ./prog "$small" "$mix" > "$R/cg-$v" 2> "$R/cg-$v.err") 2>/dev/null
            check_sum "$v" "$R/cg-$v" small || continue
            IR[$v]=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$R/cg-$v.err" | tail -n1)
            [ -n "${IR[$v]}" ] || { say "$v: no 'Collected' line from callgrind"; failed=1; }
        done
    fi
fi

# every variant must agree with every other
agree() { # assoc-array-name
    local -n A=$1
    local first="" v
    for v in "${!A[@]}"; do
        [ -z "$first" ] && first=${A[$v]}
        [ "${A[$v]}" = "$first" ] || return 1
    done
    return 0
}
sums_ok=1
if ! agree SUM_BIG || ! agree SUM_SMALL; then sums_ok=0; failed=1; fi

# ---- 3. compile time ---------------------------------------------------------------------
CVARIANTS=(c-o2)
declare -A CLABEL CCFLAGS
CLABEL[c-o2]='`gcc -O2 -c sqlite3.c`'
CLABEL[c-plugin]='+ `-fplugin=perfinst.so` (no directives)'
CLABEL[c-count]='+ `-fplugin-arg-perfinst-all=count`'
CCFLAGS[c-o2]="-O2"
CCFLAGS[c-plugin]="-O2 -fplugin=$PLUGIN"
CCFLAGS[c-count]="-O2 -fplugin=$PLUGIN -fplugin-arg-perfinst-all=count"
[ $have_pi = 1 ] && CVARIANTS+=(c-plugin c-count)
if [ $do_compile = 1 ]; then
    mkdir -p "$W/compile"
    n=${#CVARIANTS[@]}
    for ((r = 0; r < crounds; r++)); do
        order=()
        for ((i = 0; i < n; i++)); do
            v=${CVARIANTS[$(((i + r) % n))]}
            [ $v = c-count ] && [ $r -ge "$ccrounds" ] && continue
            order+=("$v")
        done
        say "compile round $((r + 1))/$crounds: ${order[*]} (about 45 s each)"
        for v in "${order[@]}"; do
            if ! "$TIMEIT" "$R/$v.times" "$CC" ${CCFLAGS[$v]} $SQLDEFS -c "$SQ/sqlite3.c" \
                    -o "$W/compile/$v.o" > "$R/$v.log" 2>&1; then
                STATUS[$v]="compile failed (see ${R#"$top"/}/$v.log)"; failed=1
            fi
        done
    done
fi

# ---- the report -------------------------------------------------------------------------
median() { # FILE FIELD — median of field=VALUE over the lines of FILE
    [ -s "$1" ] || return 0
    sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" "$1" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) printf "%.6f", a[(NR + 1) / 2];
                                 else printf "%.6f", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
minmax() { # FILE FIELD
    [ -s "$1" ] || return 0
    sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" "$1" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f–%.2f", lo, hi }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf "%.3f", a / b }'; }
fmt_s() { [ -n "$1" ] && awk -v x="$1" 'BEGIN { printf "%.3f s", x }'; }
fmt_x() { [ -n "$1" ] && echo "$1×"; }
fmt_int() { [ -n "$1" ] && echo "$1" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0) }'; }
verdict() { # RATIO LIMIT [LIMIT2]
    [ -n "$1" ] || { echo "–"; return; }
    if le "$1" "$2" && { [ -z "${3:-}" ] || le "$1" "$3"; }; then echo "met"; else echo "missed"; fi
}

for v in "${RUNNABLE[@]}"; do
    cat "$R"/run-"$v"-*.times > "$R/$v.times" 2>/dev/null || true
done
base_wall=$(median "$R/o2.times" wall)
base_cpu=$(median "$R/o2.times" cpu)
base_ir=${IR[o2]:-}
pgen_wall_ratio=$(ratio "$(median "$R/pgen.times" wall)" "$base_wall")
pgen_ir_ratio=$(ratio "${IR[pgen]:-}" "$base_ir")

report() {
    local v w c wr cr ir irr tgt ver st
    if [ $have_pi = 1 ] && [ "$pi_sums_start" != "$(sha "$PLUGIN") $(sha "$PILD")" ]; then
        echo "**Warning:** \`${PLUGIN#"$top"/}\` or \`${PILD#"$top"/}\` was rebuilt during this run;"
        echo "the perfinst numbers may mix two versions."
        echo
    fi
    if [ $do_run = 1 ] || [ $do_cg = 1 ]; then
    if [ $do_run = 1 ]; then
        echo "### Run time: SQLite workload (size $size, mix $mix), $rounds interleaved round(s)"
    else
        echo "### Instructions: SQLite workload (mix $mix; run time not measured: --no-run)"
    fi
    echo
    echo "SQLite $sqlite_version (better-sqlite3 $bsq_version), built with \`$SQLDEFS\`."
    echo "Wall and CPU (user+sys) are medians over the rounds (wall range in brackets);"
    echo "instructions are callgrind's \"Collected\" total for one run at size $small."
    echo
    echo "| variant | wall | × -O2 | CPU | × -O2 | instructions | × -O2 | target | met? (wall / instr) |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for v in "${ALL_VARIANTS[@]}"; do
        case $v in
        pi-count) tgt="≤ 1.3× and ≤ -fprofile-generate (${pgen_wall_ratio:-?}× / ${pgen_ir_ratio:-?}×)" ;;
        pi-off) tgt="≤ 1.03×" ;;
        *) tgt="" ;;
        esac
        if [[ $v == pi-* ]] && [ $have_pi = 0 ]; then
            echo "| ${LABEL[$v]} | $pi_skip | | | | | | $tgt | |"
            continue
        fi
        st=${STATUS[$v]:-}
        if [ -n "$st" ] && [ ! -s "$R/$v.times" ]; then
            echo "| ${LABEL[$v]} | $st | | | | | | $tgt | |"
            continue
        fi
        w=$(median "$R/$v.times" wall); c=$(median "$R/$v.times" cpu)
        wr=$(ratio "$w" "$base_wall"); cr=$(ratio "$c" "$base_cpu")
        ir=${IR[$v]:-}; irr=$(ratio "$ir" "$base_ir")
        ver=""
        case $v in
        pi-count) ver="$(verdict "$wr" 1.3 "$pgen_wall_ratio") / $(verdict "$irr" 1.3 "$pgen_ir_ratio")" ;;
        pi-off) ver="$(verdict "$wr" 1.03) / $(verdict "$irr" 1.03)" ;;
        esac
        [ -n "$st" ] && ver="$ver ($st)"
        echo "| ${LABEL[$v]} | $(fmt_s "$w")${w:+ ($(minmax "$R/$v.times" wall))} | $(fmt_x "$wr") | $(fmt_s "$c") | $(fmt_x "$cr") | $(fmt_int "$ir") | $(fmt_x "$irr") | $tgt | $ver |"
    done
    echo
    if [ $sums_ok = 1 ]; then
        local one="" two=""
        for v in "${!SUM_BIG[@]}"; do one=${SUM_BIG[$v]}; done
        for v in "${!SUM_SMALL[@]}"; do two=${SUM_SMALL[$v]}; done
        local parts=""
        [ -n "$one" ] && parts="$one (size $size)"
        [ -n "$two" ] && parts="${parts:+$parts and }$two (size $small)"
        echo "Checksums: every variant printed ${parts:-nothing}."
    else
        echo "**CHECKSUMS DIFFER** — the variants do not behave the same:"
        echo
        for v in "${!SUM_BIG[@]}"; do echo "- $v, size $size: ${SUM_BIG[$v]}"; done
        for v in "${!SUM_SMALL[@]}"; do echo "- $v, size $small: ${SUM_SMALL[$v]}"; done
    fi
    echo
    fi # run time / instructions
    if [ $do_compile = 1 ]; then
        local bw bc
        bw=$(median "$R/c-o2.times" wall); bc=$(median "$R/c-o2.times" cpu)
        echo "### Compile time: \`$CC -O2 -c sqlite3.c\`, $crounds interleaved round(s)"
        echo
        if [ $have_pi = 1 ] && [ "$ccrounds" -lt "$crounds" ]; then
            echo "(\`all=count\` is compiled in the first $ccrounds of them only: \`--count-compile-rounds\`.)"
            echo
        fi
        echo "| variant | wall | × plain | CPU | × plain | target | met? (wall / CPU) |"
        echo "| --- | --- | --- | --- | --- | --- | --- |"
        for v in c-o2 c-plugin c-count; do
            tgt=""; [ $v = c-plugin ] && tgt="≤ 1.05×"
            if [ $v != c-o2 ] && [ $have_pi = 0 ]; then
                echo "| ${CLABEL[$v]} | $pi_skip | | | | $tgt | |"
                continue
            fi
            if [ ! -s "$R/$v.times" ]; then
                echo "| ${CLABEL[$v]} | ${STATUS[$v]:-not measured} | | | | $tgt | |"
                continue
            fi
            w=$(median "$R/$v.times" wall); c=$(median "$R/$v.times" cpu)
            wr=$(ratio "$w" "$bw"); cr=$(ratio "$c" "$bc")
            ver=""; [ $v = c-plugin ] && ver="$(verdict "$wr" 1.05) / $(verdict "$cr" 1.05)"
            [ -n "${STATUS[$v]:-}" ] && ver="$ver (${STATUS[$v]})"
            echo "| ${CLABEL[$v]} | $(fmt_s "$w")${w:+ ($(minmax "$R/$v.times" wall))} | $(fmt_x "$wr") | $(fmt_s "$c") | $(fmt_x "$cr") | $tgt | $ver |"
        done
        echo
    fi
}

out=$(report)
echo "$out"

if [ $record = 1 ]; then
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
    commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo "no commit")
    dirty=""
    [ -n "$(git -C "$top" status --porcelain 2>/dev/null | head -n1)" ] && dirty=" (with uncommitted changes)"
    {
        echo
        echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
        echo
        echo "- machine: $(nproc) CPUs, $cpu; $(uname -sr); load average at the start $load_start, at the end $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "- compiler: $("$CC" --version | head -n1); valgrind: $(valgrind --version 2>/dev/null || echo none)"
        echo "- tree: $commit$dirty"
        echo
        echo "$out"
    } >> "$here/RESULTS.md"
    say "appended to bench/RESULTS.md"
fi
exit $failed
