# bench/projects/zlib.sh — zlib 1.2.13 (C, its own hand-written ./configure,
# not autotools) for bench/projects.sh: Debian's build (debian/rules:
# ./configure --shared with CFLAGS and LDFLAGS in the environment, Debian's
# -DUNALIGNED_OK and -D_REENTRANT added to CFLAGS, make) but not its -O3:
# libz.a, libz.so.1.2.13 (its objects compiled again with -fPIC -DPIC into
# .lo), and the test programs example and minigzip (and example64 and
# minigzip64, -D_FILE_OFFSET_BITS=64) linked statically and examplesh and
# minigzipsh linked to libz.so.  configure's shared-library check links
# without LDFLAGS; the library's own link has them (perfinst's link
# stage).  Tests: `make test` (teststatic, testshared and test64: each
# `echo hello world` through minigzip and back, then example's checks,
# "*** zlib ... test OK ***"): 3.  Workloads: minigzipsh (the gz*
# interface over libz.so: gzwrite, deflate, gzread, inflate, crc32), stdin
# to stdout, compressing and decompressing text corpora
# bench/projects/xz/gen.py makes (train: seed 1, levels 1, 6 and 9; test:
# seed 7, levels 3, 5 with Z_FILTERED and 8); the compressed sizes and
# whether each round trip gave the corpus back on stdout.
P_PKG=zlib=1:1.2.13.dfsg-1
P_TREE=debian
P_LANG=c
P_EXES="libz.so.1.2.13 minigzipsh"
P_TESTEXES="example minigzip examplesh example64 minigzip64"
P_SPOT=gzwrite      # minigzip's gz_compress: once per 16 KiB it reads
P_VGSCALE=0.1

p_build() {
    {
        CFLAGS="$CFLAGS -Wall -D_REENTRANT -DUNALIGNED_OK" ./configure --shared &&
            make -j2 all
    } > build.log 2>&1
}

p_test() {
    local n
    # the tests `make test` runs: configure's TEST less "all"
    n=$(sed -n 's/^test: *all *//p' Makefile | wc -w)
    make test > test-make.out 2>&1 || true
    awk -v n="$n" '/\*\*\* zlib .*test OK \*\*\*/ { p++ } END { print p + 0, n }' test-make.out
}

p_workload() {
    local mix=$1; shift
    local kb seed levels l
    kb=$(scaled_kb 8192)   # bench/lib.sh
    case $mix in train) seed=1 levels="1 6 9" ;; test) seed=7 levels="3 5,-f 8" ;; esac
    local corpus=.corpus-$mix-$kb
    [ -s "$corpus" ] || python3 "$P_DIR/xz/gen.py" "$kb" "$seed" > "$corpus"
    export LD_LIBRARY_PATH=.
    for l in $levels; do
        l="-${l//,/ }"
        # shellcheck disable=SC2086
        "$@" ./minigzipsh $l < "$corpus" > .c.gz
        echo "minigzip $l: $(wc -c < .c.gz) bytes"
        "$@" ./minigzipsh -d < .c.gz | cmp -s - "$corpus" && echo "minigzip $l: round trip ok"
    done
}
