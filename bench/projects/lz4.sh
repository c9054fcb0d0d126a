# bench/projects/lz4.sh — LZ4 1.9.4 (C, plain makefiles) for
# bench/projects.sh: Debian's build (debian/rules: `make CC=gcc V=1` at the
# top, CFLAGS and LDFLAGS from the environment, its CPPFLAGS
# -DLZ4F_PUBLISH_STATIC_FUNCTIONS added to CFLAGS and exported): liblz4
# (static and shared) and the lz4 CLI, which compiles the library's
# sources in (Debian's -llz4 is left unused).  Besides, upstream's
# lz4-wlib (programs/Makefile), the CLI linked to liblz4.so, for which the
# library is built with -DLZ4_PUBLISH_STATIC_FUNCTIONS too (what that
# target asks of it), and the test programs (tests/Makefile: datagen,
# frametest, fuzzer, decompress-partial*).  Tests: upstream's `make check`,
# test-lz4-essentials (tests/Makefile), its seven targets counted one by one, with
# test-decompress-partial and short fixed-seed runs of test-frametest
# and test-fuzzer (-i, not -T: a count that does not depend on the speed):
# 10 in all; Debian's `make test` (test-lz4, lz4c's 256 MB and 3 GB,
# 90 s fuzzers) takes too long here.  Workloads: text corpora
# bench/projects/xz/gen.py makes (train: seed 1, levels 1 and 9; test:
# seed 7, levels --fast=4, 4 with -B5 -BD and 12), each compressed by both
# CLIs (the same frame) and decompressed by both.
P_PKG=lz4=1.9.4-1
P_TREE=debian
P_LANG=c
P_EXES="programs/lz4 lib/liblz4.so.1.9.4 programs/lz4-wlib"
P_TESTEXES="tests/datagen tests/frametest tests/fuzzer tests/decompress-partial tests/decompress-partial-usingDict"
P_SPOT=LZ4F_compressUpdate   # once per block the CLI reads (4 MiB: the default -B7)
P_VGSCALE=0.1

p_build() {
    {
        export CPPFLAGS="-DLZ4F_PUBLISH_STATIC_FUNCTIONS -DLZ4_PUBLISH_STATIC_FUNCTIONS"
        CFLAGS="$CFLAGS $CPPFLAGS"
        make CC="$CC" V=1 &&
            make -C programs CC="$CC" V=1 lz4-wlib &&
            make -C tests CC="$CC" V=1 -j2 datagen frametest fuzzer decompress-partial decompress-partial-usingDict
    } > build.log 2>&1
}

# lz4_check TARGET [MAKEARGS...]: one target of tests/Makefile; p and n counted
lz4_check() {
    n=$((n + 1))
    echo "=== $*" >> test-make.out
    make -C tests "$@" >> test-make.out 2>&1 && p=$((p + 1)) || echo "=== $1: FAILED" >> test-make.out
}

p_test() {
    local t p=0 n=0
    : > test-make.out
    for t in test-lz4-basic test-lz4-multiple test-lz4-multiple-legacy test-lz4-frame-concatenation \
        test-lz4-testmode test-lz4-contentSize test-lz4-dict test-decompress-partial; do
        lz4_check $t
    done
    lz4_check test-frametest FUZZER_TIME="-i300 -s1"
    lz4_check test-fuzzer FUZZER_TIME="-i2000 -s1"
    echo "$p $n"
}

p_workload() {
    local mix=$1; shift
    local kb seed levels l c d
    kb=$(scaled_kb 16384)   # bench/lib.sh
    case $mix in train) seed=1 levels="1 9" ;; test) seed=7 levels="-fast=4 4,-B5,-BD 12" ;; esac
    local corpus=.corpus-$mix-$kb
    [ -s "$corpus" ] || python3 "$P_DIR/xz/gen.py" "$kb" "$seed" > "$corpus"
    export LD_LIBRARY_PATH=lib
    for l in $levels; do
        l="-${l//,/ }"
        for c in lz4 lz4-wlib; do
            # shellcheck disable=SC2086
            "$@" programs/$c -q $l -c "$corpus" > ".c.$c.lz4"
            echo "$c $l: $(wc -c < ".c.$c.lz4") bytes"
        done
        for d in lz4 lz4-wlib; do
            "$@" programs/$d -q -d -c ".c.lz4-wlib.lz4" | cmp -s - "$corpus" && echo "$d -d ($l): round trip ok"
        done
        cmp -s .c.lz4.lz4 .c.lz4-wlib.lz4 && echo "$l: the two CLIs' frames are the same"
    done
}
