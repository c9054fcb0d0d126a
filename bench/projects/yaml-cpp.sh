# bench/projects/yaml-cpp.sh — yaml-cpp 0.7.0 (C++ with exceptions, CMake)
# for bench/projects.sh: CMake with the flags in the environment and
# Debian's options (CMAKE_BUILD_TYPE=None as dh gives it; the static
# library, debian/rules' first build; the tools; the tests against
# Debian's googletest sources, /usr/src/googletest, built with the same
# flags as the +dfsg tarball leaves upstream's copy out:
# use-archive-googletest.patch), plus the workload's program,
# bench/projects/yaml-cpp/drive.cc, compiled and linked against
# build/libyaml-cpp.a with the same flags.  The references (cov, pgogen,
# pgouse, bolt) build the library alone and the program.  Tests: the one
# googletest program, yaml-cpp-tests (its 1,000-odd tests: the spec's
# examples, the emitter's, the node API's, the parser's), counted test by
# test from its own summary.  Workloads: yaml-drive over YAML documents
# bench/projects/yaml-cpp/gen.py makes (train: seed 1, 2 MiB, 2 rounds of
# Load, a walk reading each scalar through as<T>() and its
# TypedBadConversion exceptions, a block emit; test: seed 7, 2 MiB, a
# rebuild of each tree through the Node API with as<T>(fallback), a
# BadSubscript caught, Clone, a flow emit, then the event parser), each
# section's count and hash.
#
# The exact-count check: 933 of 936 functions; the other three follow the
# environment, not the counting (bench/RESULTS.md 2026-12-07 19:00):
# EmitterState::SetFlowType and ostream_wrapper::update_pos are called
# 141,608 and 3,757,852 times, gcov says 0 — --coverage turns ipa-split
# off, so its early inliner takes both whole into their one caller
# (SetLocalValue, write), where -O2's (plain's and the count build's) cuts
# SetFlowType first and inlines later; and std::string's
# _M_construct<char*>::_Guard::~_Guard, 140 more than gcov (one per
# parse error): the linker keeps another unit's copy of YAML::Exception's
# constructor (the cov build's drive.o has one, -O2's inlines it
# everywhere and keeps parser.cpp's), inlined otherwise.
P_PKG=yaml-cpp=0.7.0+dfsg-8
P_TREE=debian
P_LANG="c++"
P_EXES=build/yaml-drive
P_TESTEXES=build/test/yaml-cpp-tests     # relinked too: the tests run it
# YAML::Scanner::ScanPlainScalar(): once per plain scalar scanned; the
# corpus of the training run fixes their number (the Load of each document)
P_SPOT=_ZN4YAML7Scanner15ScanPlainScalarEv
P_DEBDEPS="googletest libgtest-dev"    # /usr/src/googletest, find_package(GTest)
P_VGSCALE=0.1

# shellcheck disable=SC2086   # CXXFLAGS and LDFLAGS are lists of words
p_build() {
    local target=() tests=ON
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target=(--target yaml-cpp) tests=OFF ;; esac
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DYAML_CPP_BUILD_TOOLS=ON -DYAML_CPP_BUILD_TESTS=$tests \
            -Dgtest_disable_pthreads=OFF -DINSTALL_GTEST=OFF &&
            cmake --build build -j2 "${target[@]}" &&
            $CXX $CXXFLAGS -Iinclude -c "$P_DIR/yaml-cpp/drive.cc" -o build/drive.o &&
            $CXX $CXXFLAGS -o build/yaml-drive build/drive.o build/libyaml-cpp.a $LDFLAGS
    } > build.log 2>&1
}

# the googletest program's own count: "[  PASSED  ] N tests." of "[==========] T tests from ... ran."
p_test() {
    build/test/yaml-cpp-tests > test-gtest.out 2>&1
    awk '/^\[==========\] [0-9]+ tests? from .* ran/ { t = $2 } /^\[  PASSED  \] [0-9]+ test/ { p = $4 }
        END { print p + 0, (t == "" ? "?" : t) }' test-gtest.out
}

# yaml-drive MIX CORPUS ROUNDS (train: 2 MiB, 2 rounds; test: 2 MiB, 1
# round), the corpus scaled by P_SCALE
p_workload() {
    local mix=$1 kb seed r f; shift
    case $mix in train) seed=1 r=2 ;; test) seed=7 r=1 ;; esac
    kb=$(awk -v s="${P_SCALE:-1}" 'BEGIN { k = 2048 * s; if (k < 16) k = 16; printf "%d", k }')
    f=.yaml-$seed-$kb.yaml
    [ -s "$f" ] || python3 "$P_DIR/yaml-cpp/gen.py" "$kb" "$seed" > "$f"
    "$@" build/yaml-drive "$mix" "$f" "$r"
}
