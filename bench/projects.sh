#!/bin/bash
# bench/projects.sh [--record] [--only NAME[,NAME...]] [--keep] [--shifts N] — perfinst in
# the programs people have (issue 14): real projects, fetched at run time as
# Debian source packages (bench/fetch-debsrc.sh), each built by its own build
# system with only perfinst's flags added to CFLAGS/CXXFLAGS/LDFLAGS.
#
# Per project (bench/projects/NAME.sh: how to build, test and run it):
#   plain    CFLAGS=-O2 -g (the baseline)
#   count    + the perfinst flags, -fplugin-arg-perfinst-all=count and
#            -fplugin-arg-perfinst-sections: its tests (outputs compared with
#            plain's), the training workload's trace, a sampled run
#            (PERFINST_SAMPLE) read by pmopt report --tree
#   cov      + --coverage: gcov's function counts of the training run, the
#            oracle of the exact-count check (every function both count)
#   pgogen   + -fprofile-generate (the counting overhead's other reference),
#   pgouse   + -fprofile-use -fprofile-correction after the training run
#            (GCC PGO); both in the
#            folder pgo, one after the other: GCC's profile holds a checksum
#            of each function's source file name, which is absolute when the
#            build system passes absolute paths (CMake), and
#            -fprofile-prefix-path does not reach it ("source locations for
#            function ... have changed" in another folder)
#   train    + the count flags and -fplugin-arg-perfinst-clean-copies=all
#            (the loop's training build, README and docs/layout.md): the
#            training workload's traces, which the plan is made from
#   rebuild  + the perfinst flags and the feedback of `pmopt plan
#            --order=auto --rebuild` on the train build's traces (the
#            suite's default)
#   relink   the rebuild's programs by `pmopt relink --feedback`
#   bolt     + -fno-reorder-blocks-and-partition, -Wl,--emit-relocs; llvm-bolt
#            instrumented, trained, then -reorder-blocks=ext-tsp
#            -reorder-functions=cdsort -split-functions (bench/lib.sh's)
# and measures: build CPU time (count / plain), tests passed, callgrind
# instructions of the held-out workload (count / plain, pgogen / plain),
# cachegrind I1 misses of the held-out workload (each layout / plain, as
# built; the relink and BOLT also over shifts, below), with the geometric
# mean and the worst case over the projects.
#
#   --record   append the table to bench/RESULTS.md
#   --only     these projects (lua zstd leveldb jq fribidi snappy libyaml xkbcommon xz brotli lz4 jsoncpp pugixml pcre2 gawk fmtlib ninja re2
#              zlib tinyxml2 cmark expat busybox flac mimalloc opus tcl mawk libgit2 libuv jsonc yaml-cpp
#              dav1d libarchive)
#   --keep     keep the variants' trees already built (default: fresh copies)
#   --shifts N the relink's and BOLT's I1 misses also at N shifts (default
#              8; 1: as built only): the relink's programs relinked again
#              with --pad-front=P (the rebuild's whole .text P bytes further
#              against libc), BOLT's optimised again with P bytes before its
#              hot text's first function (--pad-funcs-before; the code BOLT
#              leaves in place stays), P = k*4096/N: one layout is one draw
#              of which lines share the I1's sets
#   --table    only print the table of the last run
#
# A project is bench/projects/NAME.sh, sourced (the one place its recipe
# lives, for other benchmarks to reuse):
#   P_PKG        the Debian source package, pinned (NAME=VERSION)
#   P_TREE       orig (upstream's tarball) or debian (the patched tree)
#   P_EXES       the programs (or shared libraries) the workloads run, the
#                first planned, all relinked; P_TESTEXES: globs of more the
#                tests run, relinked too
#   P_SPOT       a function whose count the training input determines
#   P_DEBDEPS    the Debian packages its build needs beyond scripts/deps.sh's
#                (installed when missing: bench/lib.sh project_source)
#   P_VGSCALE    the workloads' scale under valgrind (P_SCALE; 1 otherwise)
#   p_build      build in the current directory with the environment's CC,
#                CXX, CFLAGS, CXXFLAGS, LDFLAGS by the project's own system
#                ($P_VARIANT: the variant; cov, pgogen, pgouse and bolt
#                only run the workloads, whose programs may be all they build)
#   p_test       run its tests; print "PASSED TOTAL"
#   p_workload MIX [WRAPPER...]   the workload train or test, each program
#                run under WRAPPER (valgrind); deterministic stdout
#
# The perfinst flags: `pkg-config --cflags/--libs perfinst` of perfinst
# installed into the work directory (make install PREFIX=...; docs/adopting.md).  Work files: bench/.work/projects (never committed); sources:
# $CACHE/debsrc (bench/fetch-debsrc.sh).  Run it niced: it builds about 40
# trees on 2 CPUs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
B=${PERFINST_BUILD:-$top/build}
W=${W:-$here/.work/projects}
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
GEOM="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
ALL="lua zstd leveldb jq fribidi snappy libyaml xkbcommon xz brotli lz4 jsoncpp pugixml pcre2 gawk fmtlib ninja re2 zlib tinyxml2 cmark expat busybox flac mimalloc opus tcl mawk libgit2 libuv jsonc yaml-cpp dav1d libarchive"
record=0 keep=0 only=$ALL table_only=0 shifts=8 cmdargs="$*"
while [ $# -gt 0 ]; do
    case $1 in
    --record) record=1; shift ;;
    --keep) keep=1; shift ;;
    --table) table_only=1; shift ;;
    --only) only=${2//,/ }; shift 2 ;;
    --shifts) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "projects.sh: --shifts ${2:-}: a number of shifts (8)" >&2; exit 2; }
        shifts=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "projects.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$W"
say() { echo "projects.sh: $(date -u +%T) $*" >&2; }

# ---- the perfinst flags -------------------------------------------------------------------------
# route: PI_CFLAGS, PI_LDFLAGS (pkg-config --cflags/--libs perfinst of
# perfinst installed into $W/prefix, again when the build's files differ)
# and PMOPT.  Several runs (--only) may share the prefix: a lock, and no
# reinstall of the same files (a tree built with them is kept by --keep)
route() {
    local prefix=$W/prefix srckey
    exec 8> "$W/.route.lock"
    flock 8
    srckey=$(cd "$top" && md5sum "$B"/perfinst-ld "$B"/pmopt "$B"/perfinst.so "$B"/libperfinst.* \
        linker/perfinst.specs.in perfinst.pc.in include/*.h | md5sum)
    if [ ! -f "$prefix/.srckey" ] || [ "$srckey" != "$(cat "$prefix/.srckey")" ]; then
        rm -rf "$prefix"
        make -C "$top" -s install PREFIX="$prefix" > "$W/install.log" 2>&1 || { cat "$W/install.log" >&2; return 1; }
        { git -C "$top" rev-parse --short HEAD; git -C "$top" diff --quiet HEAD -- . ':!bench' || echo "(with changes)"; } |
            tr '\n' ' ' > "$prefix/.commit"
        echo "$srckey" > "$prefix/.srckey"
    fi
    # what a build with the flags uses (not pmopt): the key of count and rebuild trees
    [ -s "$prefix/.key" ] ||
        (cd "$prefix" && md5sum bin/perfinst-ld include/*.h lib/libperfinst.* lib/perfinst/* lib/pkgconfig/* | md5sum) > "$prefix/.key"
    flock -u 8
    export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
    PI_CFLAGS=$(pkg-config --cflags perfinst)
    PI_LDFLAGS=$(pkg-config --libs perfinst)
    PMOPT=$prefix/bin/pmopt
}

# variant_env V TREE: CC, CXX, CFLAGS, CXXFLAGS, LDFLAGS of variant V built in TREE
variant_env() {
    local v=$1 tree=$2 f=() l=()
    CC=gcc CXX=g++
    case $v in
    plain) ;;
    count) f=($PI_CFLAGS -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections); l=($PI_LDFLAGS) ;;
    train) f=($PI_CFLAGS -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=all -fplugin-arg-perfinst-sections)
        l=($PI_LDFLAGS) ;;
    rebuild) f=($PI_CFLAGS -fplugin-arg-perfinst-feedback="$PW/fb" -fplugin-arg-perfinst-sections); l=($PI_LDFLAGS) ;;
    cov) f=(--coverage); l=(--coverage) ;;
    pgogen) f=(-fprofile-generate="$PW/pgo.prof" -fprofile-prefix-path="$tree"); l=(-fprofile-generate) ;;
    # -fprofile-correction: a threaded training run (leveldb's compactions) races on the
    # counters, and GCC refuses such a profile ("profile data is not flow-consistent")
    pgouse) f=(-fprofile-use="$PW/pgo.prof" -fprofile-prefix-path="$tree" -Wno-missing-profile -fprofile-correction); ;;
    bolt) f=(-fno-reorder-blocks-and-partition); l=(-Wl,--emit-relocs) ;;
    esac
    CFLAGS="-O2 -g ${f[*]}" CXXFLAGS="-O2 -g ${f[*]}" LDFLAGS="${l[*]}"
    export CC CXX CFLAGS CXXFLAGS LDFLAGS
}

# ---- one project ------------------------------------------------------------------------------------
# fresh_tree V: $PW/V, a fresh copy of the project's source
fresh_tree() {
    local t; t=$(vdir "$1")
    project_tree "$SRC" "$P_PKG" "$P_TREE" "$t"
}

# vkey V: what variant V's build depends on besides the project's source
# and this script: perfinst's installed files (count, train, rebuild) and
# the feedback file (rebuild); --keep keeps a tree built with the same key
vkey() {
    case $1 in
    count|train) cat "$W/prefix/.key" ;;
    rebuild) cat "$W/prefix/.key"; md5sum < "$PW/fb" ;;
    *) echo "$1" ;;
    esac
}

# build V: the variant's tree built; its CPU seconds (user + sys) in $PW/V.cpu
# (with --keep, a tree built before with the same vkey is kept, with its time)
build() {
    local v=$1 t; t=$(vdir "$1")
    if [ "$keep" = 1 ] && [ -f "$t/.built" ] && [ -f "$t/.cpu" ] && cmp -s "$t/.built" <(vkey "$v"); then
        say "$NAME: keeping $v (built before)"
        # a kept rebuild's programs as built: the relink of the last run undone
        [ "$v" != rebuild ] || find "$t" -name '*.rebuild' -type f | while read -r f; do mv "$f" "${f%.rebuild}"; done
        cp "$t/.cpu" "$PW/$v.cpu"
        return 0
    fi
    fresh_tree "$v"
    say "$NAME: building $v"
    (
        cd "$t"
        variant_env "$v" "$t"
        export P_VARIANT=$v
        env | grep -E '^(CC|CXX|CFLAGS|CXXFLAGS|LDFLAGS)=' | sort > .env
        TIMEFORMAT='%U %S'
        { time p_build > .build.out 2>&1; } 2> .time || { tail -n 30 .build.out build.log >&2 2> /dev/null; exit 1; }
        # a rebuild in which a unit did not apply the plan measures -O2
        # (the recipes send the compilers' messages to build.log)
        if [ "$v" = rebuild ] && missed=$(cat .build.out build.log 2> /dev/null | plan_missed /dev/stdin); then
            echo "$missed" >&2
            say "$NAME: the rebuild: $(echo "$missed" | wc -l) units did not apply the plan (in $t/build.log)"
            exit 1
        fi
        awk '{ print $1 + $2 }' .time > .cpu
        cp .cpu "$PW/$v.cpu"
        vkey "$v" > .built
    )
}

# tests V: the project's tests in the variant's tree; "PASSED TOTAL" in $PW/V.tests
tests() {
    local v=$1
    say "$NAME: testing $v"
    rm -rf "$PW/$v.traces"; mkdir -p "$PW/$v.traces"
    (cd "$(vdir "$v")" && PERFINST_OUT=$PW/$v.traces/%e.%p.pit p_test) > "$PW/$v.tests" 2> "$PW/$v.tests.err" || true
    [ -s "$PW/$v.tests" ] || echo "0 ?" > "$PW/$v.tests"
}

# workload V MIX [WRAPPER...]: the workload's output in $PW/V.MIX.out
workload() {
    local v=$1 mix=$2; shift 2
    (cd "$(vdir "$v")" && PERFINST_OUT=${PERFINST_OUT:-/dev/null} p_workload "$mix" "$@") > "$PW/$v.$mix.out" 2> "$PW/$v.$mix.err"
}

note() { echo "$*" >> "$PW/notes"; say "$NAME: $*"; }

# traces_of FILE DIR: the traces in DIR that hold FILE (a module with its
# build-id): a workload's other programs (zstd's datagen) leave traces
# `pmopt report FILE` would refuse as another build's
traces_of() {
    local id t
    id=$(readelf -n "$1" 2> /dev/null | sed -n 's/.*Build ID: *//p')
    for t in "$2"/*.pit; do
        [ -e "$t" ] || continue
        # all of dump's output read: grep -q would stop it early (SIGPIPE, which pipefail reports)
        "$PMOPT" dump "$t" 2> /dev/null | grep -c "MODULE index [0-9]*, build-id $id," > /dev/null && echo "$t"
    done
    return 0
}

# same_output V: the workloads' outputs of V are plain's
same_output() {
    local v=$1 mix ok=yes
    for mix in train test; do
        cmp -s "$PW/plain.$mix.out" "$PW/$v.$mix.out" || { ok=no; note "$v: the $mix workload's output differs from plain's"; }
    done
    echo "$ok" > "$PW/$v.same"
}

# vdir V: the tree variant V is built and runs in (relink: the rebuild's,
# its programs replaced by their relinked copies; pgogen and pgouse: pgo,
# the same absolute source paths for GCC's profile)
vdir() {
    case $1 in
    relink) echo "$PW/rebuild" ;;
    pgogen|pgouse) echo "$PW/pgo" ;;
    *) echo "$PW/$1" ;;
    esac
}

# the ELF files of P_EXES in variant V's tree
exes() { local e; for e in $P_EXES; do echo "$(vdir "$1")/$e"; done; }
# is_elf FILE: FILE is an ELF file (a glob of P_TESTEXES may match others:
# xkbcommon's build/test-* holds the generated test-config.h)
is_elf() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
# test_exes V: the programs of P_TESTEXES (globs) built in V's tree
test_exes() {
    local g f
    for g in ${P_TESTEXES:-}; do
        for f in "$(vdir "$1")"/$g; do ! is_elf "$f" || echo "$f"; done
    done
}

# plan_all: each of P_EXES of the train build planned from its own traces
# of the training run (a trace names the build-ids of the program and the
# libraries it ran, and pmopt plan refuses another build's: zstd's datagen
# is no trace of libzstd.so) into $PW/fb.N; the first's plan is $PW/fb,
# the rebuild's feedback.  A program the training run did not run has no
# plan of its own.
plan_all() {
    local e i=0 tr
    for e in $(exes train); do
        tr=$(traces_of "$e" "$PW/train.traces")
        if [ -z "$tr" ]; then
            [ "$i" != 0 ] || note "pmopt plan: no trace of ${e#$PW/train/} in the training run"
        else
            say "$NAME: planning ${e#$PW/train/}"
            # shellcheck disable=SC2086
            "$PMOPT" plan --order=auto --rebuild -o "$PW/fb.$i" "$e" $tr > "$PW/plan.$i.out" 2> "$PW/plan.$i.err" ||
                note "pmopt plan ${e#$PW/train/} failed: $(tail -1 "$PW/plan.$i.err")"
        fi
        i=$((i + 1))
    done
    [ ! -s "$PW/fb.0" ] || cp "$PW/fb.0" "$PW/fb"
}

# plan_of E: the plan a relink of E (a P_EXES or P_TESTEXES entry) applies:
# its own, else the first program's (the tests' programs share its library)
plan_of() {
    local x i=0
    for x in $P_EXES; do
        if [ "$x" = "$1" ] && [ -s "$PW/fb.$i" ]; then echo "$PW/fb.$i"; return; fi
        i=$((i + 1))
    done
    echo "$PW/fb"
}

# relink_all: the rebuild's P_EXES and P_TESTEXES (globs) relinked with the
# plan (each kept as FILE.rebuild, the relinked copy put in its place); 0
# when every one was relinked.  A program without a plan of its own (a
# test program, or one the training did not run: snappy_test_tool) gets
# the first program's on purpose (the library's functions it shares):
# --force, or pmopt relink refuses a plan most of whose functions the
# program does not hold (leveldb's tests hold 11 of db_bench's 54)
relink_all() {
    local e f ok=0
    for e in $P_EXES ${P_TESTEXES:-}; do
        for f in "$PW"/rebuild/$e; do
            is_elf "$f" && [ ! -f "$f.rebuild" ] || continue
            say "$NAME: relinking ${f#$PW/rebuild/}"
            if relink_one "$e" "$f" "$f.relink"; then
                mv "$f" "$f.rebuild" && mv "$f.relink" "$f"
            else
                note "pmopt relink ${f#$PW/rebuild/} failed: $(grep -m1 -iE 'error|refus' "$PW/relink.err" || tail -1 "$PW/relink.err")"
                ok=1
            fi
        done
    done
    return $ok
}

# relink_one E IN OUT [ARG...]: IN, a rebuilt program of the P_EXES or
# P_TESTEXES entry E, relinked with E's plan (plan_of) into OUT
relink_one() {
    local e=$1 in=$2 out=$3 p force=; shift 3
    p=$(plan_of "$e")
    [ "$p" != "$PW/fb" ] || force=--force
    # shellcheck disable=SC2086
    "$PMOPT" relink "$in" --feedback "$p" $force "$@" -o "$out" >> "$PW/relink.out" 2>> "$PW/relink.err"
}

# cg_instr V: callgrind's instruction count of the test workload, summed
# over its processes (valgrind's messages in $PW/V.cg/, one file each;
# printf %.0f: Debian's awk, mawk, prints a sum past 2^31 as 3.98335e+09)
cg_instr() {
    local v=$1
    say "$NAME: callgrind $v"
    rm -rf "$PW/$v.cg"; mkdir -p "$PW/$v.cg"
    (cd "$(vdir "$v")" && PERFINST_OUT=/dev/null P_SCALE=$P_VGSCALE p_workload test valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null --log-file="$PW/$v.cg/%p.log") > /dev/null 2>&1 ||
        { note "$v: callgrind failed"; echo "-"; return; }
    cat "$PW/$v.cg"/*.log | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# cachegrind_i1 V: "I1MISSES IREFS" of the test workload, summed likewise
cachegrind_i1() {
    local v=$1
    say "$NAME: cachegrind $v"
    rm -rf "$PW/$v.cachegrind"; mkdir -p "$PW/$v.cachegrind"
    (cd "$(vdir "$v")" && PERFINST_OUT=/dev/null P_SCALE=$P_VGSCALE p_workload test valgrind --tool=cachegrind --cache-sim=yes $GEOM \
        --cachegrind-out-file=/dev/null --log-file="$PW/$v.cachegrind/%p.log") > /dev/null 2>&1 ||
        { note "$v: cachegrind failed"; echo "- -"; return; }
    cat "$PW/$v.cachegrind"/*.log |
        awk '/I1 *misses:/ { gsub(",", "", $4); m += $4 } /I *refs:/ { gsub(",", "", $4); r += $4 } END { printf "%.0f %.0f\n", m, r }'
}

# spot_check: every function gcov and perfinst both count, entries compared
# (the training run; gcov's execution_count is its entry block's count: the
# calls of the function's own copy, not its bodies inlined into others.  A
# function matches when perfinst's entries equal gcov's, or its entries less
# those of its inlined bodies (pmopt report's `inlined`): the early inliner
# of a --coverage build inlines otherwise than -O2's, ipa-split being off;
# "exact counts" says how many matched the second way)
spot_check() {
    say "$NAME: spot check against gcov"
    find "$PW/cov" -name '*.gcda' -delete       # this run's counts only (a kept tree has the last run's)
    workload cov train || note "cov: the training workload failed"
    python3 "$here/projects/gcov-entries.py" "$PW/cov" > "$PW/gcov.entries" 2> "$PW/gcov.err" ||
        { note "gcov-entries failed: $(tail -1 "$PW/gcov.err")"; return; }
    local e tr
    : > "$PW/pi.entries"
    # the test programs too: the training may run one (snappy_unittest),
    # and gcov counts the COMDAT functions its own objects hold
    for e in $(exes count) $(test_exes count); do
        tr=$(traces_of "$e" "$PW/count.train")
        [ -n "$tr" ] || continue
        # shellcheck disable=SC2086
        "$PMOPT" report --format=csv --by=function "$e" $tr 2>> "$PW/pi.err" |
            python3 -c 'import csv,sys
for r in csv.DictReader(sys.stdin):
    if r["entries"]: print(r["linkage"], r["entries"], r.get("inlined") or 0)' >> "$PW/pi.entries"
    done
    python3 "$here/projects/entries-cmp.py" "$PW/gcov.entries" "$PW/pi.entries" "$P_SPOT" > "$PW/spot"
}

# sample_tree: the call tree of the sampled run (pmopt report --tree) of
# the first of P_EXES it ran (fribidi's test workload runs the second)
sample_tree() {
    local e tr
    for e in $(exes count); do
        tr=$(traces_of "$e" "$PW/sample")
        [ -n "$tr" ] || continue
        # shellcheck disable=SC2086
        "$PMOPT" report --tree "$e" $tr > "$PW/tree" 2> "$PW/tree.err" ||
            note "pmopt report --tree failed: $(tail -1 "$PW/tree.err")"
        return
    done
    note "pmopt report --tree: no trace of the sampled run names P_EXES"
}

# bolt_opt: the bolt variant's P_EXES instrumented, trained, optimised in place
bolt_opt() {
    local BOLT e
    bolt_setup "$W/bolt-install.log"            # (installs bolt-22 when missing)
    [ -x "$BOLT" ] || { note "bolt: llvm-bolt not found, nor installed ($W/bolt-install.log)"; return 1; }
    for e in $(exes bolt); do
        [ -f "$e.in" ] || cp "$e" "$e.in"      # a kept tree's program was optimised before
        "$BOLT" "$e.in" -instrument -instrumentation-file="$PW/bolt.fdata" -instrumentation-file-append-pid \
            -o "$e" > "$PW/bolt-inst.log" 2>&1 || { note "bolt: instrumenting $e failed: $(tail -1 "$PW/bolt-inst.log")"; cp "$e.in" "$e"; return 1; }
    done
    rm -f "$PW"/bolt.fdata*
    workload bolt train || { note "bolt: the instrumented training run failed"; }
    for e in $(exes bolt); do
        local fd=("$PW"/bolt.fdata*)
        [ -e "${fd[0]}" ] || { note "bolt: no profile"; cp "$e.in" "$e"; return 1; }
        /usr/lib/llvm-22/bin/merge-fdata "${fd[@]}" > "$PW/bolt.merged.fdata" 2> /dev/null || cp "${fd[0]}" "$PW/bolt.merged.fdata"
        bolt_run "$e" || { note "bolt: optimising $e failed: $(tail -1 "$PW/bolt-opt.log")"; cp "$e.in" "$e"; return 1; }
    done
}

# bolt_run E [ARG...]: E optimised by BOLT from E.in and the training
# profile (bench/lib.sh's BOLT_OPTS), ARGs added
bolt_run() {
    local e=$1; shift
    "$BOLT" "$e.in" -data="$PW/bolt.merged.fdata" "${BOLT_OPTS[@]}" "$@" -o "$e" > "$PW/bolt-opt.log" 2>&1
}

# ---- I1 misses over shifts --------------------------------------------------------------------
# shifted V (relink or bolt): the test workload's I1 misses with V's
# P_EXES moved P bytes, one line "P MISSES" a shift (--shifts) in
# $PW/V.shifts, P = 0 the variant as measured ($PW/V.i1); V's programs as
# measured afterwards.  A shift V cannot make is left out with a note.
shifted() {
    local v=$1 k p e f ok
    [ -s "$PW/$v.i1" ] && [ "$(cut -d' ' -f1 < "$PW/$v.i1")" != - ] || return 0
    echo "0 $(cut -d' ' -f1 < "$PW/$v.i1")" > "$PW/$v.shifts"
    for e in $(exes "$v"); do cp "$e" "$e.as-measured"; done
    for ((k = 1; k < shifts; k++)); do
        p=$((k * 4096 / shifts / 64 * 64)) ok=1
        for e in $P_EXES; do
            f=$(vdir "$v")/$e
            case $v in
            relink) relink_one "$e" "$f.rebuild" "$f" --pad-front=$p || ok=0 ;;
            bolt) bolt_padded "$f" "$p" || ok=0 ;;
            esac
        done
        if [ $ok = 1 ]; then
            echo "$p $(cachegrind_i1 "$v" | cut -d' ' -f1)" >> "$PW/$v.shifts"
        else
            note "$v: not shifted by $p bytes"
        fi
    done
    for e in $(exes "$v"); do mv "$e.as-measured" "$e"; done
}

# bolt_padded E P: E optimised by BOLT again with P bytes before the first
# function of the hot text of E.as-measured (BOLT names a local function
# NAME/N: the names are tried until that function moved P bytes within a
# page)
bolt_padded() {
    local e=$1 p=$2 first hot n a
    first=$(bolt_first "$e.as-measured")
    [ -n "$first" ] || return 1
    hot=$(sym_addr "$e.as-measured" "$first")
    for n in "$first" "$first/1" "$first/2" "$first/3"; do
        bolt_run "$e" --pad-funcs-before="$n:$p" || return 1
        a=$(sym_addr "$e" "$first")
        [ "$(((16#$a - 16#$hot - p) % 4096))" != 0 ] || return 0
    done
    return 1
}

run_project() {
    NAME=$1 PW=$W/$1
    # shellcheck source=/dev/null
    . "$here/projects/$NAME.sh"
    P_DIR=$here/projects
    mkdir -p "$PW"
    : > "$PW/notes"
    rm -f "$PW"/*.i1 "$PW"/*.instr "$PW"/*.tests "$PW"/*.same "$PW"/*.cpu "$PW"/*.shifts "$PW/spot" "$PW/tree" "$PW"/fb "$PW"/fb.*
    SRC=$(project_source "$PW/apt.log") || { note "no source or build dependencies (see the log)"; return 1; }
    local v e
    # the baseline, and the counting build with its runs
    build plain || { note "plain build failed"; return 1; }
    tests plain
    workload plain train; workload plain test
    if build count; then
        tests count
        rm -rf "$PW/count.train"; mkdir -p "$PW/count.train"
        (cd "$PW/count" && PERFINST_OUT=$PW/count.train/%e.%p.pit p_workload train) > "$PW/count.train.out" 2> "$PW/count.train.err" ||
            note "count: the training workload failed: $(tail -1 "$PW/count.train.err")"
        workload count test
        same_output count
        rm -rf "$PW/sample"; mkdir -p "$PW/sample"
        (cd "$PW/count" && PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=$PW/sample/%e.%p.pit p_workload test) > /dev/null 2>&1 ||
            note "count: the sampled run failed"
        sample_tree
        build cov && spot_check || note "cov build failed"
        # the layout loop: the training build's run, its plan, the rebuild
        if build train; then
            rm -rf "$PW/train.traces"; mkdir -p "$PW/train.traces"
            PERFINST_OUT=$PW/train.traces/%e.%p.pit workload train train ||
                note "train: the training workload failed: $(tail -1 "$PW/train.train.err")"
            cmp -s "$PW/plain.train.out" "$PW/train.train.out" || note "train: the training workload's output differs from plain's"
            plan_all
        else
            note "train build failed: $(tail -3 "$PW/train/.build.out" 2> /dev/null | tr '\n' ' ')"
        fi
        if [ -s "$PW/fb" ] && build rebuild; then
            tests rebuild; workload rebuild train; workload rebuild test; same_output rebuild
            cachegrind_i1 rebuild > "$PW/rebuild.i1"
            : > "$PW/relink.out"; : > "$PW/relink.err"
            if relink_all; then
                tests relink; workload relink train; workload relink test; same_output relink
                cachegrind_i1 relink > "$PW/relink.i1"
                [ "$shifts" = 1 ] || shifted relink
            fi
        else
            note "rebuild failed"
        fi
    else
        note "count build failed: $(tail -3 "$PW/count/.build.out" 2> /dev/null | tr '\n' ' ')"
    fi
    # the references: -fprofile-generate, GCC PGO, BOLT
    echo - > "$PW/pgogen.instr"
    if build pgogen; then
        rm -rf "$PW/pgo.prof"
        workload pgogen train || note "pgogen: the training workload failed"
        cg_instr pgogen > "$PW/pgogen.instr"    # now: pgouse replaces its tree
        build pgouse && workload pgouse test || { note "pgouse build failed"; rm -rf "$(vdir pgouse)"; }
    else
        note "pgogen build failed"; rm -rf "$(vdir pgogen)"
    fi
    if build bolt && bolt_opt; then workload bolt test; else rm -rf "$PW/bolt"; fi
    # measurements
    for v in plain count; do
        [ -d "$(vdir $v)" ] && cg_instr $v > "$PW/$v.instr" || echo - > "$PW/$v.instr"
    done
    for v in plain pgouse bolt; do
        [ -d "$(vdir $v)" ] && cachegrind_i1 $v > "$PW/$v.i1" || echo "- -" > "$PW/$v.i1"
    done
    if [ "$shifts" != 1 ] && [ -d "$(vdir bolt)" ]; then
        local BOLT; bolt_setup "$W/bolt-install.log"
        shifted bolt
    fi
}

# ---- the table ----------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == "" || b == "" || b == 0) print "-"; else printf "%.3f", a / b }'; }
# geo RATIO...: "geomean (worst)"; worst is the largest (costs and misses: lower is better)
geo() {
    printf '%s\n' "$@" | awk '$1 != "-" { n++; s += log($1); if ($1 > w) w = $1 }
        END { if (n) printf "%.3f (worst %.3f, %d)", exp(s / n), w, n; else print "-" }'
}

table() {
    local n v f
    # the runs' facts as they were (NAME/run, NAME/finished), so that --table prints the table recorded
    local runs last
    runs=$(for n in $only; do cat "$W/$n/run" 2> /dev/null || echo "(no record of its run)"; done | sort -u)
    last=$(for n in $only; do cat "$W/$n/finished" 2> /dev/null || true; done | sort | tail -1)
    echo "## ${last:-?} UTC bench/projects.sh: perfinst in real projects (issue 14)"
    echo
    if [ "$(wc -l <<< "$runs")" = 1 ]; then
        echo "Command: $runs."
    else
        echo "Commands (the projects ran in several runs):"
        for n in $only; do echo "- $n: $(cat "$W/$n/run" 2> /dev/null || echo "(no record of its run)")."; done
        echo
    fi
    echo "Every variant adds its flags to CFLAGS=\"-O2 -g\" (CXXFLAGS alike) and LDFLAGS, perfinst's being"
    echo "\$(pkg-config --cflags perfinst) -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections (the rebuild:"
    echo "-fplugin-arg-perfinst-feedback=FB instead of all=count, FB planned by \`pmopt plan --order=auto --rebuild\` on the"
    echo "training run of a build that adds -fplugin-arg-perfinst-clean-copies=all) and \$(pkg-config --libs perfinst); the build"
    echo "commands are each project's own (bench/projects/NAME.sh). Instructions: callgrind, the held-out"
    echo "workload; I1 misses: cachegrind $GEOM on the held-out workload (layouts trained on the other)."
    echo "Build time: user+sys CPU of the whole build (configure and tests' programs included), under load."
    echo "I1 ratios over a -O2 rate far below 1 miss per 1000 instructions (the hot code fits in L1i) are"
    echo "ratios of a few thousand misses: read them with the rate beside them. Each I1 column is one"
    echo "layout: one 8-way set that a loop overruns decides it (leveldb: 0.653 vs BOLT's 0.141 here, 0.392"
    echo "vs 0.427 over sixteen shifts: bench/RESULTS.md 2026-11-29 03:00). So the relink and BOLT are also"
    echo "measured over shifts (--shifts, $shifts here): \"I1 relink/BOLT, shifts\" is the ratio of their mean misses"
    echo "over the shifts both made (how many in parentheses; the relink keeps the rebuild's layout, so it is"
    echo "the rebuild's), each shift moving the relink's whole .text (pmopt relink --pad-front) and BOLT's hot"
    echo "text (--pad-funcs-before) P bytes against libc; bench/suite.sh, which moves the cold code too, is"
    echo "the finer measure."
    echo
    echo "| project | build count/plain | tests plain | count | rebuild | relink | output same (count/rebuild/relink) | exact counts (= gcov) | spot: function perfinst/gcov | samples | instr count/plain | -fprofile-generate/plain | count/-fprofile-generate | -O2 I1 misses per 1000 instr | I1 rebuild | I1 relink | I1 PGO | I1 BOLT | I1 relink/BOLT, shifts |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    local bt=() ic=() ip=() icp=() r1=() r2=() r3=() r4=() r5=()
    for n in $only; do
        local PW=$W/$n
        [ -f "$PW/plain.cpu" ] || { echo "| $n | (not built) |"; continue; }
        val() { [ -s "$PW/$1" ] && head -1 "$PW/$1" || echo "-"; }
        tcol() { [ -s "$PW/$1.tests" ] && awk '{ print $1 "/" $2 }' "$PW/$1.tests" || echo -; }
        local b; b=$(ratio "$(val count.cpu)" "$(val plain.cpu)"); bt+=("$b")
        local pl co pg
        pl=$(val plain.instr) co=$(val count.instr) pg=$(val pgogen.instr)
        local x1 x2 x3; x1=$(ratio "$co" "$pl"); x2=$(ratio "$pg" "$pl"); x3=$(ratio "$co" "$pg")
        ic+=("$x1"); ip+=("$x2"); icp+=("$x3")
        local m0 mr ml mp mb
        m0=$(cut -d' ' -f1 <<< "$(val plain.i1)")
        local mpki; mpki=$(awk -v m="$m0" -v r="$(cut -d' ' -f2 <<< "$(val plain.i1)")" \
            'BEGIN { if (m == "-" || r == "-" || r == 0) print "-"; else printf "%.3f", 1000 * m / r }')
        mr=$(ratio "$(cut -d' ' -f1 <<< "$(val rebuild.i1)")" "$m0"); ml=$(ratio "$(cut -d' ' -f1 <<< "$(val relink.i1)")" "$m0")
        mp=$(ratio "$(cut -d' ' -f1 <<< "$(val pgouse.i1)")" "$m0"); mb=$(ratio "$(cut -d' ' -f1 <<< "$(val bolt.i1)")" "$m0")
        r1+=("$mr"); r2+=("$ml"); r3+=("$mp"); r4+=("$mb")
        local ms='-' msn=''
        if [ -s "$PW/relink.shifts" ] && [ -s "$PW/bolt.shifts" ]; then
            read -r ms msn < <(awk 'NR == FNR { r[$1] = $2; next } ($1 in r) && $2 != "" && r[$1] != "" { n++; a += r[$1]; b += $2 }
                END { if (n && b) printf "%.3f %d\n", a / b, n; else print "- 0" }' "$PW/relink.shifts" "$PW/bolt.shifts")
        fi
        r5+=("$ms")
        local spot='-' exact='-'
        if [ -s "$PW/spot" ]; then
            local s_same s_both s_own s_fn s_pi s_gc
            read -r s_same s_both s_own s_fn s_pi s_gc < "$PW/spot" || true
            exact="$s_same of $s_both"; spot="\`$s_fn\` $s_pi/$s_gc"
            [ "$s_own" = 0 ] || exact+=" ($s_own less inlined)"
        fi
        local samples=
        [ ! -s "$PW/tree" ] || samples=$(sed -n 's/.*: \([0-9]*\) samples for \([0-9]*\) periods.*/\2 periods/p' "$PW/tree" | head -1)
        echo "| $n | $b | $(tcol plain) | $(tcol count) | $(tcol rebuild) | $(tcol relink) | $(val count.same)/$(val rebuild.same)/$(val relink.same) | $exact | $spot | ${samples:--} | $x1 | $x2 | $x3 | $mpki | $mr | $ml | $mp | $mb | $ms${msn:+ ($msn)} |"
    done
    echo "| geomean (worst) | $(geo "${bt[@]}") | | | | | | | | | $(geo "${ic[@]}") | $(geo "${ip[@]}") | $(geo "${icp[@]}") | | $(geo "${r1[@]}") | $(geo "${r2[@]}") | $(geo "${r3[@]}") | $(geo "${r4[@]}") | $(geo "${r5[@]}") |"
    echo
    for n in $only; do
        [ -s "$W/$n/notes" ] || continue
        echo "$n: $(sed 's/$/;/' "$W/$n/notes" | tr '\n' ' ')"
        echo
    done
}

# the whole run in one function, called on the file's last line: the file
# can be edited while a run goes on
main() {
    local run
    if [ "$table_only" = 0 ]; then
        route
        run="\`$([ "$(nice)" = 0 ] || echo "nice -n $(nice) ")bench/projects.sh${cmdargs:+ $cmdargs}\` at $(git -C "$top" rev-parse --short HEAD)"
        run+=", perfinst installed from $(sed 's/ *$//' "$W/prefix/.commit"), gcc $(gcc -dumpfullversion), started $(date -u +'%F %H:%M') UTC"
    fi
    for n in $only; do
        [ -f "$here/projects/$n.sh" ] || { echo "projects.sh: no bench/projects/$n.sh" >&2; exit 2; }
        [ "$table_only" = 0 ] || continue
        mkdir -p "$W/$n"; echo "$run" > "$W/$n/run"
        ( run_project "$n" ) || say "$n: stopped early (see $W/$n/notes)"
        date -u +'%F %H:%M' > "$W/$n/finished"
    done
    table > "$W/table.md"
    cat "$W/table.md"
    if [ "$record" = 1 ]; then
        { echo; cat "$W/table.md"; } >> "$here/RESULTS.md"
        say "appended to bench/RESULTS.md"
    fi
}

main; exit
