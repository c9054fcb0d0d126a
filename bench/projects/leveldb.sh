# bench/projects/leveldb.sh — LevelDB 1.23 (C++, CMake) for bench/projects.sh.
# CMake configures with the flags from the environment (CC, CXX, CFLAGS,
# CXXFLAGS, LDFLAGS: CMAKE_*_FLAGS' initial values; no build type, as
# Debian's); a static library, its tests (googletest, Debian's libgmock-dev)
# and db_bench.  Tests: ctest.  Workloads: db_bench (train: fillseq,
# fillrandom, readrandom; test: fillrandom, overwrite, readseq,
# readreverse, seekrandom), their names and found counts on stdout.
P_PKG=leveldb=1.23-4
P_TREE=debian
P_LANG="c c++"
P_EXES=build/db_bench
P_TESTEXES="build/*_test"              # relinked too: the tests run them
P_SPOT=_ZN7leveldb6DBImpl3GetERKNS_11ReadOptionsERKNS_5SliceEPNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
P_DEBDEPS="libgtest-dev libgmock-dev libbenchmark-dev"   # its tests and benchmarks with the system's googletest and benchmark
P_VGSCALE=0.1

# the references (cov, pgogen, pgouse, bolt) only run db_bench: its target
# alone (the tests are most of the build)
p_build() {
    local target=()
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target=(--target db_bench) ;; esac
    {
        cmake -S . -B build -DLEVELDB_BUILD_TESTS=ON -DLEVELDB_BUILD_BENCHMARKS=ON &&
            cmake --build build -j2 "${target[@]}"
    } > build.log 2>&1
}

p_test() { ctest_passed; }   # bench/lib.sh

p_workload() {
    local mix=$1; shift
    local n b
    n=$(awk -v s="${P_SCALE:-1}" 'BEGIN { printf "%d", 50000 * s }')
    case $mix in
    train) b=fillseq,fillrandom,readrandom ;;
    test) b=fillrandom,overwrite,readseq,readreverse,seekrandom ;;
    esac
    rm -rf .db-$mix
    # the benchmarks' names and found counts (timings and progress dropped)
    "$@" build/db_bench --benchmarks=$b --num="$n" --db="$PWD/.db-$mix" --threads=1 2>&1 |
        tr '\r' '\n' | sed 's/^[.][.][.] finished [0-9]* ops *//' |
        sed -n 's/^\([a-z]*\) *: .*\(([0-9]* of [0-9]* found)\).*/\1 \2/p; t; s/^\([a-z]*\) *: .*micros.op.*/\1/p'
}
