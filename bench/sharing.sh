#!/bin/bash
# shellcheck disable=SC2086  # argument lists are word-split on purpose
# sharing.sh — false sharing on programs that reproduce the patterns real
# programs have (issue 19; Huron and Phoenix are not in the package
# registries, so these are our own, each with its hand fix), and what
# detection, analysis and repair cost and gain.  See docs/sharing.md.
#
#   bench/sharing.sh [--rounds N] [--quick] [--no-callgrind] [--cost-only] [--repair-only] [--layout]
#                    [--analysis-only] [--only NAME,...] [--zstd] [--record]
#
#   --rounds N      paired rounds of every timed comparison (default 7)
#   --quick         smaller inputs, 3 rounds (a smoke test of the script)
#   --no-callgrind  leave out the instruction counts under callgrind
#   --cost-only     only detection's instructions under callgrind (step 4's
#                   deterministic part): no verdicts, analysis, repair or rounds
#   --repair-only   only the verdicts and the repair (steps 1 and 3): no
#                   analysis at issue 19's sizes, no detection cost
#   --analysis-only only the verdicts and the analysis' time and memory (steps 1
#                   and 2, the sizes issue 19 measured and the generated trace
#                   included): no repair, no rounds, no detection cost
#   --layout        also the repaired build against the hand fix where time can
#                   go without another algorithm (bench/sharing-layout.py): the
#                   worker's address, its instructions (addresses left out)
#                   and its loops' 32- and 64-byte blocks, and the instructions
#                   of the original, the hand fix and the repair under callgrind
#                   (total, main, worker) at the callgrind arguments
#   --only LIST     only these programs (comma-separated names below)
#   --zstd          also a threaded real project: zstd 1.5.4's multi-threaded
#                   compression (-T2), Debian's source (bench/fetch-debsrc.sh,
#                   built by bench/projects/zstd.sh's recipe) plain and with
#                   sharing=all: the objects judged, detection's instructions
#                   under callgrind, the analysis' time and memory (with
#                   --only '' the suite is left out)
#   --record        append the result to bench/RESULTS.md
#
# The programs (bench/sharing/; -DHAND_FIXED is the fix a programmer writes):
#   histogram   per-thread histograms, a typedef'd struct without a tag, in a heap array
#   lu          blocked LU factorisation (Splash-2's lu_ncb) by two threads of a
#               matrix 32 bytes into a line, block columns given out by thread;
#               aligned, every line of a row lies beside another thread's: the
#               plan advises (predicted not to pay, docs/sharing.md)
#   lurow       LU factorisation by rows given out cyclically (Phoenix/Splash
#               lu's other pattern): pivot rows written in earlier phases look
#               like false sharing at every placement (docs/sharing.md, Known
#               gaps); aligned, the rows' ends stay on neighbouring lines: advice
#   strmatch    per-thread word buffers written only by bzero
#   kmeans      threads made every iteration; read-mostly globals beside a shared flag
#   wordcount   per-thread counters, a typedef'd struct in a heap array
#   spinpool    C++: a pool of spin locks made by a global's constructor
#   globals, mixed, linreg   fsbench.c's patterns (two globals; a struct with a
#               shared field; per-thread accumulators in a heap array)
# For each program:
#   1. the verdict against the known answer: a detection run of the
#      sharing=all build (perfinst-ld, default sampled mode), `pmopt report
#      --sharing --plain=ORIGINAL`: the known falsely shared object must be
#      found FALSE (and where the plain build puts it elsewhere, its verdict
#      there too);
#   2. analysis time (wall and CPU) and peak memory of `pmopt report
#      --sharing` and `pmopt plan --sharing` on that trace, on traces of the
#      sizes issue 19 measured (histogram of a 12 MB image, lu at n=256 and
#      n=1536, lurow at n=256; not with --quick) and on a generated 100 MB
#      trace (tests/sharing/gentrace.c);
#   3. the automatic repair: gcc -O2 with -fplugin-arg-perfinst-feedback=PLAN;
#      without the clock: the repaired build with detection too, its run
#      judged by `pmopt plan --sharing --check`, and the hand fix with
#      detection, whether the known object is still falsely shared;
#      the original, the hand fix and the repair in paired rounds (rotated
#      order), CPU and wall time: the repair's speedup against the hand fix's
#      (bench/paired.py: the median of the per-round ratios, a bootstrap 95 %
#      interval);
#   4. the cost of detection: sharing=all against gcc -O2, CPU time in paired
#      rounds and instructions under callgrind (deterministic).
# Every variant of a program must print the same checksum.
#
# False sharing costs far less on a loaded machine (threads rarely run at
# the same time): the result says the load average; timings taken under
# load are to be taken again on a quiet machine.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cmdline="bench/sharing.sh${*:+ $*}"
rounds=7
quick=0
do_cg=1
only=all
record=0
cost_only=0
repair_only=0
analysis_only=0
layout=0
zstd=0
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=${2:?}; shift 2 ;;
    --quick) quick=1; rounds=3; shift ;;
    --no-callgrind) do_cg=0; shift ;;
    --cost-only) cost_only=1; shift ;;
    --repair-only) repair_only=1; shift ;;
    --analysis-only) analysis_only=1; shift ;;
    --layout) layout=1; shift ;;
    --zstd) zstd=1; shift ;;
    --only) only=${2?}; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "sharing.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

B=${PERFINST_BUILD:-$top/build}
W=$here/.work/sharing
mkdir -p "$W"
PLUGIN=$B/perfinst.so PILD=$B/perfinst-ld PMOPT=$B/pmopt
export PERFINST_LIB_DIR=$B
die() { echo "sharing.sh: $*" >&2; exit 1; }
for f in "$PLUGIN" "$PILD" "$PMOPT" "$B/libperfinst.a"; do [ -e "$f" ] || die "$f missing: run make"; done
TIMEIT=$W/timeit
[ -x "$TIMEIT" ] && [ ! "$here/timeit.c" -nt "$TIMEIT" ] || gcc -O2 -o "$TIMEIT" "$here/timeit.c" || die "timeit"
cd "$W" || die "cannot enter $W"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# NAME|SOURCE|COMPILER|RUN ARGS|QUICK RUN ARGS|DETECTION ARGS|CALLGRIND ARGS|KNOWN (report line of the falsely shared object)
programs='
histogram|histogram.c|gcc|48 3|8 3|4 3|1 3|^  heap object from histogram.c:[0-9]+ \(main\) \(heap, 144 bytes, .*\): (FALSE|HIDDEN)
lu|lu.c|gcc|256 100|128 20|128 4|64 2|^  heap object from lu.c:[0-9]+ \(main\) \(heap, 131072 bytes, .*\): FALSE sharing
lurow|lurow.c|gcc|256 200|96 10|128 4|64 2|^  heap object from lurow.c:[0-9]+ \(main\) \(heap, 131072 bytes, .*\): FALSE sharing
strmatch|strmatch.c|gcc|64 2|8 2|8 2|2 2|^  heap object from strmatch.c:[0-9]+ \(main\)(, block [0-9]+ of [0-9]+)? \(heap, 24 bytes, .*\): FALSE sharing
kmeans|kmeans.c|gcc|400000 2 20|100000 2 10|100000 2 5|20000 2 3|^  modified \(global, 4 bytes, .*\): FALSE sharing: it is written while threads use other data
wordcount|wordcount.c|gcc|128 2|16 2|16 2|2 2|^  heap object from wordcount.c:[0-9]+ \(main\) \(heap, 48 bytes, .*\): FALSE sharing
spinpool|spinpool.cc|g++|20000000 2|2000000 2|2000000 2|200000 2|^  heap object from spinpool.cc:[0-9]+ .*\(heap, 256 bytes, .*\): (FALSE|HIDDEN)
globals|fsbench.c|gcc|globals 50000000|globals 5000000|globals 2000000|globals 500000|^  hits_[ab] \(global, 8 bytes, .*\): FALSE sharing
mixed|fsbench.c|gcc|mixed 50000000|mixed 5000000|mixed 2000000|mixed 500000|^  mixed \(global, [0-9]+ bytes, .*\): FALSE sharing
linreg|fsbench.c|gcc|linreg 50000000|linreg 5000000|linreg 2000000|linreg 500000|^  heap object from fsbench.c:[0-9]+ \(main\) \(heap, 80 bytes, .*\): FALSE sharing
'

# rounds_of FILE VARIANT...: paired rounds, the variants' order rotated each
# round; "ROUND VARIANT WALL USER+SYS" lines into FILE (bench/paired.py);
# each variant's output into VARIANT.out, compared with the first's
rounds_of() {
    local file=$1; shift
    local vars=("$@") n=$#
    echo "# variants $*" > "$file"
    for r in $(seq 1 "$rounds"); do
        for k in $(seq 0 $((n - 1))); do
            local v=${vars[$(( (k + r) % n ))]}
            rm -f t.times
            PERFINST_OUT=$W/bench.pit "$TIMEIT" t.times ./$v $args > "$v.out" 2> /dev/null || status=1
            rm -f "$W"/bench*.pit
            awk -v r="$r" -v v="$v" '{for (i = 1; i <= NF; i++) {split($i, kv, "="); f[kv[1]] = kv[2]}
                 printf "%d %s %s %s\n", r, v, f["wall"], f["cpu"]}' t.times >> "$file"
        done
        for v in "${vars[@]}"; do
            cmp -s "${vars[0]}.out" "$v.out" || { echo "sharing.sh: $name: $v printed another checksum" >&2; status=1; }
        done
    done
}
# measure OUT CMD...: wall and CPU seconds and peak memory (MiB) of CMD into OUT ("WALL CPU MIB")
measure() {
    local out=$1; shift
    rm -f m.times
    "$TIMEIT" m.times "$@" > /dev/null 2> m.err || { cat m.err >&2; status=1; }
    awk '{for (i = 1; i <= NF; i++) {split($i, kv, "="); f[kv[1]] = kv[2]}
          printf "%.2f %.2f %.0f\n", f["wall"], f["cpu"], f["maxrss_kb"] / 1024}' m.times > "$out"
}
# irs CMD...: instructions of a run under callgrind (all threads)
irs() {
    PERFINST_OUT=$W/cg.pit valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
        sed -n 's/.*I *refs: *//p' | tr -d ,
    rm -f "$W"/cg.pit*
}
# analysed LABEL PROG TRACE: a row of the analysis table from $W/big.{rep,plan}.m
# or NAME.{rep,plan}.m
analysed() {
    local m=big
    [ -e "$1.rep.m" ] && m=$1
    read -r rw rc rm < $m.rep.m
    read -r pw pc pm < $m.plan.m
    echo "| $1 | $(stat -c %s "$3") | $rc s ($rw s), $rm MiB | $pc s ($pw s), $pm MiB |" >> analysis.md
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
geo() { # geometric mean of the numbers on stdin
    awk '$1 > 0 {s += log($1); n++} END {if (n) printf "%.2f", exp(s / n); else print "n/a"}'
}
# overhead_table: detection's instructions (overhead.md) as the result's section
overhead_table() {
    echo "Cost of detection (sharing=all, perfinst-ld, default sampled mode): instructions under callgrind (valgrind"
    echo "$(valgrind --version 2>/dev/null | sed 's/valgrind-//'); deterministic):"
    echo
    echo "| program (callgrind args) | gcc -O2 Ir | sharing=all Ir | ratio |"
    echo "| --- | --- | --- | --- |"
    cat overhead.md
    echo
    echo "Geometric mean of the instruction ratios: $(awk -F'|' '{gsub(/[× ]/, "", $5); print $5}' overhead.md | geo)×;"
    echo "worst: $(awk -F'|' '{r = $5; gsub(/[× ]/, "", r); if (r + 0 > m) {m = r + 0; w = $2}} END {gsub(/^ +| +$/, "", w); print w ", " m "×"}' overhead.md)."
}

out=$W/result.md
status=0
: > verdicts.md
: > repair.md
: > overhead.md
: > cost.md
: > analysis.md
: > layout.md
: > layout-ir.md
while IFS='|' read -r name src cc run qrun drun cgrun known <&3; do
    [ -n "$name" ] || continue
    if [ "$only" != all ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
    [ $quick = 1 ] && run=$qrun
    echo "sharing.sh: $(date -u +%T) $name" >&2
    S=$here/sharing/$src
    lib=
    [ "$cc" = g++ ] && lib=-lstdc++
    $cc -O2 -g -pthread "$S" -o $name-orig || die "build $name"
    $cc -O2 -pthread -DHAND_FIXED "$S" -o $name-hand || die "build $name hand"
    $cc -O2 -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -I"$top/include" -c "$S" -o $name-inst.o &&
        "$PILD" -O2 -o $name-inst $name-inst.o $lib || die "build $name inst"
    if [ $cost_only = 1 ]; then
        ir_o=$(irs ./$name-orig $cgrun) ir_i=$(irs ./$name-inst $cgrun)
        echo "| $name ($cgrun) | $ir_o | $ir_i | $(ratio "$ir_i" "$ir_o")× |" >> overhead.md
        continue
    fi
    # 1. the verdict
    rm -f $name.pit
    PERFINST_OUT=$name.pit ./$name-inst $drun > /dev/null || { echo "sharing.sh: $name: detection run failed" >&2; status=1; }
    measure $name.rep.m "$PMOPT" report --sharing $name-inst $name.pit
    "$PMOPT" report --sharing --plain=$name-orig $name-inst $name.pit > $name.rep
    measure $name.plan.m "$PMOPT" plan --sharing -o $name.fb $name-inst $name.pit
    found=$(grep -E -m1 -- "$known" $name.rep | sed 's/^  //; s/; false reloads: [^;]*//')
    if [ -n "$found" ]; then verdict="found: $found"; else verdict="**NOT FOUND** (expected /$known/)"; status=1; fi
    truefalse=$(grep -c "^  .*TRUE sharing only" $name.rep)
    plan=$(grep -E '^[0-9]+ ' $name.fb | awk '{print $2}' | sort | uniq -c | awk '{printf "%s%s×%s", sep, $1, $2; sep=", "}')
    [ -n "$plan" ] || { grep -q '^# advice' $name.fb && plan="advice only"; }
    analysed $name $name-inst $name.pit
    if [ $analysis_only = 1 ]; then
        echo "| $name | $verdict | ${plan:-none} | (--analysis-only) | (--analysis-only) |" >> verdicts.md
        continue
    fi
    # 3. the repair
    # (linked by the link stage, as a user's build with perfinst's flags is:
    # libperfinst-line.a for align-alloc's allocators, no runtime)
    { $cc -O2 -pthread -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=$name.fb -c "$S" -o $name-auto.o &&
        "$PILD" -O2 -o $name-auto $name-auto.o $lib; } 2> $name.auto.err ||
        { cat $name.auto.err >&2; die "build $name repaired"; }
    grep -q "not applied" $name.auto.err && { echo "sharing.sh: $name: the rebuild did not apply everything" >&2; status=1; }
    # ... judged without the clock: the repaired build and the hand fix, each
    # with detection, run as the detection run was; the repair's run by
    # `pmopt plan --sharing --check`, the hand fix's report for the known object
    checked="no repair"
    if grep -qE '^[0-9]+ ' $name.fb; then
        $cc -O2 -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-feedback=$name.fb \
            -I"$top/include" -c "$S" -o $name-ai.o 2> /dev/null && "$PILD" -O2 -o $name-ai $name-ai.o $lib ||
            die "build $name repaired with detection"
        rm -f $name-ai.pit
        PERFINST_OUT=$name-ai.pit ./$name-ai $drun > /dev/null || status=1
        "$PMOPT" plan --sharing --check $name-ai $name-ai.pit > $name.check 2>&1
        checked=$(grep -m1 -E '^check (passed|FAILED)' $name.check || echo "check: no verdict")
    fi
    $cc -O2 -g -DHAND_FIXED -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -I"$top/include" -c "$S" -o $name-hi.o &&
        "$PILD" -O2 -o $name-hi $name-hi.o $lib || die "build $name hand fix with detection"
    rm -f $name-hi.pit
    PERFINST_OUT=$name-hi.pit ./$name-hi $drun > /dev/null || status=1
    "$PMOPT" report --sharing $name-hi $name-hi.pit > $name-hi.rep
    if grep -qE -- "$known" $name-hi.rep; then hand_left="still FALSE"; else hand_left="gone"; fi
    echo "| $name | $verdict | ${plan:-none} | $checked | $hand_left |" >> verdicts.md
    if [ $layout = 1 ]; then
        fn=worker
        [ $name = spinpool ] && fn=_ZL6workeril
        python3 "$here/sharing-layout.py" $fn $name-hand $name-auto | sed "s/^| /| $name: /" >> layout.md || status=1
        row="| $name ($cgrun)"
        for v in orig hand auto; do
            PERFINST_OUT=$W/cg.pit valgrind --tool=callgrind --callgrind-out-file=cg.$v ./$name-$v $cgrun > /dev/null 2>&1
            # (a function's lines summed: with -g, what was inlined into it
            # is listed under the inlined function's file)
            row="$row | $(callgrind_annotate --auto=no --threshold=100 cg.$v 2> /dev/null | awk -v f="$fn" '
                {n = $1; gsub(/,/, "", n)}
                / PROGRAM TOTALS/ {t = n} $0 ~ ":main( |$)" {m += n}
                index($0, ":" f " ") || $0 ~ ":" f "$" || ($0 ~ /worker\(int, long\)/ && f ~ /^_Z/) {w += n}
                END {printf "%d, %d, %d", t, m, w}')"
            rm -f cg.$v "$W"/cg.pit*
        done
        echo "$row |" >> layout-ir.md
    fi
    args=$run
    rounds_of $name.repair.times $name-orig $name-hand $name-auto
    python3 "$here/paired.py" --base $name-orig $name.repair.times > $name.repair.md || status=1
    sed -n '/^| *'"$name"'-/p' $name.repair.md >> repair.md
    [ $repair_only = 0 ] || continue
    # 4. detection's cost
    rounds_of $name.cost.times $name-orig $name-inst
    python3 "$here/paired.py" --base $name-orig $name.cost.times > $name.cost.md || status=1
    ir_o=- ir_i=- irr=-
    if [ $do_cg = 1 ] && command -v valgrind > /dev/null; then
        ir_o=$(irs ./$name-orig $cgrun) ir_i=$(irs ./$name-inst $cgrun)
        irr=$(ratio "$ir_i" "$ir_o")
    fi
    sed -n '/^| *'"$name"'-inst/p' $name.cost.md >> cost.md
    echo "| $name ($cgrun) | $ir_o | $ir_i | $irr× |" >> overhead.md
done 3<<< "$programs"

# the analysis at the sizes issue 19 measured
if [ $quick = 0 ] && [ $cost_only = 0 ] && [ $repair_only = 0 ]; then
    for big in "histogram 12 3" "lu 256 1" "lu 1536 1" "lurow 256 1"; do
        set -- $big
        [ -x "$1-inst" ] || continue
        echo "sharing.sh: $(date -u +%T) analysis of $big" >&2
        rm -f big.pit
        PERFINST_OUT=big.pit ./$1-inst $2 $3 > /dev/null || { echo "sharing.sh: $big: detection run failed" >&2; status=1; }
        measure big.rep.m "$PMOPT" report --sharing $1-inst big.pit
        measure big.plan.m "$PMOPT" plan --sharing -o big.fb $1-inst big.pit
        analysed "$big" $1-inst big.pit
    done
fi
# the analysis of a generated 100 MB trace
[ $cost_only = 1 ] || [ $repair_only = 1 ] || {
gcc -O2 -I"$top/include" -I"$top/common" "$top/tests/sharing/gentrace.c" "$B/libpicommon.a" -lelf -lz -o gentrace &&
    ./gentrace big.pit 100 > /dev/null || die "gentrace"
gcc -O2 -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -c "$top/tests/sharing/adjacent.c" -o adj.o &&
    "$PILD" -O2 -o adj adj.o || die "build adjacent"
measure big.rep.m "$PMOPT" report --sharing adj big.pit
measure big.plan.m "$PMOPT" plan --sharing -o big.fb adj big.pit
analysed "generated (tests/sharing/gentrace.c)" adj big.pit
rm -f big.pit
}

# 5. a threaded real project: zstd -T2 (bench/projects/zstd.sh's recipe)
: > zstd.md
if [ $zstd = 1 ]; then
    echo "sharing.sh: $(date -u +%T) zstd" >&2
    (
        . "$here/lib.sh"
        . "$here/projects/zstd.sh"
        SRC=$(project_source "$W/apt.log") || exit 1
        export PKG_CONFIG_PATH=$B
        # (a tree built with the same perfinst is kept)
        stamp=$(cat "$here/sharing.sh" "$B/perfinst.so" "$B/perfinst-ld" "$B"/libperfinst.* | md5sum)
        for v in plain inst; do
            [ "$(cat "$W/zstd-$v/.stamp" 2> /dev/null)" != "$stamp" ] || continue
            project_tree "$SRC" "$P_PKG" "$P_TREE" "$W/zstd-$v"
            CC=gcc CXX=g++ CFLAGS="-O2 -g" LDFLAGS=
            [ $v = plain ] || CFLAGS="-O2 -g $(pkg-config --cflags perfinst-uninstalled) -fplugin-arg-perfinst-sharing=all" \
                LDFLAGS=$(pkg-config --libs perfinst-uninstalled)
            export CC CXX CFLAGS LDFLAGS
            (cd "$W/zstd-$v" && p_build) || { tail -20 "$W/zstd-$v/build.log" >&2; exit 1; }
            echo "$stamp" > "$W/zstd-$v/.stamp"
        done
        # a corpus of 4 MB (datagen, seed 1), compressed at level 3 by two workers
        "$W/zstd-plain/tests/datagen" -g4M -s1 -P50 > zstd.corpus
        run() { LD_LIBRARY_PATH=$W/zstd-$1/lib "$W/zstd-$1/programs/zstd" -q -T2 -3 -f -c zstd.corpus; }
        rm -f zstd.pit
        run plain > zstd.plain.zst && PERFINST_OUT=$W/zstd.pit run inst > zstd.inst.zst &&
            cmp -s zstd.plain.zst zstd.inst.zst ||
            { echo "sharing.sh: zstd: the instrumented build compressed differently" >&2; exit 1; }
        # PROG: the CLI, which holds the thread pool (pool.c, threading.c) and
        # the allocations' call sites
        measure zstd.rep.m "$PMOPT" report --sharing "$W/zstd-inst/programs/zstd" zstd.pit
        "$PMOPT" report --sharing "$W/zstd-inst/programs/zstd" zstd.pit > zstd.rep 2>&1
        read -r rw rc rm < zstd.rep.m
        objs=$(sed -n '/^Objects:/,$p' zstd.rep | grep -E '^  [^ ]' | sed 's/^  //; s/; .*//' | head -8 |
            awk '{printf "%s%s", sep, $0; sep="<br>"}')
        ir_p=- ir_i=- irr=-
        if [ $do_cg = 1 ] && command -v valgrind > /dev/null; then
            ir_p=$(LD_LIBRARY_PATH="$W/zstd-plain/lib" irs "$W/zstd-plain/programs/zstd" -q -T2 -3 -f -c zstd.corpus)
            ir_i=$(LD_LIBRARY_PATH="$W/zstd-inst/lib" irs "$W/zstd-inst/programs/zstd" -q -T2 -3 -f -c zstd.corpus)
            irr=$(ratio "$ir_i" "$ir_p")
        fi
        {
            echo "A threaded real project: zstd ${P_PKG#*=} (Debian's source, its own makefiles; bench/projects/zstd.sh's"
            echo "build), \`zstd -q -T2 -3\` on a 4 MB datagen corpus (seed 1): the plain build and the one with"
            echo "\`-fplugin-arg-perfinst-sharing=all\` (the library and the CLI; same output), its report's objects,"
            echo "detection's instructions under callgrind (all threads) and the analysis (\`pmopt report --sharing\`"
            echo "with the CLI as PROG):"
            echo
            echo "| run | objects judged (verdict) | plain Ir | sharing=all Ir | ratio | trace | report: CPU (wall), memory |"
            echo "| --- | --- | --- | --- | --- | --- | --- |"
            echo "| zstd -T2 -3, 4 MB | ${objs:-none: no line two threads used at once with a writer} | $ir_p | $ir_i | $irr× | $(stat -c %s zstd.pit) bytes | $rc s ($rw s), $rm MiB |"
        } > zstd.md
    ) || status=1
fi

if [ $cost_only = 1 ]; then
    { overhead_table; [ -s zstd.md ] && { echo; cat zstd.md; }; } > "$out"
else
{
echo "### False sharing: verdicts, repair, cost (bench/sharing.sh, $rounds paired rounds)"
echo
echo "Load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end ($(nproc) CPUs): under load"
echo "threads rarely run at once and false sharing costs little — take the timings again on a quiet machine."
echo
echo "Verdicts (the detection run, default sampled mode) against the known answer, and the plan:"
echo
echo "| program | verdict | plan | repaired build's run (\`plan --sharing --check\`) | known object in the hand fix's run |"
echo "| --- | --- | --- | --- | --- |"
cat verdicts.md
echo
[ $repair_only = 1 ] || {
echo "Analysis (\`pmopt report --sharing\`, \`pmopt plan --sharing\`): CPU time (wall time), peak memory; the"
echo "detection run's arguments for the sizes issue 19 measured (target: under 10 s and 1 GiB; 60 s for 100 MB):"
echo
echo "| trace | bytes | report | plan |"
echo "| --- | --- | --- | --- |"
cat analysis.md
echo
}
if [ $analysis_only = 0 ]; then
[ $layout = 0 ] || {
echo "Layout (\`--layout\`, bench/sharing-layout.py): the hot function of the hand fix and of the repair, its"
echo "address, its instructions (addresses of globals and branch targets left out), and each loop's 32-byte"
echo "blocks and 64-byte lines (hand → repair):"
echo
echo "| program: function at hand / repair | instructions | loops (offset, bytes: blocks hand → repair) |"
echo "| --- | --- | --- |"
cat layout.md
echo
echo "Instructions under callgrind (all threads; total, main, the hot function; the original is built with"
echo "-g, so what was inlined into main is counted there too; a few hundred of the totals move from run to"
echo "run in libc's thread start):"
echo
echo "| program (callgrind args) | original | hand fix | repair |"
echo "| --- | --- | --- | --- |"
cat layout-ir.md
echo
}
echo "Repair: the original, the hand fix (-DHAND_FIXED) and the automatic repair, paired rounds; ratios to"
echo "the original (median of the per-round ratios [bootstrap 95 %]; below 1: faster):"
echo
echo "| variant | rounds | wall (median) | CPU (median) | wall × original [95 % CI] | CPU × original [95 % CI] |"
echo "| --- | --- | --- | --- | --- | --- |"
cat repair.md
echo
[ $repair_only = 1 ] || {
overhead_table
echo
echo "... and CPU time in paired rounds (sharing=all against the original):"
echo
echo "| variant | rounds | wall (median) | CPU (median) | wall × original [95 % CI] | CPU × original [95 % CI] |"
echo "| --- | --- | --- | --- | --- | --- |"
cat cost.md
echo
echo "Geometric mean of the CPU ratios: $(awk -F'|' '{split($7, x, " "); print x[1]}' cost.md | geo)×"
}
echo "(target: detection ≤ 3×; repair ≥ 100 % of the hand fix's speedup and never slower than the original)."
fi
[ -s zstd.md ] && { echo; cat zstd.md; }
} > "$out"
fi
cat "$out"
if [ $record = 1 ]; then
    {
        echo
        echo "## $(date -u +%Y-%m-%d) — sharing: \`$cmdline\`"
        echo
        echo "Machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)."
        echo
        cat "$out"
    } >> "$here/RESULTS.md"
fi
exit $status
