# bench/projects/jsonc.sh — json-c 0.16 (C, CMake; Debian's json-c: a JSON
# library of reference-counted objects, a tokenizer and a serialiser) for
# bench/projects.sh: Debian's build (dh's CMake in build/,
# CMAKE_BUILD_TYPE=None: the environment's CFLAGS alone; hardening left
# out; json-c adds its own -Werror and warnings), which builds
# libjson-c.so.5.2.0, libjson-c.a, the apps (json_parse) and, BUILD_TESTING
# on, the test programs; and the workload's program,
# bench/projects/jsonc/drive.c, compiled and linked to build/libjson-c.so
# with the same flags.  The references (cov, pgogen, pgouse, bolt) build
# without the tests.  Tests: ctest in build/ (each tests/NAME.test runs
# its program and compares its output with NAME.expected: 23).  Workloads: jdrive (drive.c) on a document
# bench/projects/jsonc/gen.py makes — train: seed 1, records of short
# strings, small integers, booleans and nulls, shallow nesting; test:
# seed 7, doubles, 64-bit integers, deeper nesting, longer strings, ASCII
# escapes of non-ASCII text: parsed in 4 KiB pieces, then per round walked,
# serialised three ways, deep-copied, compared, its arrays sorted, paths
# looked up, records edited.  jdrive hashes keys by json-c's perl-like
# hash: the default one seeds itself at random (the tables' collisions,
# and so the counts, would move from run to run).
P_PKG=json-c=0.16-2
P_TREE=debian
P_LANG=c
P_EXES="build/libjson-c.so.5.2.0 build/jdrive"
P_TESTEXES="build/tests/test*"
P_SPOT=json_tokener_parse_ex     # once per 4 KiB piece of the document
P_VGSCALE=0.25

# shellcheck disable=SC2086   # CFLAGS and LDFLAGS are lists of words
p_build() {
    local tests=ON
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) tests=OFF ;; esac
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DBUILD_TESTING=$tests &&
            cmake --build build -j2 &&
            mkdir -p build/inc/json-c && cp ./*.h build/*.h build/inc/json-c/ &&
            $CC $CFLAGS -Ibuild/inc -c "$P_DIR/jsonc/drive.c" -o build/drive.o &&
            $CC $CFLAGS -o build/jdrive build/drive.o -Lbuild -ljson-c -Wl,-rpath,"$PWD/build" $LDFLAGS
    } > build.log 2>&1
}

p_test() {
    ctest_counts    # bench/lib.sh
}

p_workload() {
    local mix=$1; shift
    local kb rounds seed
    kb=$(scaled_kb 2048)   # bench/lib.sh
    case $mix in train) seed=1 rounds=3 ;; test) seed=7 rounds=2 ;; esac
    local doc=.doc-$mix-$kb.json
    [ -s "$doc" ] || python3 "$P_DIR/jsonc/gen.py" "$kb" "$seed" "$mix" > "$doc"
    "$@" build/jdrive "$doc" "$rounds"
}
