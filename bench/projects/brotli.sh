# bench/projects/brotli.sh — Brotli 1.0.9 (C, CMake) for bench/projects.sh:
# CMake with the flags in the environment and Debian's build type (None:
# brotli's CMakeLists would otherwise pick Release and its -O3), the
# shared libraries libbrotli{common,dec,enc} and their static twins, and
# the CLI, which 1.0.9 links to the static ones.  Tests: ctest, the CLI's
# round trips (sources of its own at qualities 1, 6, 9, 11; Debian's tree
# lacks the corpus files alice29.txt & co.) and its decoding of
# testdata/*.compressed.  Workloads: the CLI (build/brotli) compressing and
# decompressing text corpora bench/projects/xz/gen.py makes (train: seed
# 1, qualities 5 and 9; test: seed 7, qualities 2, 7 and 10 with -w 18).
# The shared libraries, which no workload runs, are relinked too
# (P_TESTEXES: with the CLI's plan, whose functions they hold).
P_PKG=brotli=1.0.9-2      # 1.0.9-2+deb12u1 is listed but not served (404)
P_TREE=debian
P_LANG=c
P_EXES="build/brotli"
P_TESTEXES="build/libbrotlicommon.so.1.0.9 build/libbrotlidec.so.1.0.9 build/libbrotlienc.so.1.0.9"
P_SPOT=BrotliStoreMetaBlock   # once per meta-block at qualities 4 to 9
P_VGSCALE=0.05

p_build() {
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None && cmake --build build -j2
    } > build.log 2>&1
}

p_test() { ctest_passed; }   # bench/lib.sh

p_workload() {
    local mix=$1; shift
    local kb seed qs q
    kb=$(scaled_kb 4096)   # bench/lib.sh
    case $mix in train) seed=1 qs="5 9" ;; test) seed=7 qs="2 7w18 10w18" ;; esac
    local corpus=.corpus-$mix-$kb
    [ -s "$corpus" ] || python3 "$P_DIR/xz/gen.py" "$kb" "$seed" > "$corpus"
    for q in $qs; do
        q="-q ${q/w/ -w }"
        # shellcheck disable=SC2086
        "$@" build/brotli $q -c "$corpus" > .c.br
        echo "$q: $(wc -c < .c.br) bytes"
        "$@" build/brotli -d -c .c.br | cmp -s - "$corpus" && echo "$q: round trip ok"
    done
}
