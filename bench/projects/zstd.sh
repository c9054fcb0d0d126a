# bench/projects/zstd.sh — zstd 1.5.4 (Debian's libzstd source) for
# bench/projects.sh.  Its own makefiles, the flags in the environment (the
# makefiles read CFLAGS/LDFLAGS with ?= and add their own): the shared
# library with threads (lib: libzstd-mt), the CLI linked to it
# (programs: zstd-dll; 1.5.4's target forgets the thread pool the CLI calls
# beside the library's API, so the make variable ZSTDLIB_LOCAL_SRC adds
# pool.c, threading.c, zstd_common.c and error_private.c),
# datagen for the tests.  Tests: tests/playTests.sh
# (what `make check` runs) on the dll CLI.  Workloads: the CLI compressing
# and decompressing corpora datagen makes (train: seed 1, levels 3 and 9;
# test: seed 7, levels 1 and 5), -T1 so that valgrind's counts repeat.
P_PKG=libzstd=1.5.4+dfsg2-5
P_TREE=debian
P_LANG=c
P_EXES="lib/libzstd.so.1.5.4 programs/zstd"
P_SPOT=ZSTD_compressBegin_internal   # once per compressed frame: 1 per file
P_VGSCALE=0.1

p_build() {
    {
        make -C lib -j2 libzstd-mt &&
            make -C programs -j2 zstd-dll ZSTDLIB_LOCAL_SRC="xxhash.c pool.c threading.c zstd_common.c error_private.c" &&
            make -C tests -j2 datagen
    } > build.log 2>&1
}

p_test() {
    (cd tests && LD_LIBRARY_PATH=../lib ZSTD_BIN=../programs/zstd DATAGEN_BIN=./datagen \
        ./playTests.sh > ../test-playTests.out 2>&1) && echo "1 1" || echo "0 1"
}

# p_workload MIX [WRAPPER...]
p_workload() {
    local mix=$1; shift
    local mb seed levels
    mb=$(awk -v s="${P_SCALE:-1}" 'BEGIN { m = 20 * s; if (m < 1) m = 1; printf "%d", m }')
    case $mix in train) seed=1 levels="3 9" ;; test) seed=7 levels="1 5" ;; esac
    local corpus=.corpus-$mix-$mb
    [ -s "$corpus" ] || tests/datagen -g${mb}M -s$seed -P50 > "$corpus"
    local l
    for l in $levels; do
        LD_LIBRARY_PATH=lib "$@" programs/zstd -q -T1 -$l -c "$corpus" > ".c$l.zst"
        echo "level $l: $(wc -c < ".c$l.zst") bytes"
        LD_LIBRARY_PATH=lib "$@" programs/zstd -q -d -c ".c$l.zst" | cmp -s - "$corpus" && echo "level $l: round trip ok"
    done
}
