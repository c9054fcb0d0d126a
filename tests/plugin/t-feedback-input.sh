#!/bin/bash
# timeout: 300
# A feedback file is an input of the compile, as a header is: -MD lists it
# (make rebuilds when it changes), and ccache never serves an object built
# with another content of the file at the same path, in its default direct
# mode, in depend mode and without direct mode (docs/layout.md, "The
# feedback file is an input").  Each object ccache hands out is compared
# with a fresh compile (no ccache) using the file's content at that moment.
source "$PERFINST_TOP/tests/lib.sh"
cat > x.c <<'C'
int hot(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
int main(void) { return hot(10) != 45; }
C
mkfb() {
    python3 - "$@" <<'PY'
import sys, zlib
out, lines = sys.argv[1], sys.argv[2:]
body = "perfinst-feedback 1\n" + "".join(l + "\n" for l in lines)
open(out, "w").write(body + "end %d 0x%08x\n" % (len(lines), zlib.crc32(body.encode())))
PY
}
mkfb hot.fb "1 function-tier fn=hot src=x.c tier=hot"
mkfb cold.fb "1 function-tier fn=hot src=x.c tier=cold"
CC="gcc -O2 -fplugin=$PLUGIN"
$CC -fplugin-arg-perfinst-feedback=hot.fb -c x.c -o ref-hot.o
$CC -fplugin-arg-perfinst-feedback=cold.fb -c x.c -o ref-cold.o
cmp -s ref-hot.o ref-cold.o && fail "the two feedback files give one object: the test cannot tell them apart"
objdump -h ref-hot.o | grep -q "\.text\.hot" || fail "tier=hot did not reach the object"
ok "the two feedback files give two objects"

# -MD and -MMD name the file; make rebuilds when it changes
cp hot.fb cur.fb
$CC -fplugin-arg-perfinst-feedback=cur.fb -MD -c x.c -o x.o
assert_contains "-MD lists the feedback file" x.d "^x\.o: x\.c cur\.fb "
$CC -fplugin-arg-perfinst-feedback=cur.fb -MMD -MP -c x.c -o x.o
assert_contains "-MMD lists it" x.d "^x\.o: x\.c cur\.fb$"
assert_contains "-MP: a phony target for it" x.d "^cur\.fb:$"
$CC -fplugin-arg-perfinst-feedback=cur.fb -E x.c -o x.i
assert_contains "gcc -E names it in a line marker" x.i '^# 1 "cur\.fb"$'
printf 'x.o: x.c\n\t%s -fplugin-arg-perfinst-feedback=cur.fb -MMD -c x.c -o x.o\n-include x.d\n' "$CC" > Makefile
make -s
make -q || fail "make: x.o not up to date after a build"
touch -d '+2 seconds' cur.fb
make -q && fail "make: x.o up to date although cur.fb changed"
ok "make rebuilds after cur.fb changed"
# without the plugin's line, nothing changes in the compile: same object
cmp x.o ref-hot.o || fail "-MMD/make changed the object"
ok "the objects built this way are the reference's"
# a project's forced include (-include config.h) or -imacros: the file's
# lines are read after them (pushed under them, a -include made cc1 crash),
# the compile takes the plan and the included macros
mkdir inc && cp hot.fb inc/ && printf '#define HOT_N 10\n' > inc/cfg.h
sed 's/hot(10)/hot(HOT_N)/' x.c > inc/x.c
for o in -include -imacros; do
    (cd inc && $CC -fplugin-arg-perfinst-feedback=hot.fb $o cfg.h -c x.c -o x.o) 2> inc.err || { cat inc.err; fail "$o with a feedback file"; }
    objdump -h inc/x.o | grep -q "\.text\.hot" || fail "$o: tier=hot did not reach the object"
    (cd inc && $CC -fplugin-arg-perfinst-feedback=hot.fb $o cfg.h -E x.c -o x.i) 2> inc.err || { cat inc.err; fail "$o, gcc -E, with a feedback file"; }
    assert_contains "$o, gcc -E: the plan's line marker" inc/x.i '^# 1 "hot\.fb"$'
    assert_contains "$o, gcc -E: its hash" inc/x.i '^#pragma perfinst_feedback 0x[0-9a-f]{16}$'
done
(cd inc && $CC -fplugin-arg-perfinst-feedback=hot.fb -include cfg.h -include cfg.h -c x.c -o x.o) || fail "two -include with a feedback file"
awk '/^# 1 "hot\.fb"$/ { fb = NR } /^# 1 "\.\/cfg\.h"/ { inc = NR } END { exit !(fb && inc && inc < fb) }' inc/x.i ||
    fail "-imacros: the plan's lines not after the included file's"
(cd inc && $CC -fplugin-arg-perfinst-feedback=hot.fb -include cfg.h -E x.c -o x.i)
awk '/^# 1 "hot\.fb"$/ { fb = NR } /^# 1 "\.\/cfg\.h"/ { inc = NR } END { exit !(fb && inc && inc < fb) }' inc/x.i ||
    fail "-include: the plan's lines not after the included file's"
ok "-include and -imacros: the compile takes the plan, gcc -E writes its lines after the included file"
# so a precompiled header -include names (CMake's target_precompile_headers) is used
(cd inc && $CC -x c-header cfg.h -o cfg.h.gch &&
    $CC -fplugin-arg-perfinst-feedback=hot.fb -include cfg.h -H -Winvalid-pch -c x.c -o x.o) 2> inc.err || { cat inc.err; fail "-include of a precompiled header"; }
assert_contains "-include: the precompiled header used" inc.err '^! \./cfg\.h\.gch$'
objdump -h inc/x.o | grep -q "\.text\.hot" || fail "-include of a precompiled header: tier=hot did not reach the object"
ok "-include of a precompiled header: used, the plan taken"

# ccache
command -v ccache > /dev/null || { echo "SKIP: ccache is not installed (scripts/deps.sh installs it)"; exit 77; }
stat() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
for mode in direct depend preprocessor; do
    export CCACHE_DIR=$PWD/cache-$mode
    unset CCACHE_DEPEND CCACHE_NODIRECT
    case $mode in
    depend) export CCACHE_DEPEND=1 ;;
    preprocessor) export CCACHE_NODIRECT=1 ;;
    esac
    ccache -z > /dev/null
    # build(FB): copy FB to cur.fb (the same path every time), compile
    # through ccache, and check the object against the reference
    build() {
        cp "$1.fb" cur.fb
        ccache $CC -fplugin-arg-perfinst-feedback=cur.fb -MD -c x.c -o x.o
        cmp -s x.o "ref-$1.o" || fail "$mode: ccache gave a stale object for $1.fb ($2)"
    }
    build hot "first build"
    build hot "unchanged"
    build cold "cur.fb changed"
    build hot "cur.fb changed back"
    build cold "and again"
    hits=$(( $(stat direct_cache_hit) + $(stat preprocessed_cache_hit) ))
    misses=$(stat cache_miss)
    assert_eq "$mode: hits (unchanged, back to hot, back to cold) and misses (hot, cold)" "3 2" "$hits $misses"
done
