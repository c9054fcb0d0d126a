# bench/projects/tinyxml2.sh — TinyXML-2 9.0.0 (C++, CMake) for
# bench/projects.sh: CMake with the flags in the environment and Debian's
# options (CMAKE_BUILD_TYPE=None as dh gives it; BUILD_SHARED_LIBS, the
# library hidden but for its API; xmltest, which include(CTest) builds),
# plus the workload's program, bench/projects/tinyxml2/drive.cpp, compiled
# and linked against the shared library with the same flags.  Tests:
# xmltest (one ctest test; its own count of checks, "Pass N, Fail M", run
# from the source directory as ctest runs it: it reads resources/ and
# writes resources/out/; "0 ?" when it dies before its summary).
# Workloads: tinyxml2-drive (parse, walk with an XMLVisitor, queries, edits,
# print, parse the printout again; the train mix loads the file with
# whitespace preserved and entities processed, reads int and double
# attributes, appends a child to every item and prints indented; the test
# mix parses from memory with whitespace collapsed and entities left,
# reads int64, bool, unsigned and float attributes, inserts CDATA children
# first, deletes children, deep-clones the document and prints compact) on
# XML catalogs bench/projects/pugixml/gen.py makes, less their processing
# instructions inside elements, which TinyXML-2 refuses (train: seed 1,
# test: seed 7; 16 MiB each), its counts and hashes on stdout.
P_PKG=tinyxml2=9.0.0+dfsg-3.1
P_TREE=debian
P_LANG="c++"
P_EXES="build/libtinyxml2.so.9.0.0 build/tinyxml2-drive"
P_TESTEXES=build/xmltest
P_SPOT=_ZN8tinyxml210XMLElement21InsertNewChildElementEPKc   # the train mix's edits: once per item
P_VGSCALE=0.1

# (CXXFLAGS and LDFLAGS split into words on purpose)
# shellcheck disable=SC2086
p_build() {
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=yes &&
            cmake --build build -j2 &&
            cp "$P_DIR/tinyxml2/drive.cpp" build/ &&
            $CXX $CXXFLAGS -I. -c build/drive.cpp -o build/drive.o &&
            $CXX $CXXFLAGS -o build/tinyxml2-drive build/drive.o -Lbuild -ltinyxml2 $LDFLAGS
    } > build.log 2>&1
}

p_test() {
    mkdir -p resources/out
    LD_LIBRARY_PATH=build build/xmltest > test-xmltest.out 2>&1
    awk '/^Pass [0-9]+, Fail [0-9]+/ { sub(",", "", $2); p = $2; t = $2 + $4 }
         END { if (t) print p + 0, t; else print 0, "?" }' test-xmltest.out
}

p_workload() {
    local mix=$1; shift
    local kb seed
    kb=$(scaled_kb 16384)   # bench/lib.sh
    case $mix in train) seed=1 ;; test) seed=7 ;; esac
    local corpus=.corpus-$seed-$kb.xml
    # less the processing instructions inside elements: TinyXML-2 takes any <?...?> for a declaration,
    # which it accepts only before the root element (XML_ERROR_PARSING_DECLARATION)
    [ -s "$corpus" ] || python3 "$P_DIR/pugixml/gen.py" "$kb" "$seed" | grep -v '^ *<?render ' > "$corpus"
    LD_LIBRARY_PATH=build "$@" build/tinyxml2-drive "$corpus" "$mix"
}
