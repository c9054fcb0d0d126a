# bench/lib.sh — what the layout benchmarks share (sourced by
# bench/layout-all.sh, layout-relink.sh, layout-sets.sh, layout-split.sh and
# layout-rebuild.sh): options, the SQLite builds and runs, interleaved timing;
# and by bench/projects.sh and warnings.sh: a fresh copy of a project's tree.
#
# bench_opts NAME "$@": the common options --record, --rounds N, --train S,
# --test S, --size S (and -h/--help: the calling script's header comment)
# into record, rounds, train, test, size (defaults: 0, 5, 0.3, 0.1, 1).
# Unknown arguments: a message naming NAME, exit 2.
bench_opts() {
    local name=$1; shift
    rounds=5 train=0.3 test=0.1 size=1 record=0
    while [ $# -gt 0 ]; do
        case $1 in
        --record) record=1; shift ;;
        --rounds|--train|--test|--size)
            [ $# -ge 2 ] || { echo "$name: $1 needs a value" >&2; exit 2; }
            case $1 in
            --rounds) rounds=$2 ;; --train) train=$2 ;; --test) test=$2 ;; --size) size=$2 ;;
            esac
            shift 2 ;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$name: unknown argument $1" >&2; exit 2 ;;
        esac
    done
}

# bench_record FILE: print the report FILE; with --record also append it to
# bench/RESULTS.md
bench_record() {
    cat "$1"
    if [ "$record" = 1 ]; then
        { echo; cat "$1"; } >> "$here/RESULTS.md"
        echo "$(basename "$0"): appended to bench/RESULTS.md" >&2
    fi
}

# bench_work NAME: after checking that valgrind and perfinst's build are
# there, a fresh bench/.work/NAME ($work) as the current directory
bench_work() {
    command -v valgrind > /dev/null || { echo "$1: needs valgrind" >&2; exit 1; }
    [ -x "$here/../build/pmopt" ] || { echo "$1: build perfinst first (make)" >&2; exit 1; }
    work=$here/.work/$1
    rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
}

# median V...: the middle value (the lower of the two middle ones)
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# plan_missed ERR [BYTES]: the plugin's warnings in ERR, a feedback
# rebuild's compiler messages (from byte BYTES on, 0 by default), that
# a unit did not apply its plan: its source keyed otherwise than in the
# training build (a build from another directory; docs/layout.md, "The
# source key"), or less than half of its profile matched.  Status 0 (and
# the warnings printed) when there is one: a benchmark of such a rebuild
# measures -O2, not the plan.
plan_missed() {
    tail -c +$((${2:-0} + 1)) "$1" 2> /dev/null |
        grep -E "warning: perfinst: .*(no function profile is keyed to this unit|applies less than half of the profile)"
}

# ---- SQLite: bench/sqlite/workload.c + the amalgamation ----------------------
# sqlite_setup: SQ (the amalgamation's directory: bench/fetch-sqlite.sh), DEFS,
# GEOM (cachegrind's geometry), PI (the plugin), PERFINST_LIB_DIR; needs B (the
# build directory) and here (bench/).
sqlite_setup() {
    SQ=$("$here/fetch-sqlite.sh" | tail -1)
    DEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
    GEOM="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
    PI="-fplugin=$B/perfinst.so"
    export PERFINST_LIB_DIR=$B
}
# sqlite_stamp CFLAGS...: what objects compiled with CFLAGS depend on: the
# flags, the plugin and the feedback file they name, PGO's profile (./pgo/*.gcda
# for -fprofile-use), the two sources
sqlite_stamp() {
    echo "$*"
    local a
    for a in "$@"; do
        case $a in
        -fplugin=*) sha256sum "${a#-fplugin=}" ;;
        -fplugin-arg-perfinst-feedback=*) sha256sum "${a#-fplugin-arg-perfinst-feedback=}" ;;
        -fprofile-use) cat pgo/*.gcda 2> /dev/null | sha256sum ;;
        esac
    done
    sha256sum "$here/sqlite/workload.c" "$SQ/sqlite3.c"
}
# sqlite_build DIR CFLAGS...: DIR/sqlite3.o and DIR/workload.o, compiled again
# only when their stamp (DIR/stamp) changed; the compiler's messages in DIR/cc.err.
# A feedback rebuild in which sqlite3.c did not apply its plan (plan_missed)
# fails, its stamp unwritten: measured, it would be -O2.
sqlite_build() {
    local d=$1; shift
    mkdir -p "$d"
    if [ -f "$d/sqlite3.o" ] && sqlite_stamp "$@" | cmp -s - "$d/stamp"; then return 0; fi
    echo "$(basename "$0"): $(date -u +%T) compiling $d: $*" >&2
    rm -f "$d/stamp"
    gcc "$@" $DEFS -I"$SQ" -c "$SQ/sqlite3.c" -o "$d/sqlite3.o" 2> "$d/cc.err" || { cat "$d/cc.err" >&2; return 1; }
    if plan_missed "$d/cc.err" >&2; then
        echo "$(basename "$0"): $d: sqlite3.c did not apply its plan (in $d/cc.err)" >&2
        return 1
    fi
    gcc "$@" $DEFS -std=c11 -I"$SQ" -c "$here/sqlite/workload.c" -o "$d/workload.o" || return 1
    sqlite_stamp "$@" > "$d/stamp"
}
# sqlite_pild DIR: DIR/prog linked by perfinst-ld, unless it is newer than its
# objects, perfinst-ld and the runtime (a kept program keeps its runs and plans)
sqlite_pild() {
    local f
    if [ -x "$1/prog" ]; then
        for f in "$1/sqlite3.o" "$1/workload.o" "$B/perfinst-ld" "$B/libperfinst.a" "$B/libperfinst.so"; do
            [ ! -e "$f" ] || [ "$1/prog" -nt "$f" ] || { f=stale; break; }
        done
        [ "$f" = stale ] || return 0
    fi
    (cd "$1" && "$B/perfinst-ld" -O2 -o prog workload.o sqlite3.o -lm)
}
# sqlite_gcc_link DIR [LDFLAGS...]: DIR/prog linked by gcc -O2
sqlite_gcc_link() { local d=$1; shift; gcc -O2 "$@" -o "$d/prog" "$d/workload.o" "$d/sqlite3.o" -lm; }
# sqlite_train DIR SIZE [PIT]: the training run of a counted build, mix train
# at SIZE, its trace in DIR/PIT (t.pit)
sqlite_train() {
    (cd "$1" && rm -f "${3:-t.pit}" && PERFINST_OUT=${3:-t.pit} ./prog "$2" train > /dev/null)
}
# sqlite_cachegrind PROG SIZE OUT: cachegrind (GEOM) on `PROG SIZE test`, its
# messages in OUT.err and the program's output in OUT.out; prints what
# sqlite_cachegrind_read OUT prints
sqlite_cachegrind() {
    valgrind --tool=cachegrind --cache-sim=yes $GEOM --cachegrind-out-file=/dev/null "$1" "$2" test \
        > "$3.out" 2> "$3.err" || { tail "$3.err" >&2; return 1; }
    sqlite_cachegrind_read "$3"
}
# sqlite_cachegrind_read OUT: "IREFS I1MISSES CHECKSUM" of a cachegrind run
# (the checksum: the first word of the program's last line)
sqlite_cachegrind_read() {
    echo "$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$1.err" | tr -d ,)" \
        "$(sed -n 's/.*I1 *misses: *\([0-9,]*\).*/\1/p' "$1.err" | tr -d ,)" \
        "$(tail -1 "$1.out" | cut -d' ' -f1)"
}
# sqlite_taken PROG SIZE OUT: taken branches of PROG's own code on `PROG SIZE
# test` (callgrind --collect-jumps --dump-instr, read by bench/taken-branches.py;
# docs/layout.md "Taken branches under callgrind"); the reader's lines in OUT,
# the profile deleted; prints the count
sqlite_taken() {
    valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes --callgrind-out-file="$3.data" \
        "$1" "$2" test > /dev/null 2> "$3.err" || { tail "$3.err" >&2; return 1; }
    python3 "$here/taken-branches.py" --by-function "$1" "$3.data" > "$3" || return 1
    rm -f "$3.data"
    awk 'NR == 1 { print $3 }' "$3"
}

# sqlite_build_train DIR: the training build (all=count, sections), linked by
# perfinst-ld
sqlite_build_train() {
    sqlite_build "$1" -O2 $PI -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections &&
        sqlite_pild "$1"
}
# sqlite_build_rebuild DIR FB [count]: the rebuild with the feedback file FB
# (sections; with "count" also all=count: the counted rebuild that is trained
# again), linked by perfinst-ld
sqlite_build_rebuild() {
    local c=()
    [ "${3:-}" != count ] || c=(-fplugin-arg-perfinst-all=count)
    sqlite_build "$1" -O2 $PI "${c[@]}" -fplugin-arg-perfinst-feedback="$2" -fplugin-arg-perfinst-sections &&
        sqlite_pild "$1"
}
# apt_install LOG PKG...: the Debian packages of PKG... that are missing
# installed (sudo when not root; apt-get update first when apt does not
# know one; apt's messages in LOG); nonzero, naming them, when some cannot
# be had
apt_install() {
    local log=$1 p sudo='' missing=()
    shift
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "$(basename "$0"): installing ${missing[*]}" >&2
    { DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" ||
        { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"; }
    } > "$log" 2>&1 && return 0
    echo "$(basename "$0"): cannot install ${missing[*]} (apt's messages in $log)" >&2
    return 1
}
# bolt_setup LOG: BOLT = llvm-bolt (bolt-22 installed when missing, apt's
# messages in LOG); BOLT names a missing file when it cannot be had
bolt_setup() {
    if ! command -v llvm-bolt > /dev/null && [ ! -x /usr/lib/llvm-22/bin/llvm-bolt ]; then
        apt_install "$1" bolt-22 || echo "$(basename "$0"): no llvm-bolt: the bolt variant is skipped" >&2
    fi
    BOLT=$(command -v llvm-bolt || echo /usr/lib/llvm-22/bin/llvm-bolt)
}
# sym_addr PROG NAME: the address (hex, as nm prints it) of the first symbol NAME in PROG
sym_addr() { nm "$1" | awk -v f="$2" '$3 == f { print $1; exit }'; }
# bolt_first PROG: the first function of BOLT's hot text in PROG (the
# function at __hot_start), where --pad-funcs-before moves the hot text
bolt_first() {
    nm "$1" | awk '$3 == "__hot_start" { h = $1 } { a[NR] = $0 }
        END { for (i = 1; i <= NR; i++) { split(a[i], f); if (f[1] == h && f[2] ~ /^[TtWw]$/ && f[3] != "__hot_start") { print f[3]; exit } } }'
}
# BOLT_OPTS: how every benchmark optimises with BOLT and a profile
BOLT_OPTS=(-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions)
# sqlite_bolt DIR SIZE: DIR/prog by BOLT from DIR's objects (compiled with
# -fno-reorder-blocks-and-partition): linked with --emit-relocs (prog.in),
# instrumented (prog.inst), trained on mix train at SIZE, then optimized with
# BOLT_OPTS
sqlite_bolt() {
    local d=$1
    gcc -O2 -Wl,--emit-relocs -o "$d/prog.in" "$d/workload.o" "$d/sqlite3.o" -lm || return 1
    rm -f "$d/prof.fdata"
    "$BOLT" "$d/prog.in" -instrument -instrumentation-file="$(cd "$d" && pwd)/prof.fdata" \
        -o "$d/prog.inst" > "$d/inst.log" 2>&1 || { tail "$d/inst.log" >&2; return 1; }
    (cd "$d" && ./prog.inst "$2" train > /dev/null) || return 1
    "$BOLT" "$d/prog.in" -data="$d/prof.fdata" "${BOLT_OPTS[@]}" -o "$d/prog" > "$d/opt.log" 2>&1 ||
        { tail "$d/opt.log" >&2; return 1; }
}

# ---- interleaved wall time, compared round by round ----------------------------
# time_rounds N OUT ARGS VARIANT=PROG...: N rounds; in round r every PROG runs
# once with ARGS (word-split), timed by bench/timeit, the variants in rotated
# order (round r starts at the r-th); a line "# variants NAME..." and one line
# "ROUND VARIANT WALL USER" per run appended to OUT (bench/paired.py reads it).  bench/timeit is built beside OUT
# when missing.
time_rounds() {
    local n=$1 out=$2 args=$3; shift 3
    local vs=("$@") tm r k v t
    local ti=${TIMEIT:-$(dirname "$out")/timeit}
    [ -x "$ti" ] || gcc -O2 -o "$ti" "$here/timeit.c" || return 1
    t=$(mktemp "$(dirname "$out")/time.XXXXXX")
    echo "# variants ${vs[*]%%=*}" >> "$out"
    for r in $(seq "$n"); do
        for k in $(seq 0 $((${#vs[@]} - 1))); do
            v=${vs[$(( (k + r) % ${#vs[@]} ))]}
            : > "$t"
            "$ti" "$t" "${v#*=}" $args > /dev/null || { rm -f "$t"; echo "time_rounds: ${v#*=} $args failed" >&2; return 1; }
            tm=$(sed -n 's/^wall=\([0-9.]*\) user=\([0-9.]*\) .*/\1 \2/p' "$t")
            echo "$r ${v%%=*} $tm" >> "$out"
        done
    done
    rm -f "$t"
}
# paired_report OUT [BASE...]: bench/paired.py's table of OUT (bases: O2 and bolt)
paired_report() {
    local out=$1 b args=(); shift
    [ $# -gt 0 ] || set -- O2 bolt
    for b; do args+=(--base "$b"); done
    python3 "$here/paired.py" "${args[@]}" "$out"
}

# project_source LOG: for the sourced bench/projects/NAME.sh, the Debian
# packages its build needs (P_DEBDEPS) installed when missing (apt's
# messages in LOG) and its source package fetched (bench/fetch-debsrc.sh);
# prints SRC, the unpacked tree; nonzero, saying why, when either fails
project_source() {
    if [ -n "${P_DEBDEPS:-}" ] && ! apt_install "$1" $P_DEBDEPS; then
        echo "$(basename "$0"): ${P_PKG%%=*} cannot be built without $P_DEBDEPS" >&2
        return 1
    fi
    "$here/fetch-debsrc.sh" "$P_PKG" | tail -1
    [ "${PIPESTATUS[0]}" = 0 ]
}

# log_corpus MIX LINES: "N FILE", the log corpus of bench/projects/logs.py
# a recipe's workload MIX reads (train: seed 1, test: seed 7), LINES scaled
# by P_SCALE, made in the current directory when missing (pcre2.sh, gawk.sh)
log_corpus() {
    local n seed f
    n=$(awk -v s="${P_SCALE:-1}" -v l="$2" 'BEGIN { printf "%d", l * s }')
    case $1 in train) seed=1 ;; test) seed=7 ;; esac
    f=.logs-$seed-$n.txt
    [ -s "$f" ] || python3 "$P_DIR/logs.py" "$n" "$seed" > "$f"
    echo "$n $f"
}

# project_tree SRC PKG TREE DEST: a fresh copy of a Debian source package's
# project in DEST (removed first): upstream's tarball beside SRC when TREE
# is orig, else SRC itself, the unpacked and patched tree
# (bench/fetch-debsrc.sh prints SRC; bench/projects/NAME.sh sets P_PKG and
# P_TREE).
project_tree() {
    local src=$1 pkg=$2 tree=$3 dest=$4
    rm -rf "$dest"
    if [ "$tree" = orig ]; then
        mkdir -p "$dest"
        tar -xf "$(ls "$(dirname "$src")/${pkg%%=*}"_*.orig.tar.* | head -1)" -C "$dest" --strip-components=1
    else
        cp -a "$src" "$dest"
    fi
}

# meson_passed, ctest_passed: a bench/projects/NAME.sh p_test's "PASSED
# TOTAL" of `meson test` (test-meson.out) or ctest (test-ctest.out), run in
# the project's build/ (bench/projects.sh)
meson_passed() {
    meson test -C build --print-errorlogs > test-meson.out 2>&1
    awk '/^Ok:/ { ok = $2 } /^Fail:/ { f = $2 } /^Expected Fail:/ { xf = $3 } /^Unexpected Pass:/ { up = $3 }
         /^Timeout:/ { to = $2 } END { print ok + 0, ok + f + xf + up + to }' test-meson.out
}
ctest_passed() {
    (cd build && ctest -j2 > ../test-ctest.out 2>&1)
    sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1 \2/p' test-ctest.out |
        awk '{ print $2 - $1, $2 }'
}

# scaled_kb KB: a recipe's corpus size in KiB at the workload's scale,
# KB * P_SCALE (1 unless set: valgrind's runs, P_VGSCALE), at least 64
scaled_kb() {
    awk -v k="$1" -v s="${P_SCALE:-1}" 'BEGIN { k = k * s; if (k < 64) k = 64; printf "%d", k }'
}

# ctest_counts [CTEST-ARGS...]: a CMake recipe's p_test (jsoncpp.sh,
# fmtlib.sh, re2.sh): ctest in build/, one test at a time, with CTEST-ARGS
# (re2.sh: -E to leave some out), its output in test-ctest.out; prints
# "PASSED TOTAL"
ctest_counts() {
    (cd build && ctest -j1 "$@" > ../test-ctest.out 2>&1)
    sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1 \2/p' test-ctest.out |
        awk '{ print $2 - $1, $2 }'
}
