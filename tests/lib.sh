# tests/lib.sh — sourced by every test script (tests/*/t-*.sh).
# The runner starts each script in an empty scratch directory; $PERFINST_TOP
# is the source tree, $B the build directory.
set -eu
: "${PERFINST_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
B=${PERFINST_BUILD:-$PERFINST_TOP/build}   # scripts/check-sanitize.sh sets PERFINST_BUILD
T=$PERFINST_TOP/tests
PLUGIN=$B/perfinst.so
PMOPT=$B/pmopt
PILD=$B/perfinst-ld
export PERFINST_LIB_DIR=$B   # where perfinst-ld finds libperfinst

# pi_cc ARGS...: gcc with the plugin and the public header.  PI_CC_EXTRA:
# plugin arguments before ARGS (which override them), to run tests under
# another mode (`PI_CC_EXTRA=-fplugin-arg-perfinst-clean-copies=final`).
# shellcheck disable=SC2086
pi_cc() { gcc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" ${PI_CC_EXTRA:-} "$@"; }
# pi_ld ARGS...: the link driver.
pi_ld() { "$PILD" "$@"; }

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
# skip REASON: this script cannot run here (a tool or a file it needs is
# missing): say why and exit 77, which tests/run.sh counts as skipped,
# never as passed.
skip() { echo "SKIP: $*"; exit 77; }

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
    [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
    ok "$1 = $3"
}
# assert_contains WHAT FILE REGEX
assert_contains() {
    grep -Eq -- "$3" "$2" || { sed 's/^/    /' "$2" | head -40 >&2; fail "$1: no line matches /$3/ in $2"; }
    ok "$1"
}
# assert_not_contains WHAT FILE REGEX
assert_not_contains() {
    if grep -Eq -- "$3" "$2"; then grep -E -- "$3" "$2" | head >&2; fail "$1: a line matches /$3/ in $2"; fi
    ok "$1"
}
# cg_calls OUT CALLEE [CALLER]: the calls of the function CALLEE (its
# name as callgrind writes it) in the callgrind output OUT, from every
# caller or only from CALLER; callgrind names a function once, then by its
# number alone
cg_calls() {
    awk -v want="$2" -v from="${3:-}" '
        /^c?fn=/ { x = $0; sub(/^c?fn=/, "", x); id = x; sub(/\).*/, ")", id); nm = x; sub(/^\([0-9]+\) ?/, "", nm)
                   if (nm != "") name[id] = nm
                   if ($0 ~ /^cfn=/) callee = name[id]; else caller = name[id] }
        /^calls=/ && callee == want && (from == "" || caller == from) { split($1, a, "="); n += a[2] }
        END { print n + 0 }' "$1"
}
# Golden files (tests/DIR/golden/NAME): where the order and the content of
# an output matter, the test compares all of it with a file kept beside the
# test, rather than grepping for lines.
# golden_mask [SED-EXPR...]: stdin to stdout with what differs from build
# to build named instead: build-ids (BUILD-ID), the test's scratch
# directory (.), and whatever the sed expressions given replace.
golden_mask() {
    local args=(-E -e 's/[0-9a-f]{40}/BUILD-ID/g' -e "s|$(pwd)/|./|g") e
    for e in "$@"; do args+=(-e "$e"); done
    sed "${args[@]}"
}
# assert_golden WHAT FILE GOLDEN [SED-EXPR...]: FILE, masked, is GOLDEN
# (a path under tests/) line for line; a difference fails with the diff.
# PERFINST_GOLDEN=update writes GOLDEN instead (then review the diff in git).
assert_golden() {
    local what=$1 file=$2 golden=$T/$3
    shift 3
    golden_mask "$@" < "$file" > "$file.masked"
    if [ "${PERFINST_GOLDEN:-}" = update ]; then
        mkdir -p "$(dirname "$golden")"
        cp "$file.masked" "$golden"
        ok "$what: $golden written"
        return
    fi
    [ -e "$golden" ] || fail "$what: no golden file $golden (PERFINST_GOLDEN=update writes it)"
    diff -u "$golden" "$file.masked" >&2 || fail "$what: differs from ${golden#$T/}"
    ok "$what = ${golden#$T/}"
}

# expect_fail WHAT CMD...: CMD must exit non-zero (its output goes to ./err).
expect_fail() {
    local what=$1; shift
    if "$@" > err 2>&1; then cat err >&2; fail "$what: succeeded but should have failed"; fi
    ok "$what (refused)"
}

# need_libfuzzer: fail unless clang can build a libFuzzer harness
# (scripts/deps.sh installs clang and libclang-rt-14-dev).
need_libfuzzer() {
    printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' > probe.c
    clang -fsanitize=fuzzer probe.c -o probe 2>/dev/null ||
        fail "clang with libFuzzer is not installed (scripts/deps.sh installs clang and libclang-rt-14-dev)"
}

# build_thresh OPT: tests/indicators/thresh.c built at OPT (with -g, and
# -rdynamic so that the runtime names the handlers' callers) as ./th and
# run once (th.pit, out): 3 threshold events and 7 traps.
build_thresh() {
    pi_cc $1 -g -c "$T/indicators/thresh.c" -o th.o
    pi_ld $1 -rdynamic -o th th.o -ldl
    PERFINST_OUT=th.pit ./th > out
    assert_contains "$1: 3 threshold events, 7 traps" out "^events 3, traps 7, sum 1682$"
}

# build_hot: the relink tests' program, tests/relink/hot.c counted whole
# with a section per function and datum, linked as ./hot.
build_hot() {
    pi_cc -O2 -fplugin-arg-perfinst-all=count -ffunction-sections -fdata-sections \
        -c "$T/relink/hot.c" -o hot.o
    pi_ld -O2 -o hot hot.o -lm   # libm.so is a linker script: not an object to scan
}

# off_counts_nothing PROG WANT: with PERFINST_MODE=off ./PROG still prints
# WANT, and its trace counts nothing (pmopt report, by function).
off_counts_nothing() {
    PERFINST_MODE=off PERFINST_OUT=off.pit ./"$1" > out
    assert_eq "output, mode off" "$2" "$(cat out)"
    assert_eq "nothing counted with the mode off" "" \
        "$("$PMOPT" report ./"$1" off.pit --by=function --format=csv 2>/dev/null | awk -F, 'NR > 1 && $1 != 0')"
}

# run_exact PROG SRC WANT WHAT [ARG...]: run ./PROG ARG... (its trace
# PROG.pit, its output PROG.out), which must print WANT, and check every
# line's count against SRC's expect-count comments
# (tests/count/check-counts.py); WHAT names the case in the messages.
run_exact() {
    local prog=$1 src=$2 want=$3 what=$4
    shift 4
    rm -f "$prog.pit"
    PERFINST_OUT=$prog.pit ./"$prog" "$@" > "$prog.out"
    assert_eq "$what: the program's result" "$want" "$(cat "$prog.out")"
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./"$prog" "$src" "$prog.pit" > c || { cat c; fail "$what: counts"; }
    ok "$what: $(tail -1 c)"
}

# cfg_only_option KEY=VALUE SRC: an option that applies to functions
# counted at cfg only (switch-again, bare-return): with all=count at late
# (the default) the compiler notes so and SRC's code is the same instruction
# for instruction with it as without (the unit's id, which hashes the
# options, masked: objdump drops its leading zeros, so any width); at cfg
# no note.
cfg_only_option() {
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$2" -o cfgonly-late.o
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-"$1" -c "$2" -o cfgonly-opt.o 2> cfgonly-opt.err
    assert_contains "late, $1: the note" cfgonly-opt.err "note: perfinst: .$1. applies to functions counted at .cfg. only"
    for o in late opt; do
        objdump -d --no-show-raw-insn cfgonly-$o.o | tail -n +3 |
            sed -E 's/movabs \$0x[0-9a-f]+,/movabs $UNIT_ID,/' > cfgonly-$o.s
    done
    cmp -s cfgonly-late.s cfgonly-opt.s || { diff cfgonly-late.s cfgonly-opt.s | head; fail "late: $1 changed the code"; }
    ok "late: $1 changes no instruction"
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-"$1" \
        -c "$2" -o cfgonly-cfg.o 2> cfgonly-cfg.err
    assert_not_contains "cfg, $1: no note" cfgonly-cfg.err "applies to functions counted at"
}

# screenshot PAGE W,H: headless chromium draws the HTML file PAGE (in the
# current directory) at W×H into shot.png, which must not be blank
# (pmopt/pngstat.py).
screenshot() {
    command -v chromium > /dev/null || fail "chromium is not installed (scripts/deps.sh installs it)"
    # --no-sandbox: the sandbox refuses to run as root, as CI does
    timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$PWD/profile" \
        --screenshot="$PWD/shot.png" --window-size="$2" "file://$PWD/$1" > chromium.log 2>&1 ||
        { tail chromium.log; fail "chromium could not open the page"; }
    [ -s shot.png ] || { tail chromium.log; fail "no screenshot"; }
    python3 "$T/pmopt/pngstat.py" shot.png > png.out || { cat png.out; fail "the screenshot is blank"; }
    ok "screenshot: $(cat png.out)"
}

# fuzz_cc ARGS...: clang building a libFuzzer harness with ASan and UBSan
# (every report fatal), as OSS-Fuzz builds one
# (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION: readers accept wrong CRCs),
# include/ and common/ on the include path.
fuzz_cc() {
    clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -pthread \
        -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/common" "$@"
}

# Outputs that are not regular files (common/piout.h): written to, never
# replaced.
# through_fifo FIFO COPY CMD...: make the FIFO, read it into COPY in the
# background (`cat`) while CMD runs, and check that FIFO is still a FIFO.
# The status of CMD is left in $fifo_rc.  The reader is never left waiting:
# when CMD did not open the FIFO (it failed early), opening it here (again
# until the reader is gone) ends the reader's wait with an empty COPY.
through_fifo() {
    local fifo=$1 copy=$2 reader
    shift 2
    rm -f "$fifo"
    mkfifo "$fifo"
    cat "$fifo" > "$copy" &
    reader=$!
    fifo_rc=0
    "$@" || fifo_rc=$?
    if [ ! -p "$fifo" ]; then
        kill "$reader" 2> /dev/null || true   # the FIFO it waits on has no name now
        fail "$*: $fifo was replaced ($(ls -l "$fifo" 2>&1))"
    fi
    # Until the reader has gone: a writer's open and close ends its wait in
    # open(), or its read, with EOF.  Once is not enough: under load the
    # reader may not have reached open() yet when a CMD that failed early
    # (and never opened the FIFO) returns, and would then wait for ever.
    while kill -0 "$reader" 2> /dev/null; do
        exec 3<> "$fifo"
        exec 3>&-
        sleep 0.05
    done
    wait "$reader" || true
    ok "$fifo: still a FIFO"
}
# null_device NAME: make NAME, here in the scratch directory, a character
# device like /dev/null (1, 3), for a command to write to (never the real
# /dev/null).  Root only: otherwise say SKIPPED and return 1.
null_device() {
    if [ "$(id -u)" != 0 ]; then
        echo "SKIPPED: -o to a character device: mknod needs root"
        return 1
    fi
    rm -f "$1"
    mknod -m 666 "$1" c 1 3 || fail "mknod $1 c 1 3"
}
# assert_null_device WHAT NAME: NAME is still the device null_device made.
assert_null_device() {
    [ -c "$2" ] && [ "$(stat -c %t,%T "$2")" = 1,3 ] ||
        fail "$1: $2 is no longer the null device: $(ls -l "$2")"
    ok "$1: $2 is still the null device"
}

# loop_of OBJ FUNC: "N F": the instructions of FUNC in OBJ from its
# first backward conditional jump's target to that jump (its loop's hot
# path as GCC lays it out), N, and how many of them refer to %fs, F;
# "none" without such a jump
loop_of() {
    objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
        python3 -c '
import sys
ins = []
for l in sys.stdin:
    a, _, t = l.partition(":")
    ins.append((int(a, 16), t.strip()))
for i, (a, t) in enumerate(ins):
    w = t.split()
    if w and w[0].startswith("j") and w[0] != "jmp" and len(w) > 1 and int(w[1], 16) < a:
        body = [u for b, u in ins[:i + 1] if b >= int(w[1], 16)]
        print(len(body), sum("%fs:" in u for u in body))
        break
else:
    print("none")'
}

# function_entries PROG TRACE FUNCTION: its entry count (pmopt report csv).
function_entries() {
    "$PMOPT" report "$1" "$2" --by=function --format=csv > entries.csv
    awk -F, -v f="$3" '$4 == f { print $2 }' entries.csv
}

# site_counts PROG TRACE: every site's count, "function site block arc
# count" by site (pmopt report --by=site)
site_counts() {
    "$PMOPT" report "$1" "$2" --by=site --format=csv 2> /dev/null |
        awk -F, 'NR > 1 { print $4, $3, $6, $8, $1 }' | sort -k2n
}

# same_line_counts WHAT PROG TRACE PROG2 TRACE2: PROG's trace counts some
# line, and every line (file, line, count) as PROG2's does
same_line_counts() {
    local what=$1
    "$PMOPT" report "$2" "$3" --by=line --format=csv 2> /dev/null | awk -F, 'NR > 1' | sort > lines.1
    "$PMOPT" report "$4" "$5" --by=line --format=csv 2> /dev/null | awk -F, 'NR > 1' | sort > lines.2
    [ -s lines.1 ] || fail "$what: no line counted"
    cmp -s lines.1 lines.2 || { diff lines.1 lines.2; fail "$what: other lines counted"; }
    ok "$what: the same $(wc -l < lines.1) lines counted"
}

# marked_count SRC PROG TRACE NAME: the count of SRC's line marked
# `/* @NAME */` in PROG's TRACE
marked_count() {
    local line
    line=$(grep -n "@$4 \*/" "$1" | cut -d: -f1)
    "$PMOPT" report "$2" "$3" --by=line --format=csv | awk -F, -v l="$line" 'NR > 1 && $3 == l { print $1 }'
}
