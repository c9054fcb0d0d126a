# bench/projects/snappy.sh — Snappy 1.1.9 (C++, CMake) for bench/projects.sh:
# CMake with the flags in the environment and Debian's options (a shared
# library and a static one, googletest from the system; the benchmark off),
# zlib's comparison off (HAVE_LIBZ=0: snappy_test_tool would spend most of
# its time in zlib).  Tests: ctest (snappy_unittest).  Workloads (no
# scale: the programs take no size): train, snappy_unittest's round trip of
# every file of testdata/ and its copy-pattern cases (the tests' names and
# verdicts on stdout); test, snappy_test_tool compressing and uncompressing
# testdata/html in 10 MB worth of repetitions (its size and ratio on
# stdout, the speeds dropped).
P_PKG=snappy=1.1.9-3
P_TREE=debian
P_LANG="c++"
P_EXES="build/libsnappy.so.1.1.9 build/snappy_test_tool build/libsnappy_test_support.so"
P_TESTEXES=build/snappy_unittest
P_SPOT=_ZN6snappy8internal16CompressFragmentEPKcmPcPti   # once per 64 KiB fragment
P_DEBDEPS="libgtest-dev libgmock-dev"   # its tests with the system's googletest
P_VGSCALE=1

p_build() {
    {
        cmake -S . -B build -DBUILD_SHARED_LIBS=ON -DSNAPPY_USE_BUNDLED_GTEST=OFF \
            -DSNAPPY_USE_BUNDLED_BENCHMARK_LIB=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF -DHAVE_LIBZ=0 &&
            cmake --build build -j2
    } > build.log 2>&1
}

p_test() { ctest_passed; }   # bench/lib.sh

p_workload() {
    local mix=$1; shift
    if [ "$mix" = train ]; then
        LD_LIBRARY_PATH=build "$@" build/snappy_unittest \
            --gtest_filter=Snappy.TestBenchmarkFiles:Snappy.AppendSelfPatternExtensionEdgeCasesExhaustive 2>&1 |
            sed -n 's/^\[ *\(OK\|FAILED\) *\] \([A-Za-z.]*\).*/\1 \2/p'
    else
        LD_LIBRARY_PATH=build "$@" build/snappy_test_tool testdata/html 2>&1 | sed -n 's/^\(SNAPPY: .*%\).*/\1/p'
    fi
}
