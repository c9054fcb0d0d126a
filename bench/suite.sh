#!/bin/bash
# shellcheck disable=SC2086  # flag lists are word-split on purpose
# bench/suite.sh — layout that generalizes (issue 15): several programs, each
# trained on one workload and measured on the others, for -O2, GCC PGO, BOLT
# and the rebuild loop (docs/layout.md "Benchmarks"; results in bench/RESULTS.md
# with --record).
#
#   bench/suite.sh [--record] [--quick] [--programs "P..."] [--work DIR]
#                  [--rounds N] [--no-timing] [--no-taken] [--no-relink] [--keep-profiles]
#                  [--timing-only] [--layouts N] [--redraws "0 704 ..."]
#                  [--pads "0 1024+2048 ..."] [--pads PROGRAM="0 256 ..."]... [--show-layouts]
#                  [--jobs N] [--nice N] [--extra NAME=PLAN-ARGS[|PLUGIN-ARGS[|TRAIN-ARGS]]]...
#                  [--variants "O2 bolt ..."] [--baseline-pads "0 2048"]
#                  [--baseline-pads PROGRAM="0 ..."]... [--tests PROGRAM="WL ..."]...
#                  [--counter i1sim|cachegrind] [--hot-share spread|S...|none]
#                  [--redraw-hot stays|moves]
#
# Programs and workloads (bench/workloads.sh builds and runs them):
#   sqlite      sqlite3.c + bench/sqlite/workload.c: trained on mix train,
#               measured on mixes test, sort, insert
#   speedtest1  sqlite3.c + SQLite's own test/speedtest1.c (the sqlite3 Debian
#               source package): trained on --testset main, measured on cte,
#               fp, orm
#   lua         Lua 5.4 (Debian's lua5.4) running bench/lua/workload.lua:
#               trained on its part tables, measured on calls, strings, sort,
#               objects, coro
#   zstd        zstd 1.5.4 (Debian's libzstd): trained on compressing a
#               generated corpus at -3, measured on decompressing it
#   leveldb     LevelDB 1.23's db_bench (Debian's leveldb, C++): trained on
#               fillseq,fillrandom,readrandom, measured on overwrite
#               (fillrandom,overwrite,readrandom), reverse
#               (fillseq,readseq,readreverse) and seek
#               (fillrandom,seekrandom,deleterandom); one thread, but its
#               compactions run in a thread of their own
#   ninja-gen   Ninja 1.11.1 (Debian's ninja-build, C++; not in the default
#               --programs): trained on bench/projects/ninja/gen.py's train
#               manifest (a C project: -n, -t commands, -t targets),
#               measured on its test manifest (generated code: subninja,
#               pools, order-only inputs, escapes): gparse (-t rules) and
#               gdry (-n)
#   re2         RE2 2022-06-01 (Debian's re2, C++; not in the default
#               --programs) running bench/projects/re2/drive.cc over a log
#               corpus: trained on its PartialMatch counts and captures,
#               measured on another corpus's searches and rewrites
#               (extract: FindAndConsume, GlobalReplace, a leftmost-longest
#               alternation) and anchored matches (match: an RE2::Set, a
#               nine-field FullMatch)
# Variants, all from the same sources and flags (-O2):
#   O2       gcc -O2
#   pgo      gcc -O2 -fprofile-generate, trained, gcc -O2 -fprofile-use
#   bolt     gcc -O2 -fno-reorder-blocks-and-partition -Wl,--emit-relocs;
#            llvm-bolt -instrument, trained; llvm-bolt -reorder-blocks=ext-tsp
#            -reorder-functions=cdsort -split-functions (bolt-22)
#   rebuild  the training build (-fplugin-arg-perfinst-all=count
#            -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clean-copies=all,
#            docs/layout.md "One loop", linked by perfinst-ld) trained;
#            `pmopt plan --order=auto --rebuild -o fb`; -O2
#            -fplugin-arg-perfinst-feedback=fb -fplugin-arg-perfinst-sections
#   relink   `pmopt relink rebuild --feedback fb`: the same file; the rebuild
#            has its order already, so .text is kept as linked, and the
#            data order is applied only where the L1d model predicts it to
#            miss less (on SQLite, speedtest1 and zstd nowhere: the relink
#            is then the rebuild)
#   --extra NAME=PLAN-ARGS|PLUGIN-ARGS adds a loop NAME (rebuild) and
#            NAME+relink with `pmopt plan --order=auto --rebuild PLAN-ARGS`
#            and the plugin arguments PLUGIN-ARGS (to compare defaults);
#            without PLUGIN-ARGS (--extra NAME=PLAN-ARGS) only NAME+relink:
#            the rebuild relinked with NAME's plan (the plugin reads the same
#            rebuild kinds from both files); with TRAIN-ARGS
#            (--extra NAME=PLAN-ARGS|PLUGIN-ARGS|TRAIN-ARGS) NAME has a
#            training build of its own, train-NAME (the training build's
#            flags and TRAIN-ARGS, e.g. -fplugin-arg-perfinst-count-at=cfg),
#            trained on the same workload, and is planned and rebuilt from it
# Measured for every (program, test workload) pair and variant:
#   - I1 misses: cachegrind's I1 (--I1=32768,8,64), the mean over the
#     layouts (below: --layouts, 8;
#     or the shifts of --pads; --pads PROGRAM=LIST sets one program's):
#     a shift P moves the program's code against libc and the
#     PLT as bench/layout-shifts.sh does — a padding section linked first
#     (O2, pgo, rebuild), `pmopt relink --pad-front` (a relink that places
#     an order; one that keeps the rebuild's relinks the shifted rebuild),
#     bolt-in's objects linked after the padding and llvm-bolt
#     --pad-funcs-before on the first hot function (bolt: the code BOLT
#     leaves in place and its hot text both move); one count per
#     layout ranks layouts only beyond about ±15 % on SQLite
#     (docs/layout.md "Layout noise and determinism");
#     a shift P+N also moves the hot code N bytes against the cold code
#     (another internal layout: the shifts P alone move the program whole,
#     so they repeat one draw of where the hot code meets the cold code's
#     cache sets): an N-byte section .text.unlikely.zzzz_ipad linked last,
#     after every cold input and before the hot code (O2, pgo, rebuild),
#     and BOLT's hot text padded by P+N while the code it leaves in place
#     moves by P (a relink that places an order of its own takes no +N);
#     --layouts N (a power of two, 1 to 64; default 8): the N
#     shifts P+N of a lattice over the 4096 bytes of the I1's sets, both
#     ways: the k-th (k = 0..N-1) moves the program by P = k*4096/N and
#     the hot code by N = (5k mod N)*4096/N further (0, 256+1280,
#     512+2560, ... for 16): every program offset and every internal
#     offset once, and the first N/2 of every second layout are the
#     lattice of N/2 (docs/layout.md "The layouts");
#     a shift P+N@M also redraws the cold code: M bytes of padding at a
#     fixed place of the link order (REDRAW_AT below: Lua after lgc.o,
#     zstd after zstdmt_compress.o, LevelDB after table/format.o, SQLite
#     and speedtest1 after sqlite3.o), a section .text.unlikely.zz_mid
#     (O2, pgo, rebuild) or M bytes of .text in bolt-in's link (bolt: the
#     code llvm-bolt leaves in place after it moves), so that the cold code
#     after the place, and all that follows it, moves M bytes against the
#     cold code before it and no instruction changes; in an object with a
#     section per function (the rebuilds' sqlite3.o) the padding goes after
#     the first half of its .text.unlikely* input sections instead, by a
#     linker script inserted before ld's default .text (bench/suite-link.sh);
#     --redraws LIST (multiples of 64; default 0 704 1408 2112 2816 3520
#     128 832, the multiples of 704 modulo 4096): every layout at each
#     redraw, so 8 x 8 = 64 counts per pair and variant (a list of --pads
#     that names a redraw, P+N@M, is taken as it is); the default design
#     is the one whose geometric mean over the suite varies least for its
#     64 counts (docs/layout.md "The layouts");
#     --hot-share spread|S|"S1 S2 ..."|none (0 < S < 1): a redraw @M also
#     inserts M bytes inside the ordered hot code, after a share S of it —
#     in a rebuild after the ordered functions of the rank at S of its ranks
#     (a section .text.sorted.RANK~hotpad), in BOLT's hot text before its
#     function at S of them (--pad-funcs-before) — so that each build's
#     arrangement of its hot functions is drawn again too (-O2 and PGO
#     have no ordered hot code); each redraw at a share of its own
#     (spread, the default: the k-th of the K redraws other than 0 at
#     k/(K+1), 0.125 … 0.875 for the default redraws; a list: the k-th
#     share for the k-th redraw), or one share for all; none: off; a work
#     directory keeps the shares it was counted with (WORK/hot-share: S,
#     M=S per redraw, or none; one with counts and no such file was
#     counted before a share was the default: none), and others are
#     refused;
#     --redraw-hot stays|moves: in a rebuild the cold code is linked before
#     the ordered hot code, so the redraw's padding among the cold inputs
#     moves the hot code M bytes against libc too; stays (the default):
#     the padding after the cold inputs (+N) is (N - M) mod 4096 bytes at a
#     redraw, so that the hot code keeps the offset of its layout P+N in the
#     I1's sets, as BOLT's hot text does (each count compares the two at the
#     same offset against libc; only the cold code after the redraw's place
#     and the ordered code after the cut move); moves: +N as at the layout
#     (the suite before 2026-12-04); a work directory keeps the value it
#     was counted with (WORK/redraw-hot; one with counts and no such file:
#     moves), and the other is refused;
#     --show-layouts prints each program's shifts and exits;
#     counted by --counter: i1sim (the default), one run of bench/i1sim per
#     variant and workload simulating every layout linked (its counts are
#     cachegrind's on each layout's program to a few misses: docs/layout.md
#     "Counting many layouts in one run"), into WORK/PROGRAM/i1/; or
#     cachegrind (--D1=32768,8,64 --LL=8388608,16,64 too), one run per
#     layout, into WORK/PROGRAM/cg/;
#   - instructions (I refs of the unshifted program);
#   - taken branches of the program's own code (callgrind --collect-jumps
#     --dump-instr, bench/taken-branches.py);
#   - user CPU and wall time: --rounds (5) paired rounds at the timing scale
#     (where -O2 runs at least about 0.4 s; S_TIME below), every variant
#     once per round in rotated order (bench/paired.py: median of the
#     per-round ratios, bootstrap 95 % interval).  The whole script
#     runs under `nice -n 10` (--nice); times taken on a loaded machine are
#     labelled so.
# The valgrind runs run each program as ./prog from a directory of its own
# whose path has the same length for every variant (the path is in the
# initial stack, and moves what libc's startup and string functions do).
# Every run's checksum must be -O2's.  The report (one table per program —
# the mean over the shifts, and the median against BOLT's median: one or two
# bad shifts make a mean — each ratio of means × BOLT with a bootstrap 95 %
# interval, the layouts and the redraws resampled each on its own, the
# geometric mean over its pairs and the
# worst pair, then all pairs together, the targets, and each --extra
# variant × the default rebuild: bench/suite-report.py)
# is WORK/report.md; --record appends it to bench/RESULTS.md.
# --variants LIST: only these variants are counted (shifted, cachegrind,
# callgrind, timed); the others are not built (but -O2, BOLT and the
# default rebuild: BOLT places the shifts, and a plan alone starts from the
# rebuild), and the report lists them as "not measured" (never as 0).  LIST must hold O2 (the checksums
# and every × O2 ratio are -O2's), e.g. --variants "O2 bolt rebuild" for
# the issue's targets without PGO and the relink.
# --baseline-pads LIST (--baseline-pads PROGRAM=LIST for one program): the
# shifts at which O2 and pgo are counted, which must include 0 (their
# instructions are counted unshifted); default: the program's --pads.  -O2
# and PGO are not compared pair by pair with BOLT in the issue's targets, so
# fewer shifts for them save runs: the 64 layouts and redraws with
# --baseline-pads 0 (not crossed with the redraws) are 193 cachegrind runs
# per workload instead of 256.
# The report then says over which shifts each variant's mean is (its × O2
# ratios compare means over different shifts).
# --tests PROGRAM=LIST: only these of PROGRAM's test workloads are
# counted (the report lists that program's pairs among them alone); the
# list may name the training workload too, counted as a pair as a test
# workload is: how each layout does on the workload it was trained on,
# what a choice made from training alone would see.
# --quick: the first test workload of each program, four of the sixteen
# layouts (0 1280+2304 2560+512 3840+2816: the program, the hot code against
# the cold code and the hot code against libc each at four offsets), each at
# another of four of the default redraws (0, @1408, @2816, @128, their
# hot code cut at 0, 1/4, 1/2, 3/4 of it; with --redraws LIST
# each at every one of LIST), 3 rounds: a smoke test, whose means do not
# rank the variants.  --no-timing: the deterministic counts only; --no-taken: no
# callgrind runs (taken branches).  --timing-only: no
# build and no valgrind: the timing rounds of the programs an earlier run built
# in WORK (default bench/.work/suite), then the report with that run's counts
# — for a quiet machine:
#     bench/suite.sh --timing-only --nice 0 --rounds 15 --record
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
B=${PERFINST_BUILD:-$top/build}
cmdline="bench/suite.sh${*:+ $*}"
W=$here/.work/suite counter=i1sim record=0 quick=0 timing=1 taken=1 timing_only=0 rounds= pads= jobs=2 nicev=10 relinks=1 keep_profiles=0 show_layouts=0 layouts=
redraws='' hot_share=spread REDRAW_HOT=stays
programs="sqlite speedtest1 lua zstd leveldb"
extra=() counted='' bpads=''
declare -A PPADS    # --pads PROGRAM=LIST: that program's shifts
declare -A PBPADS   # --baseline-pads PROGRAM=LIST: that program's O2 and pgo shifts
declare -A PTESTS   # --tests PROGRAM=LIST: that program's test workloads counted
while [ $# -gt 0 ]; do
    case $1 in
    --record) record=1; shift ;;
    --quick) quick=1; shift ;;
    --no-timing) timing=0; shift ;;
    --no-taken) taken=0; shift ;;
    --no-relink) relinks=0; shift ;;
    --keep-profiles) keep_profiles=1; shift ;;
    --show-layouts) show_layouts=1; shift ;;
    --timing-only) timing_only=1; shift ;;
    --programs|--work|--rounds|--pads|--jobs|--nice|--extra|--variants|--baseline-pads|--layouts|--redraws|--tests|--counter|--hot-share|--redraw-hot)
        [ $# -ge 2 ] || { echo "suite: $1 needs a value" >&2; exit 2; }
        case $1 in
        --programs) programs=$2 ;; --work) W=$2 ;; --rounds) rounds=$2 ;;
        --pads) case $2 in *=*) PPADS[${2%%=*}]=${2#*=} ;; *) pads=$2 ;; esac ;;
        --baseline-pads) case $2 in *=*) PBPADS[${2%%=*}]=${2#*=} ;; *) bpads=$2 ;; esac ;;
        --jobs) jobs=$2 ;; --nice) nicev=$2 ;; --extra) extra+=("$2") ;;
        --variants) counted=$2 ;; --layouts) layouts=$2 ;; --redraws) redraws=$2 ;;
        --hot-share) hot_share=$(echo "$2" | tr ',' ' ' | xargs)
            [[ $hot_share =~ ^(0\.[0-9]*[1-9]( 0\.[0-9]*[1-9])*|spread|none)$ ]] ||
                { echo "suite: --hot-share $2: expected a share between 0 and 1 (0.25), a list of them, one a redraw (\"0.25 0.5 0.75\"), spread or none" >&2; exit 2; }
            hot_share=${hot_share#none} ;;
        --redraw-hot) case $2 in stays|moves) REDRAW_HOT=$2 ;; *) echo "suite: --redraw-hot $2: stays or moves" >&2; exit 2 ;; esac ;;
        --counter) case $2 in i1sim|cachegrind) counter=$2 ;; *) echo "suite: --counter $2: i1sim or cachegrind" >&2; exit 2 ;; esac ;;
        --tests) case $2 in *=*) PTESTS[${2%%=*}]=${2#*=} ;; *) echo "suite: --tests $2: expected PROGRAM=WL..." >&2; exit 2 ;; esac ;;
        esac
        shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "suite: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$rounds" ] || rounds=$([ $quick = 1 ] && echo 3 || echo 5)
# lattice N: the N layouts P+N of --layouts N (a shift 0 for the first)
lattice() {
    local n=$1 s k
    s=$((4096 / n))
    for ((k = 0; k < n; k++)); do
        if [ $k = 0 ]; then echo 0; else echo "$((s * k))+$((s * (5 * k % n)))"; fi
    done | paste -sd' '
}
case ${layouts:-8} in
1|2|4|8|16|32|64) ;;
*) echo "suite: --layouts $layouts: expected a power of two from 1 to 64" >&2; exit 2 ;;
esac
# --quick: every fifth of the sixteen (k = 0, 5, 10, 15), whose program,
# internal and hot-code offsets all differ (the lattice of 4 has P = N),
# each at another of the four redraws
if [ -z "$pads" ] && [ -z "$layouts" ] && [ $quick = 1 ]; then
    if [ -z "$redraws" ]; then pads="0 1280+2304@1408 2560+512@2816 3840+2816@128"
    else pads=$(lattice 16 | cut -d' ' -f1,6,11,16); fi
fi
[ -n "$pads" ] || pads=$(lattice "${layouts:-8}")
# the redraws (--redraws, default 0 704 1408 2112 2816 3520 128 832): every
# layout P or P+N of the list at each, as P+N@M (M = 0: the layout as it was)
[ -n "$redraws" ] || redraws="0 704 1408 2112 2816 3520 128 832"
for x in $redraws; do
    [[ $x =~ ^[0-9]+$ ]] && [ $((x % 64)) = 0 ] ||
        { echo "suite: --redraws: $x is not a multiple of 64 bytes" >&2; exit 2; }
done
# with_redraws LIST: each shift of LIST at every redraw, in LIST's order (a
# LIST that names a redraw, P+N@M, anywhere is taken as it is)
with_redraws() {
    local t m
    case $1 in *@*) echo "$1"; return ;; esac
    for t in $1; do
        for m in $redraws; do
            if [ "$m" = 0 ]; then echo "$t"; else echo "$t@$m"; fi
        done
    done | paste -sd' '
}
pads=$(with_redraws "$pads")
for x in "${!PPADS[@]}"; do PPADS[$x]=$(with_redraws "${PPADS[$x]}"); done
# --hot-share: the share of the ordered hot code after which each redraw
# @M pads it too (share_at M): one share for every redraw, or a list, the
# k-th share for the k-th redraw of --redraws other than 0; spread: the
# k-th of K at k/(K+1) (1/8 … 7/8 for the default redraws)
# this_share: the record of them (WORK/hot-share): none, one share, or each
# redraw's M=S ...
declare -A SHARE_OF
this_share=none
if [ "$hot_share" = spread ]; then
    hot_share=$(echo $redraws | awk '{ n = 0; for (i = 1; i <= NF; i++) n += $i != 0
        for (k = 1; k <= n; k++) printf "%s%g", (k > 1 ? " " : ""), k / (n + 1) }')
fi
if [ -n "$hot_share" ]; then
    read -r -a hs <<< "$hot_share"
    k=0
    for m in $redraws; do
        [ "$m" != 0 ] || continue
        if [ ${#hs[@]} = 1 ]; then SHARE_OF[$m]=${hs[0]}
        elif [ $k -lt ${#hs[@]} ]; then SHARE_OF[$m]=${hs[$k]}; fi
        k=$((k + 1))
    done
    [ ${#hs[@]} = 1 ] || [ ${#hs[@]} = $k ] ||
        { echo "suite: --hot-share \"$hot_share\": ${#hs[@]} shares for the $k redraws other than 0 of --redraws \"$redraws\"" >&2; exit 2; }
    # a redraw a list of --pads names (P+N@M): one share serves it, a list
    # must have given it one
    for x in $pads ${PPADS[*]}; do
        m=${x#*@}
        [ "$m" != "$x" ] && [ -z "${SHARE_OF[$m]:-}" ] || continue
        [ ${#hs[@]} = 1 ] ||
            { echo "suite: --hot-share \"$hot_share\": no share for the redraw @$m of $x (not one of --redraws \"$redraws\")" >&2; exit 2; }
        SHARE_OF[$m]=${hs[0]}
    done
    if [ ${#hs[@]} = 1 ]; then this_share=${hs[0]}
    else this_share=$(for m in $redraws; do [ "$m" = 0 ] || echo "$m=${SHARE_OF[$m]}"; done | paste -sd' '); fi
fi
share_at() { [ "$1" = 0 ] || echo "${SHARE_OF[$1]:-}"; }
[ "$nicev" = 0 ] || renice -n "$nicev" -p $$ > /dev/null
. "$here/workloads.sh"
. "$here/lib.sh"
say() { echo "suite: $(date -u +%T) $*" >&2; }
die() { say "error: $*"; exit 1; }
mkdir -p "$W"
W=$(cd "$W" && pwd)

# each shift P or P+N (bytes), and the baseline's holding 0
for x in $pads ${PPADS[*]} $bpads ${PBPADS[*]}; do
    [[ $x =~ ^[0-9]+(\+[0-9]+)?(@[0-9]+)?$ ]] || die "--pads/--baseline-pads: $x is not a shift P, P+N or P+N@M (bytes)"
done

# ---- the programs' workloads and scales ------------------------------------------
declare -A TRAIN TESTS S_TRAIN S_CG S_TIME
TRAIN[sqlite]=train      TESTS[sqlite]="test sort insert"
S_TRAIN[sqlite]=0.3      S_CG[sqlite]=0.1      S_TIME[sqlite]=1
TRAIN[speedtest1]=main   TESTS[speedtest1]="cte fp orm"
S_TRAIN[speedtest1]=10   S_CG[speedtest1]=10   S_TIME[speedtest1]=60
TRAIN[lua]=tables        TESTS[lua]="calls strings sort objects coro"
S_TRAIN[lua]=1           S_CG[lua]=1           S_TIME[lua]=40
TRAIN[zstd]=compress     TESTS[zstd]="decompress"
S_TRAIN[zstd]=1          S_CG[zstd]=1          S_TIME[zstd]=6
TRAIN[leveldb]=train     TESTS[leveldb]="overwrite reverse seek"
S_TRAIN[leveldb]=50000   S_CG[leveldb]=5000    S_TIME[leveldb]=100000
TRAIN[ninja-gen]=gtrain   TESTS[ninja-gen]="gparse gdry"
S_TRAIN[ninja-gen]=6000  S_CG[ninja-gen]=1500  S_TIME[ninja-gen]=6000
TRAIN[re2]=train         TESTS[re2]="extract match"
S_TRAIN[re2]=50000       S_CG[re2]=20000       S_TIME[re2]=150000
# a timed run takes at least about 0.4 s of -O2's user CPU (RESULTS.md
# 2026-12-04 06:28: Lua's pairs had taken 24-65 ms a run, too short for a
# ratio of 2 %); S_TIME[P:WL] where one workload's scale is not its program's
S_TIME[speedtest1:cte]=90 S_TIME[speedtest1:orm]=120
S_TIME[lua:sort]=10      S_TIME[lua:coro]=160
S_TIME[leveldb:reverse]=400000 S_TIME[re2:match]=200000
time_scale() { echo "${S_TIME[$1:$2]:-${S_TIME[$1]}}"; }
# the scales for the report: DEFAULT[,WL=SCALE...]
time_scales() {
    local wl s=${S_TIME[$1]}
    for wl in ${TESTS[$1]}; do [ -z "${S_TIME[$1:$wl]:-}" ] || s+=",$wl=${S_TIME[$1:$wl]}"; done
    echo "$s"
}
# the redraws' place: the padding after the object REDRAW_AT (a fixed place
# in the link order, the same for every variant); in a program of one big
# object, REDRAW_SPLIT, among that object's cold sections (redraw_script)
declare -A REDRAW_AT=([sqlite]=sqlite3 [speedtest1]=sqlite3 [lua]=lgc [zstd]=zstdmt_compress [leveldb]=format
                      [ninja-gen]=graphviz [re2]=filtered_re2)
declare -A REDRAW_SPLIT=([sqlite]=sqlite3 [speedtest1]=sqlite3)
# -fprofile-use: a threaded training run races on gcov's counters, and GCC
# refuses a profile that is not flow-consistent without this
declare -A PGO_USE=([leveldb]=-fprofile-correction)
for p in $programs; do
    [ -n "${TRAIN[$p]:-}" ] || die "unknown program $p (one of ${!TRAIN[*]})"
    [ $quick = 0 ] || TESTS[$p]=${TESTS[$p]%% *}
    if [ -n "${PTESTS[$p]:-}" ]; then
        for x in ${PTESTS[$p]}; do
            [[ " ${TESTS[$p]} ${TRAIN[$p]} " == *" $x "* ]] ||
                die "--tests $p=...: $x is not one of $p's test workloads (${TESTS[$p]}) nor its training workload (${TRAIN[$p]})"
        done
        TESTS[$p]=${PTESTS[$p]}
    fi
done
for p in "${!PPADS[@]}"; do
    [ -n "${TRAIN[$p]:-}" ] || die "--pads $p=...: unknown program $p (one of ${!TRAIN[*]})"
done
for p in "${!PBPADS[@]}"; do
    [ -n "${TRAIN[$p]:-}" ] || die "--baseline-pads $p=...: unknown program $p (one of ${!TRAIN[*]})"
done
# pads_of P: the shifts of program P
pads_of() { echo "${PPADS[$1]:-$pads}"; }
# bpads_of P: the shifts at which program P's O2 and pgo are counted
bpads_of() { echo "${PBPADS[$1]:-${bpads:-$(pads_of "$1")}}"; }
for p in $programs; do
    [[ " $(bpads_of "$p") " == *" 0 "* ]] ||
        die "--baseline-pads: $p's O2 and pgo shifts ($(bpads_of "$p")) must include 0 (instructions are counted unshifted)"
done
if [ $show_layouts = 1 ]; then
    for p in $programs; do
        echo "$p: $(pads_of "$p")"
        [ "$(bpads_of "$p")" = "$(pads_of "$p")" ] || echo "$p O2 pgo: $(bpads_of "$p")"
    done
    exit 0
fi
# record_of FILE BEFORE NOW: what WORK/FILE records the work directory's
# shifted programs and counts were made with, written first when missing:
# BEFORE for a directory with counts (counted before the option), else NOW
record_of() {
    if [ ! -f "$W/$1" ]; then
        if compgen -G "$W/*/[ic][1g]" > /dev/null; then echo "$2"; else echo "$3"; fi > "$W/$1"
    fi
    cat "$W/$1"
}
# the shares of --hot-share: "none" without them, one share for every
# redraw, or each redraw's, M=S ...; a directory with counts and no record
# of them was counted before a share was the default, without one
counted_share=$(record_of hot-share none "$this_share")
if [ "$counted_share" != "$this_share" ]; then
    case $counted_share in
    *=*) go_on="--hot-share \"$(echo "$counted_share" | sed 's/[0-9]*=//g')\" --redraws \"0 $(echo "$counted_share" | sed 's/=[0-9.]*//g')\"" ;;
    *) go_on="--hot-share $counted_share" ;;
    esac
    die "$W was counted with --hot-share $counted_share (none: without it; M=S: the share S at the redraw @M); this run asks $this_share: use another --work, or $go_on to go on with its counts"
fi
# --redraw-hot (moves before the option)
counted_hot=$(record_of redraw-hot moves "$REDRAW_HOT")
[ "$counted_hot" = "$REDRAW_HOT" ] ||
    die "$W was counted with --redraw-hot $counted_hot; this run asks $REDRAW_HOT: use another --work, or --redraw-hot $counted_hot to go on with its counts"

# the variants: name -> directory; the loop's extras after the standard ones
V=(O2 pgo bolt rebuild relink)
declare -A DIR=([O2]=o2 [pgo]=pgo [bolt]=bolt [rebuild]=rebuild [relink]=relink)
declare -A XPLAN XPLUG XTRAIN
for x in "${extra[@]}"; do
    n=${x%%=*} a=${x#*=}
    [[ $n =~ ^[a-z0-9-]+$ ]] && [ "$n" != "$x" ] || die "--extra $x: expected NAME=PLAN-ARGS[|PLUGIN-ARGS[|TRAIN-ARGS]]"
    XPLAN[$n]=${a%%|*}
    a=$([[ $a == *"|"* ]] && echo "${a#*|}" || true)
    XPLUG[$n]=${a%%|*}
    XTRAIN[$n]=$([[ $a == *"|"* ]] && echo "${a#*|}" || true)
    if [ -n "${XPLUG[$n]}" ] || [ -n "${XTRAIN[$n]}" ]; then
        V+=("$n" "$n+relink")
        DIR[$n]=x-$n
    else
        [ $relinks = 1 ] || die "--extra $x: a plan alone is measured through its relink (no --no-relink)"
        V+=("$n+relink")
        DIR[$n]=rebuild    # the same rebuild: only the order differs
    fi
    DIR[$n+relink]=x-$n-relink
done
if [ $relinks = 0 ]; then
    VV=()
    for v in "${V[@]}"; do [[ $v == relink || $v == *+relink ]] || VV+=("$v"); done
    V=("${VV[@]}")
fi
# C: the variants counted (--variants), in V's order
[ -n "$counted" ] || counted="${V[*]}"
for v in $counted; do
    [[ " ${V[*]} " == *" $v "* ]] || die "--variants: unknown variant $v (one of ${V[*]})"
done
[[ " $counted " == *" O2 "* ]] || die "--variants: O2 must be counted (the checksums and every × O2 ratio are its)"
C=()
for v in "${V[@]}"; do [[ " $counted " != *" $v "* ]] || C+=("$v"); done
# is_counted VARIANT
is_counted() { [[ " ${C[*]} " == *" $1 "* ]]; }
# is_built LOOP: LOOP (an --extra's NAME) is built: it or its relink is counted
is_built() { is_counted "$1" || is_counted "$1+relink"; }
# vpads_of P VARIANT: the shifts at which VARIANT of program P is counted
vpads_of() { case $2 in O2|pgo) bpads_of "$1" ;; *) pads_of "$1" ;; esac; }
# the plugin, with source keys that do not depend on the directory the
# suite is started from nor on where the checkout lies (docs/layout.md,
# "The source key"): a profile kept by --keep-profiles applies to a
# rebuild made from elsewhere
PI=(-fplugin="$B/perfinst.so" -fplugin-arg-perfinst-prefix-map="$WL_CACHE=cache" -fplugin-arg-perfinst-prefix-map="$here=bench")
export PERFINST_LIB_DIR=$B
BOLT=
bolt_setup "$W/apt.log"
[ -x "$BOLT" ] || die "no llvm-bolt"
GEOM="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"

# ---- helpers ---------------------------------------------------------------------
# logged CMD...: run CMD, its line appended to $P_DIR/commands.txt
logged() { echo "$*" >> "$PD/commands.txt"; "$@"; }
# objs P D: the objects wl_build made in D, in wl_sources order
objs() { local f; for f in $(wl_sources "$1"); do echo "$2/obj/$(basename "${f%.*}").o"; done; }
. "$here/suite-link.sh"
# checked P WL D SCALE [WRAPPER...]: wl_run, the checksum compared with O2's
# (the first one recorded for the pair)
checked() {
    local p=$1 wl=$2 d=$3 s=$4 out ref; shift 4
    out=$(wl_run "$p" "$wl" "$d" "$s" "$@") || { say "$d: $wl failed"; return 1; }
    ref=$W/$p/sum-$wl-$s
    [ -s "$ref" ] || echo "$out" > "$ref"
    [ "$out" = "$(cat "$ref")" ] || { say "$d on $wl at $s printed '$out', not '$(cat "$ref")'"; return 1; }
}

# ---- building one program's variants ---------------------------------------------
build_program() {
    local p=$1 tr=${TRAIN[$1]} ts=${S_TRAIN[$1]}
    PD=$W/$p
    mkdir -p "$PD"
    : > "$PD/commands.txt"
    wl_fetch "$p" || die "cannot fetch $p"
    say "$p: building O2, pgo, bolt and the training build"
    { logged wl_build "$p" "$PD/o2" gcc -O2
      logged wl_build "$p" "$PD/bolt-in" gcc -O2 -fno-reorder-blocks-and-partition -Wl,--emit-relocs
    } > "$PD/build1.log" 2>&1 &
    local j1=$!
    { logged wl_build "$p" "$PD/train" pild -O2 "${PI[@]}" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections \
          -fplugin-arg-perfinst-clean-copies=all
      if is_counted pgo && [ ! -f "$PD/pgo/used" ]; then
          rm -f "$PD"/pgo/obj/*.gcda
          logged wl_build "$p" "$PD/pgo" gcc -O2 -fprofile-generate
          logged wl_run "$p" "$tr" "$PD/pgo" "$ts" > /dev/null
      fi
    } > "$PD/build2.log" 2>&1 &
    local j2=$!
    wait $j1 || { tail "$PD/build1.log" >&2; die "$p: O2/bolt build"; }
    wait $j2 || { tail "$PD/build2.log" >&2; die "$p: training/pgo build"; }
    say "$p: training runs on $tr at $ts"
    mkdir -p "$PD/bolt-inst" "$PD/bolt"
    if [ ! -f "$PD/bolt/prog" ] || [ "$PD/bolt/prog" -ot "$PD/bolt-in/prog" ]; then
        # a profile per process (a workload of several runs: ninja-gen's),
        # merged as BOLT's users merge them, as the loop plans from them all
        logged "$BOLT" "$PD/bolt-in/prog" -instrument -instrumentation-file="$PD/bolt/prof.fdata" \
            -instrumentation-file-append-pid \
            -o "$PD/bolt-inst/prog" > "$PD/bolt/inst.log" 2>&1 || { tail "$PD/bolt/inst.log" >&2; die "$p: bolt -instrument"; }
        rm -f "$PD/bolt"/prof.fdata*
        logged wl_run "$p" "$tr" "$PD/bolt-inst" "$ts" > /dev/null || die "$p: bolt training run"
        local fd=("$PD/bolt"/prof.fdata.*)
        [ -e "${fd[0]}" ] || die "$p: the bolt training run wrote no profile"
        logged "$(dirname "$BOLT")/merge-fdata" "${fd[@]}" > "$PD/bolt/prof.fdata" 2> "$PD/bolt/merge.log" ||
            { tail "$PD/bolt/merge.log" >&2; die "$p: merge-fdata"; }
        bolt_opt "$PD/bolt-in/prog" "$PD/bolt/prog" || die "$p: llvm-bolt"
    fi
    if [ $keep_profiles = 1 ] && [ "$PD/train/t.pit" -nt "$PD/train/prog" ]; then
        say "$p: the profile of an earlier training run kept (--keep-profiles)"
    else
        rm -f "$PD/train"/t.pit "$PD/train"/t.*.pit
        logged wl_run "$p" "$tr" "$PD/train" "$ts" env PERFINST_OUT="$PD/train/t.pit" > /dev/null ||
            die "$p: training run"
    fi
    local n
    for n in "${!XTRAIN[@]}"; do
        [ -n "${XTRAIN[$n]}" ] && is_built "$n" || continue
        say "$p: $n's training build and run"
        logged wl_build "$p" "$PD/train-$n" pild -O2 "${PI[@]}" -fplugin-arg-perfinst-all=count \
            -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clean-copies=all ${XTRAIN[$n]} > "$PD/train-$n.log" 2>&1 ||
            { tail "$PD/train-$n.log" >&2; die "$p: $n's training build"; }
        [ $keep_profiles = 1 ] && [ "$PD/train-$n/t.pit" -nt "$PD/train-$n/prog" ] && continue
        rm -f "$PD/train-$n"/t.pit "$PD/train-$n"/t.*.pit
        logged wl_run "$p" "$tr" "$PD/train-$n" "$ts" env PERFINST_OUT="$PD/train-$n/t.pit" > /dev/null ||
            die "$p: $n's training run"
    done
    loop "$p" rebuild relink "" ""
    for n in "${!XPLAN[@]}"; do is_built "$n" && loop "$p" "$n" "$n+relink" "${XPLAN[$n]}" "${XPLUG[$n]}"; done
    if is_counted pgo; then
        { logged wl_build "$p" "$PD/pgo" gcc -O2 -fprofile-use -Wno-missing-profile ${PGO_USE[$p]:-} && touch "$PD/pgo/used"; } \
            > "$PD/build3.log" 2>&1 || { tail "$PD/build3.log" >&2; die "$p: pgo use build"; }
    fi
    say "$p: shifted layouts ($(pads_of "$p"))"
    shifts "$p"
}
# bolt_opt IN OUT [BOLT-ARGS...]: llvm-bolt on IN (bolt-in/prog or a shifted
# link of its objects) with the training profile
bolt_opt() {
    local in=$1 out=$2; shift 2
    logged "$BOLT" "$in" -data="$PD/bolt/prof.fdata" "${BOLT_OPTS[@]}" "$@" -o "$out" > "$out.log" 2>&1 ||
        { tail "$out.log" >&2; return 1; }
}
# bolt_shifted OUT FIRST PAD [INNER [MID]]: BOLT's layout shifted by PAD bytes as a whole,
# as the other variants are: bolt-in's objects linked after the PAD-byte
# padding object (what BOLT leaves in place — every function the training
# run did not reach — moves by PAD against libc and the PLT), then BOLT's
# own hot text moved by PAD too, PAD bytes of padding before FIRST, its
# first function (BOLT names a local function NAME/N: the names are tried
# until FIRST moved by PAD within a page); with INNER, the hot text moved
# INNER bytes further (PAD + INNER before FIRST), the code left in place by
# PAD alone; with MID, a redraw: MID bytes of .text in bolt-in's link after
# the object REDRAW_AT[P] (the code left in place after it moves MID bytes),
# and with a share for it (--hot-share, share_at MID) MID bytes more before
# BOLT's hot function at that share of its hot text (bolt_hot_at), which
# moves with all the hot text after it MID bytes further.  llvm-bolt lays
# the functions after its padding out again (their alignment): where the
# function at the share does not move by exactly MID, the next one of the
# hot text is tried (up to 8), so that every function keeps its size and
# the shift is MID.
# The profile names functions and offsets in them, which the padding does
# not change.
bolt_shifted() {
    local out=$1 first=$2 pad=$3 inner=${4:-0} mid=${5:-0} hot a n in tm='' h hh ha hn share hs=''
    in=$(dirname "$out")/in
    [ "$mid" = 0 ] || tm=$(tmid_obj "$mid")
    logged gcc -O2 -fno-reorder-blocks-and-partition -Wl,--emit-relocs -o "$in" "$(pad_obj "$pad")" \
        $(objs_at "$p" "$PD/bolt-in" "$mid" "$tm") $(wl_libs "$p") || return 1
    hot=$(sym_addr "$PD/bolt/prog" "$first")
    share=$(share_at "$mid")
    if [ -n "$share" ]; then
        hs=$(bolt_hot_at "$PD/bolt/prog" "$share")
        [ -n "$hs" ] || { say "no hot function at share $share of BOLT's hot text"; return 1; }
    fi
    for h in ${hs:-""}; do
        hh=${h:+$(sym_addr "$PD/bolt/prog" "$h")}
        for n in "$first" "$first/1" "$first/2" "$first/3"; do
            for hn in ${h:+"$h" "$h/1" "$h/2" "$h/3"} ""; do
                [ -z "$h" ] || [ -n "$hn" ] || continue
                bolt_opt "$in" "$out" --pad-funcs-before="$n:$((pad + inner))${hn:+,$hn:$mid}" || return 1
                a=$(sym_addr "$out" "$first")
                # moved by PAD + INNER within a page (the cache sets' index): BOLT's new
                # text starts at an aligned address after the input's, which PAD may move
                [ "$(((16#$a - 16#$hot - pad - inner) % 4096))" = 0 ] || continue 2
                [ -n "$h" ] || return 0
                ha=$(sym_addr "$out" "$h")
                [ "$(((16#$ha - 16#$hh - pad - inner - mid) % 4096))" != 0 ] || return 0
            done
        done
    done
    say "llvm-bolt did not pad before $first${hs:+ and one of $(echo $hs)} as asked (it lies at 0x$a, unshifted at 0x$hot)"
    return 1
}
# bolt_hot_at PROG S: the function at the share S of BOLT's hot text in PROG
# (its functions between __hot_start and __hot_end by address, each name
# once; at_share) and the 7 after it, one a line
bolt_hot_at() {
    nm -n "$1" | awk '{ l[NR] = $0 } $3 == "__hot_start" { hs = $1 } $3 == "__hot_end" { he = $1 }
        END { for (i = 1; i <= NR; i++) { split(l[i], f)
                  if ((f[1] "") >= (hs "") && (f[1] "") < (he "") && f[2] ~ /^[TtWw]$/ && f[3] !~ /^__hot_/ && !seen[f[3]]++) print f[3] } }' |
        at_share "$2" 8
}
# loop P REBUILD RELINK PLAN-ARGS PLUGIN-ARGS: the plan (RELINK's directory
# .fb), the rebuild (unless it is the default one, already built) and its relink
loop() {
    local p=$1 rb=${DIR[$2]} rl=${DIR[$3]} pa=$4 pl=$5 tr=train
    [ -z "${XTRAIN[$2]:-}" ] || tr=train-$2
    say "$p: plan, $2, $3"
    # the plan replaces RELINK.fb only when it changed: the same plan keeps
    # the rebuild and the relink an earlier run made (and their counts)
    # every process of the training workload: PERFINST_OUT=t.pit names the
    # first one's trace, the others' t.PID.pit
    local f traces=()
    for f in "$PD/$tr"/t.pit "$PD/$tr"/t.*.pit; do [ -f "$f" ] && traces+=("$f"); done
    logged "$B/pmopt" plan --order=auto --rebuild $pa -o "$PD/$rl.fb.new" "$PD/$tr/prog" "${traces[@]}" \
        > "$PD/$rl.plan" 2>&1 || { tail "$PD/$rl.plan" >&2; die "$p: pmopt plan"; }
    if cmp -s "$PD/$rl.fb.new" "$PD/$rl.fb"; then rm -f "$PD/$rl.fb.new"; else mv "$PD/$rl.fb.new" "$PD/$rl.fb"; fi
    if [ "$2" = rebuild ] || [ "$rb" != rebuild ]; then
        local n0
        n0=$(stat -c %s "$PD/$rb/cc.err" 2> /dev/null || echo 0)
        logged wl_build "$p" "$PD/$rb" pild -O2 "${PI[@]}" -fplugin-arg-perfinst-feedback="$PD/$rl.fb" \
            -fplugin-arg-perfinst-sections $pl > "$PD/$rb.log" 2>&1 || { tail "$PD/$rb.log" >&2; die "$p: $2 build"; }
        if plan_missed "$PD/$rb/cc.err" "$n0" > "$PD/$rb.missed"; then
            head -1 "$PD/$rb.missed" >&2
            rm -f "$PD/$rb"/obj/*.stamp    # compiled again next time
            die "$p: $2 build: $(wc -l < "$PD/$rb.missed") units did not apply the plan (in $PD/$rb/cc.err; a training profile kept from another directory?)"
        fi
    fi
    [ $relinks = 1 ] || return 0
    mkdir -p "$PD/$rl"
    [ "$PD/$rl/prog" -nt "$PD/$rb/prog" ] && [ "$PD/$rl/prog" -nt "$PD/$rl.fb" ] && [ "$PD/$rl/prog" -nt "$B/pmopt" ] &&
        return 0
    logged "$B/pmopt" relink "$PD/$rb/prog" --feedback "$PD/$rl.fb" -o "$PD/$rl/prog" > "$PD/$rl/relink.out" 2>&1 ||
        { tail "$PD/$rl/relink.out" >&2; die "$p: pmopt relink ($3)"; }
}
# rebuild_of RELINK: the rebuild a relink variant starts from (relink: rebuild; NAME+relink: NAME)
rebuild_of() {
    if [ "$1" = relink ]; then echo rebuild; else echo "${1%+relink}"; fi
}
# shifts P: VARIANT/sPAD/prog for every variant and pad but 0 (VARIANT/prog)
shifts() {
    local p=$1 v pad d first tok inner mid
    first=$(bolt_first "$PD/bolt/prog")
    [ -n "$first" ] || die "$p: no function at BOLT's __hot_start"
    local need r rb
    for v in "${V[@]}"; do
        # a counted variant, or the rebuild a counted relink may start from
        need=0
        is_counted "$v" && need=1
        for r in "${C[@]}"; do
            [[ $r == relink || $r == *+relink ]] || continue
            rb=$(rebuild_of "$r")
            [ "${DIR[$rb]}" != "${DIR[$v]}" ] || need=1
        done
        [ $need = 1 ] || continue
        # a relink that loads its rebuild's image (kept as linked, no data
        # order) is the rebuild at every shift too: its shifted programs are
        # the rebuild's (a rebuild linked with the redraw's linker script
        # could not be relinked)
        local same=0
        if [[ $v == relink || $v == *+relink ]]; then
            rb=$(rebuild_of "$v")
            [ "$(image_of "$PD/${DIR[$v]}/prog")" != "$(image_of "$PD/${DIR[$rb]}/prog")" ] || same=1
        fi
        for tok in $(vpads_of "$p" "$v"); do
            [ "$tok" != 0 ] || continue
            read -r pad inner mid <<< "$(shift_parts "$tok")"
            local ipad=
            [ "$inner" = 0 ] || ipad=$(ipad_obj "$inner")
            d=$PD/${DIR[$v]}/s$tok
            mkdir -p "$d"
            [ -x "$d/prog" ] && [ "$d/prog" -nt "$PD/${DIR[$v]}/prog" ] && continue
            rm -f "$d/prog"
            case $v in
            bolt) bolt_shifted "$d/prog" "$first" "$pad" "$inner" "$mid" || die "$p: bolt shifted by $tok" ;;
            relink|*+relink)
                local from shift
                if [ $same = 1 ]; then
                    cp "$PD/${DIR[$rb]}/s$tok/prog" "$d/prog" || die "$p: $v shifted by $tok"
                    echo "the rebuild's program shifted by $tok: the relink loads the rebuild's image" > "$d/relink.out"
                    continue
                fi
                # a relink that keeps the rebuild's layout (its order, or
                # a plan without one: .text as the default script makes
                # it) starts from the rebuild shifted by PAD (the same
                # addresses); one that places an order shifts what it
                # places (--pad-front)
                if grep -q 'kept as linked' "$PD/${DIR[$v]}/relink.out" ||
                   ! grep -q '^[0-9]* order-functions ' "$PD/${DIR[$v]}.fb"; then
                    from=$PD/${DIR[$rb]}/s$tok/prog shift=
                else
                    [ "$inner" = 0 ] && [ "$mid" = 0 ] ||
                        die "$p: $v places an order of its own: no shift $tok (P+N or P@M) for it"
                    from=$PD/${DIR[$rb]}/prog shift=--pad-front=$pad
                fi
                logged "$B/pmopt" relink "$from" --feedback "$PD/${DIR[$v]}.fb" $shift \
                        -o "$d/prog" > "$d/relink.out" 2>&1 || { tail "$d/relink.out" >&2; die "$p: $v shifted by $tok"; } ;;
            O2|pgo)
                logged gcc -O2 -o "$d/prog" "$(pad_obj "$pad")" $(objs_at "$p" "$PD/${DIR[$v]}" "$mid") $ipad \
                    $(redraw_script "$p" "$PD/${DIR[$v]}" "$mid") $(wl_libs "$p") ||
                    die "$p: $v shifted by $tok" ;;
            *)  # a rebuild: linked by perfinst-ld as wl_build links it (hot_obj:
                # nothing, or one object: unquoted, so that nothing is no argument)
                # shellcheck disable=SC2046
                (cd "$d" && logged "$B/perfinst-ld" -O2 -o prog "$(pad_obj "$pad")" \
                    $(objs_at "$p" "$PD/${DIR[$v]}" "$mid") $(hot_obj "$PD/${DIR[$v]}" "$mid" "$(share_at "$mid")") \
                    $(hot_ipad_obj "$inner" "$mid") $(redraw_script "$p" "$PD/${DIR[$v]}" "$mid") \
                    $(wl_libs "$p")) > "$d/link.log" 2>&1 ||
                    { tail "$d/link.log" >&2; die "$p: $v shifted by $tok"; } ;;
            esac
        done
    done
}

# ---- measuring --------------------------------------------------------------------
# run_jobs FILE: every line of FILE is a command for `eval`; $jobs at a time
run_jobs() {
    local line n=0 fail=0
    while IFS= read -r line; do
        eval "$line" &
        n=$((n + 1))
        if [ $n -ge "$jobs" ]; then wait -n || fail=1; n=$((n - 1)); fi
    done < "$1"
    while [ $n -gt 0 ]; do wait -n || fail=1; n=$((n - 1)); done
    return $fail
}
# run_dir D: a directory of its own holding D/prog (a hard link), whose
# path has the same length for every variant: the program's path is in its
# initial stack (valgrind's too), and a path one byte longer changed
# speedtest1's count by 250 instructions and 2 I1 misses, as much as the
# relink's data order (bench/RESULTS.md, 2026-11-29 11:30)
run_dir() {
    local r
    r=$(mktemp -d "$W/run.XXXXXX") || return 1
    ln "$1/prog" "$r/prog" 2> /dev/null || cp "$1/prog" "$r/prog" || { rm -rf "$r"; return 1; }
    echo "$r"
}
# image_of PROG: a hash of what PROG loads and runs (bench/image-hash.py: the
# ELF header but its section-header fields, the program headers and every
# PT_LOAD segment's bytes; a relink that keeps the rebuild's layout rewrites
# only the section headers and what is not loaded)
image_of() { python3 "$here/image-hash.py" "$1"; }
# cg_one P WL VARIANT PAD: one cachegrind count into $W/P/cg/VARIANT-WL-PAD.txt:
# "IREFS I1MISSES"; a program whose loaded image (image_of) was counted on WL
# already takes that count (the same bytes at the same addresses, run from
# a directory of the same path length, count the same), and
# VARIANT-WL-PAD.same names the count it took
cg_one() {
    local p=$1 wl=$2 v=$3 pad=$4 d f r st=0 k
    d=$W/$p/${DIR[$v]}
    [ "$pad" = 0 ] || d=$d/s$pad
    f=$W/$p/cg/$v-$wl-$pad
    k=$W/$p/cg/image-$(image_of "$d/prog")-$wl
    if [ -s "$f.txt" ] && [ "$f.txt" -nt "$d/prog" ]; then
        # an earlier run's count, whose image is known from now on
        [ -s "$k.txt" ] || [ -f "$f.same" ] || { echo "$v-$wl-$pad" > "$k.from" && cp "$f.txt" "$k.txt"; }
        return 0
    fi
    if [ -s "$k.txt" ]; then
        cp "$k.from" "$f.same" && cp "$k.txt" "$f.txt"
        return 0
    fi
    rm -f "$f.same"
    r=$(run_dir "$d") || return 1
    checked "$p" "$wl" "$r" "${S_CG[$p]}" valgrind --tool=cachegrind --cache-sim=yes $GEOM \
        --cachegrind-out-file=/dev/null 2> "$f.err" || st=1
    rm -rf "$r"
    [ $st = 0 ] || return 1
    echo "$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$f.err" | tr -d ,)" \
        "$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' "$f.err" | tr -d ,)" > "$f.txt"
    echo "$v-$wl-$pad" > "$k.from" && cp "$f.txt" "$k.txt"
}
# i1_one P WL VARIANT: the variant's I1 misses on WL at every layout it was
# linked at, from one run of its unshifted program under bench/i1sim (the
# layouts as address deltas: bench/layout-map.py), into
# $W/P/i1/VARIANT-WL-PAD.txt: "IREFS I1MISSES", IREFS the unshifted run's;
# a program whose loaded image (image_of) and layouts were counted on WL
# already takes those counts, as cg_one does (a relink that loads its
# rebuild's image: a second run of a program that is not deterministic to
# the instruction, LevelDB's threads or speedtest1's, would differ by a
# few misses), and VARIANT-WL.same names the run it took
i1_one() {
    local p=$1 wl=$2 v=$3 d0 pad dp need=0 args=() base r st=0 irefs k m label key lock
    d0=$W/$p/${DIR[$v]}
    base=$W/$p/i1/$v-$wl
    for pad in $(vpads_of "$p" "$v"); do
        dp=$d0
        [ "$pad" = 0 ] || dp=$d0/s$pad
        [ -s "$base-$pad.txt" ] && [ "$base-$pad.txt" -nt "$dp/prog" ] || need=1
        args+=("$pad=$dp/prog")
    done
    [ $need = 1 ] || return 0
    python3 "$here/layout-map.py" "$d0/prog" "${args[@]}" > "$base.lay" || return 1
    key=$W/$p/i1/image-$(image_of "$d0/prog")-$(sed 1,/^layouts/d "$base.lay" | sha256sum | cut -c1-16)-$wl
    # one run per image and layouts at a time: the rebuild and its relink are counted side by side
    exec {lock}> "$key.lock"
    flock "$lock"
    rm -f "$base.same"
    if [ -s "$key.out" ]; then
        cp "$key.from" "$base.same" && cp "$key.out" "$base.out"
    else
        r=$(run_dir "$d0") || { exec {lock}>&-; return 1; }
        checked "$p" "$wl" "$r" "${S_CG[$p]}" "$here/i1sim/valgrind.sh" --tool=i1sim --layouts="$base.lay" \
            --out="$base.out" 2> "$base.err" || st=1
        rm -rf "$r"
        [ $st = 0 ] && echo "$v-$wl" > "$key.from" && cp "$base.out" "$key.out"
    fi
    flock -u "$lock"
    exec {lock}>&-
    [ $st = 0 ] || return 1
    irefs=$(sed -n 's/^irefs //p' "$base.out")
    while read -r _ k m label; do
        echo "$irefs $m" > "$base-$label.txt"
    done < <(grep '^layout ' "$base.out")
}
# tb_one P WL VARIANT: taken branches into $W/P/cg/VARIANT-WL-taken.txt
tb_one() {
    local p=$1 wl=$2 v=$3 d f r st=0
    d=$W/$p/${DIR[$v]} f=$W/$p/cg/$v-$wl-taken
    [ -s "$f.txt" ] && [ "$f.txt" -nt "$d/prog" ] && return 0
    r=$(run_dir "$d") || return 1
    # the profile names the run directory's program: read it while it is there
    checked "$p" "$wl" "$r" "${S_CG[$p]}" valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes \
        --callgrind-out-file="$f.data" 2> "$f.err" &&
        python3 "$here/taken-branches.py" --by-function "$r/prog" "$f.data" > "$f.by" || st=1
    rm -rf "$r"
    [ $st = 0 ] || return 1
    rm -f "$f.data"
    awk 'NR == 1 { print $3 }' "$f.by" > "$f.txt"
}
measure_program() {
    local p=$1 wl v pad jf
    mkdir -p "$W/$p/cg"
    # a list of this run's own: another run in the same work directory
    # (--keep-profiles, other variants) may be measuring the same program
    jf=$(mktemp "$W/$p/cg/jobs.XXXXXX")
    for wl in ${TESTS[$p]}; do
        for v in "${C[@]}"; do
            if [ $counter = i1sim ]; then
                echo "i1_one $p $wl $v" >> "$jf"
            else
                for pad in $(vpads_of "$p" "$v"); do echo "cg_one $p $wl $v $pad" >> "$jf"; done
            fi
            [ $taken = 0 ] || echo "tb_one $p $wl $v" >> "$jf"
        done
    done
    # O2's runs first: they record the reference checksums
    if [ $counter = i1sim ]; then
        mkdir -p "$W/$p/i1"
        "$here/i1sim/valgrind.sh" --version > /dev/null || die "bench/i1sim cannot be built"
        for wl in ${TESTS[$p]}; do i1_one "$p" "$wl" O2 || die "$p: O2 on $wl"; done
    else
        for wl in ${TESTS[$p]}; do cg_one "$p" "$wl" O2 0 || die "$p: O2 on $wl"; done
    fi
    say "$p: $(wc -l < "$jf") valgrind runs, $jobs at a time"
    run_jobs "$jf" || die "$p: a valgrind run failed"
    rm -f "$jf"
}
# time_program P: --rounds paired rounds per test workload at the timing scale
time_program() {
    local p=$1 wl r k v t tm ts ti=$W/timeit
    [ -x "$ti" ] || gcc -O2 -o "$ti" "$here/timeit.c" || die "timeit"
    t=$(mktemp "$W/time.XXXXXX")
    for wl in ${TESTS[$p]}; do
        local out=$W/$p/times-$wl.txt
        ts=$(time_scale "$p" "$wl")
        say "$p: timing $rounds rounds on $wl at $ts"
        # a first run of O2 records the checksum at this scale (and warms the caches)
        checked "$p" "$wl" "$W/$p/o2" "$ts" > /dev/null || die "$p: O2 on $wl"
        { echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the start, nice $nicev"
          echo "# variants ${C[*]}"; } > "$out"
        for r in $(seq "$rounds"); do
            for k in $(seq 0 $((${#C[@]} - 1))); do
                v=${C[$(( (k + r) % ${#C[@]} ))]}
                : > "$t"
                checked "$p" "$wl" "$W/$p/${DIR[$v]}" "$ts" "$ti" "$t" || die "$p: $v on $wl"
                tm=$(sed -n 's/^wall=\([0-9.]*\) user=\([0-9.]*\) .*/\1 \2/p' "$t")
                echo "$r $v $tm" >> "$out"
            done
        done
        echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >> "$out"
    done
    rm -f "$t"
}

# ---- the run --------------------------------------------------------------------------
t0=$(date +%s)
if [ $timing_only = 0 ]; then
    for p in $programs; do build_program "$p"; done
    for p in $programs; do measure_program "$p"; done
fi
if [ $timing = 1 ]; then
    for p in $programs; do time_program "$p"; done
fi
say "done in $(( $(date +%s) - t0 )) s"

# ---- the report ------------------------------------------------------------------------
{
    echo "## $(date -u '+%Y-%m-%d %H:%M UTC') — \`$cmdline\`"
    echo
    echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
    echo "- compiler: $(gcc --version | head -1); $(valgrind --version); $("$BOLT" --version 2> /dev/null | grep -m1 -i 'llvm version' | sed 's/^ *//')"
    echo "- tree: $(cd "$top" && git rev-parse --short HEAD)$(cd "$top" && git diff --quiet HEAD -- . ':!bench/RESULTS.md' || echo ' (with uncommitted changes)')"
    echo "- work directory: $W; the commands of each program in $W/PROGRAM/commands.txt"
    echo "- redraws: the hot code cut at $(cat "$W/hot-share") (--hot-share); a rebuild's hot code $REDRAW_HOT at a redraw (--redraw-hot)"
    echo
    for p in $programs; do
        echo "PROGRAM $p ${TRAIN[$p]} ${S_TRAIN[$p]} ${S_CG[$p]} $(time_scales "$p") ${TESTS[$p]}"
        [ -z "${PPADS[$p]:-}" ] || echo "PADS $p ${PPADS[$p]}"
        [ "$(bpads_of "$p")" = "$(pads_of "$p")" ] || echo "BASEPADS $p $(bpads_of "$p")"
    done > "$W/programs.txt"
    python3 "$here/suite-report.py" --work "$W" --variants "${V[*]}" --counted "${C[*]}" --pads "$pads" \
        --counts "$([ $counter = i1sim ] && echo i1 || echo cg)" \
        $([ $timing = 1 ] || echo --no-timing) --nice "$nicev" "$W/programs.txt"
} > "$W/report.md"
bench_record "$W/report.md"
