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
