# bench/projects/fmtlib.sh — {fmt} 9.1.0 (C++, CMake) for bench/projects.sh:
# CMake with the flags in the environment (CMAKE_BUILD_TYPE=None as dh
# gives it, else fmt's CMakeLists picks Release and adds -O3), upstream's
# static library (Debian builds the shared one, with FMT_PEDANTIC, whose
# extra tests configure and build more CMake projects), FMT_TEST=ON: its
# googletest tests, which the +ds1 tarball builds with Debian's googletest
# (test/gtest is stripped; Debian's patch 0001 adds /usr/src/googletest as a
# subdirectory, so googletest is compiled with the same flags: the patched
# tree, and the package googletest, P_DEBDEPS), plus the workload's
# program, bench/projects/fmtlib/drive.cc, compiled and linked against
# build/libfmt.a with the same flags.  The references (cov, pgogen, pgouse,
# bolt) build the library's target alone and the program.  Tests: ctest
# one at a time, its count of tests passed.  Workloads: fmt-drive
# formatting a generated stream of values (train: seed 1, integers,
# strings, shortest doubles, width and alignment, format_to a
# memory_buffer; test: seed 7, {:.17g}, {:.30f} and {:e} of doubles and
# long doubles over the whole exponent range — Grisu's fallback and
# format_dragon's bigint —, named arguments, fmt::join, hexadecimal, octal
# and binary integers, long padded strings), each section's calls, bytes
# and FNV-1a hash on stdout.
P_PKG=fmtlib=9.1.0+ds1-2
P_TREE=debian
P_LANG="c++"
P_EXES=build/fmt-drive
P_TESTEXES="build/bin/*-test"          # relinked too: the tests run them
# fmt::vformat(string_view, format_args), the library's (src/format.cc):
# once per fmt::format call, and the driver prints how many it made (14 a
# round of train); its only other callers, the system_error paths, do not
# run, and it is no inline function (nm: a symbol of its own in every
# variant), called from the driver's unit only
P_SPOT=_ZN3fmt2v97vformatB5cxx11ENS0_17basic_string_viewIcEENS0_17basic_format_argsINS0_20basic_format_contextINS0_8appenderEcEEEE
P_DEBDEPS="googletest"                 # Debian's patch builds /usr/src/googletest with the tests
P_VGSCALE=0.05                         # the test mix: 125 k instructions a round at -O2, 2000 rounds

# shellcheck disable=SC2086   # CXXFLAGS and LDFLAGS are lists of words
p_build() {
    local target=()
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target=(--target fmt) ;; esac
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DFMT_TEST=ON -DFMT_DOC=OFF &&
            cmake --build build -j2 "${target[@]}" &&
            cp "$P_DIR/fmtlib/drive.cc" build/ &&
            $CXX $CXXFLAGS -Iinclude -c build/drive.cc -o build/drive.o &&
            $CXX $CXXFLAGS -o build/fmt-drive build/drive.o build/libfmt.a $LDFLAGS
    } > build.log 2>&1
}

p_test() { ctest_counts; }

# fmt-drive MIX ROUNDS (train: 100000 rounds, 2.1 G instructions at -O2;
# test: 40000, 5 G), scaled by P_SCALE
p_workload() {
    local mix=$1 n; shift
    case $mix in train) n=100000 ;; test) n=40000 ;; esac
    n=$(awk -v s="${P_SCALE:-1}" -v n="$n" 'BEGIN { n = int(n * s); if (n < 100) n = 100; printf "%d", n }')
    "$@" build/fmt-drive "$mix" "$n"
}
