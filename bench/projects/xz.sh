# bench/projects/xz.sh — XZ Utils 5.4.1 (autotools, libtool; threaded) for
# bench/projects.sh: ./configure out of the source tree (obj/) with the
# flags in the environment (liblzma shared, -fPIC through libtool; no docs,
# no NLS), make, make check (its 18 tests).  Workloads: the xz CLI
# (obj/src/xz/.libs/xz, run with LD_LIBRARY_PATH, not libtool's wrapper)
# compressing and decompressing text corpora bench/projects/xz/gen.py makes
# (train: seed 1, presets 1 and 6; test: seed 7, presets 3 and 0 -e), -T1
# so that valgrind's counts repeat (the threaded encoder: -T2 in
# bench/RESULTS.md's sharing run).
P_PKG=xz-utils=5.4.1-1+deb12u2
P_TREE=debian
P_LANG=c
P_EXES="obj/src/liblzma/.libs/liblzma.so.5.4.1 obj/src/xz/.libs/xz"
P_SPOT=lzma_block_encoder_init          # once per block
P_VGSCALE=0.1

p_build() {
    {
        mkdir -p obj && (cd obj && ../configure --disable-doc --disable-nls && make -j2)
    } > build.log 2>&1
}

p_test() {
    (cd obj && make check > ../test-check.out 2>&1)
    awk '/^# TOTAL:/ { t = $3 } /^# PASS:/ { p = $3 } END { print p + 0, t + 0 }' test-check.out
}

p_workload() {
    local mix=$1; shift
    local kb seed presets p
    kb=$(scaled_kb 8192)   # bench/lib.sh
    case $mix in train) seed=1 presets="1 6" ;; test) seed=7 presets="3 0e" ;; esac
    local corpus=.corpus-$mix-$kb
    [ -s "$corpus" ] || python3 "$P_DIR/xz/gen.py" "$kb" "$seed" > "$corpus"
    export LD_LIBRARY_PATH=obj/src/liblzma/.libs
    for p in $presets; do
        p=-${p/e/ -e}
        # shellcheck disable=SC2086
        "$@" obj/src/xz/.libs/xz -q -T1 $p -c "$corpus" > ".c.xz"
        echo "preset $p: $(wc -c < .c.xz) bytes"
        "$@" obj/src/xz/.libs/xz -q -d -c .c.xz | cmp -s - "$corpus" && echo "preset $p: round trip ok"
    done
}
