# bench/projects/pugixml.sh — pugixml 1.13 (C++, CMake) for
# bench/projects.sh: CMake with the flags in the environment and Debian's
# options (CMAKE_BUILD_TYPE=None as dh gives it; the shared library and the
# static one; the tests), plus the workload's program,
# bench/projects/pugixml/drive.cpp, compiled and linked against the shared
# library with the same flags.  Tests: pugixml-check (one ctest test; its
# own count of test cases, from the source directory as ctest runs it;
# "0 ?" when it dies before its summary).
# Workloads: pugixml-drive (load, walk, XPath queries, edits, indented and
# raw saves, a reload of the raw save) on XML catalogs
# bench/projects/pugixml/gen.py makes (train: seed 1, 16 MiB, the train
# queries and edits; test: seed 7, 16 MiB, the test ones), its counts and
# hashes on stdout.
P_PKG=pugixml=1.13-0.2
P_TREE=debian
P_LANG="c++"
P_EXES="build/libpugixml.so.1.13 build/pugixml-drive"
P_TESTEXES=build/pugixml-check
P_SPOT=_ZN4pugi8xml_node12append_childEPKc   # the driver's edits: once per item
P_VGSCALE=0.1

p_build() {
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=ON -DPUGIXML_BUILD_SHARED_AND_STATIC_LIBS=ON \
            -DPUGIXML_USE_VERSIONED_LIBDIR=OFF -DPUGIXML_BUILD_TESTS=1 &&
            cmake --build build -j2 &&
            cp "$P_DIR/pugixml/drive.cpp" build/ &&
            # shellcheck disable=SC2086
            $CXX $CXXFLAGS -Isrc -c build/drive.cpp -o build/drive.o &&
            # shellcheck disable=SC2086
            $CXX $CXXFLAGS -o build/pugixml-drive build/drive.o -Lbuild -lpugixml $LDFLAGS
    } > build.log 2>&1
}

p_test() {
    LD_LIBRARY_PATH=build build/pugixml-check > test-check.out 2>&1
    awk '/^Success: [0-9]+ tests passed/ { p = t = $2 }
         /^FAILURE: [0-9]+ out of [0-9]+ tests failed/ { t = $5; p = t - $2 }
         END { if (t) print p + 0, t; else print 0, "?" }' test-check.out
}

p_workload() {
    local mix=$1; shift
    local kb seed
    kb=$(scaled_kb 16384)   # bench/lib.sh
    case $mix in train) seed=1 ;; test) seed=7 ;; esac
    local corpus=.corpus-$seed-$kb.xml
    [ -s "$corpus" ] || python3 "$P_DIR/pugixml/gen.py" "$kb" "$seed" > "$corpus"
    LD_LIBRARY_PATH=build "$@" build/pugixml-drive "$corpus" "$mix"
}
