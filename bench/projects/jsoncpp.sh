# bench/projects/jsoncpp.sh — JsonCpp 1.9.5 (C++, CMake) for
# bench/projects.sh: CMake with the flags in the environment and Debian's
# options (CMAKE_BUILD_TYPE=None as dh gives it, else CMake's Release adds
# -O3; the shared library only, no static or object library), but
# without the unit tests' post-build run (JSONCPP_WITH_POST_BUILD_UNITTEST,
# on in upstream's and Debian's builds): a failing test would fail the
# build, and p_test runs them.  Tests: ctest one at a time, as Debian's
# rules run them (the two reader/writer suites write their .actual files
# beside the same inputs):
# jsoncpp_readerwriter, jsoncpp_readerwriter_json_checker (runjsontests.py
# over test/data with jsontestrunner_exe) and jsoncpp_test.  Workloads:
# jsontestrunner_exe (parse, print every value's path, rewrite with a
# writer, parse the rewrite, print again) on JSON corpora
# bench/projects/jsoncpp/gen.py makes (train: seed 1, 4 MiB, named legacy_*
# so that the old Json::Reader parses it too, StyledWriter; then 2 MiB,
# BuiltStyledStreamWriter; test: seed 7, 6 MiB, StyledStreamWriter and
# BuiltStyledStreamWriter), the outputs' sizes and md5sums on stdout.
P_PKG=libjsoncpp=1.9.5-4
P_TREE=debian
P_LANG="c++"
P_EXES="build/lib/libjsoncpp.so.1.9.5 build/bin/jsontestrunner_exe"
P_TESTEXES=build/bin/jsoncpp_test
# Json::Value::operator[](std::string const&): jsontestrunner's printValueTree,
# once per object member printed (two trees per run, four for legacy_*)
P_SPOT=_ZN4Json5ValueixERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
P_VGSCALE=0.1

p_build() {
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DBUILD_STATIC_LIBS=OFF -DBUILD_OBJECT_LIBS=OFF \
            -DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF &&
            cmake --build build -j2
    } > build.log 2>&1
}

p_test() { ctest_counts; }

# jt SEED KB NAME WRITER... [-- WRAPPER...]: the corpus of SEED and KB KiB as
# .corpus-SEED-KB/NAME.json, jsontestrunner_exe run on it with each WRITER
jt() {
    local seed=$1 kb=$2 name=$3 w; shift 3
    local ws=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do ws+=("$1"); shift; done
    [ $# -eq 0 ] || shift
    kb=$(awk -v s="${P_SCALE:-1}" -v k="$kb" 'BEGIN { k = k * s; if (k < 16) k = 16; printf "%d", k }')
    local d=.corpus-$seed-$kb
    mkdir -p "$d"
    [ -s "$d/$name.json" ] || python3 "$P_DIR/jsoncpp/gen.py" "$kb" "$seed" > "$d/$name.json"
    for w in "${ws[@]}"; do
        rm -f "$d/$name.actual" "$d/$name.rewrite" "$d/$name.actual-rewrite"
        LD_LIBRARY_PATH=build/lib "$@" build/bin/jsontestrunner_exe --json-writer "$w" "$d/$name.json" ||
            echo "$name $w: status $?"
        (cd "$d" && for f in "$name.actual" "$name.rewrite" "$name.actual-rewrite"; do
            [ -f "$f" ] && echo "$w $(wc -c < "$f") $(md5sum < "$f" | cut -c1-32) $f"
        done)
    done
}

p_workload() {
    local mix=$1; shift
    if [ "$mix" = train ]; then
        jt 1 4096 legacy_train StyledWriter -- "$@"
        jt 1 2048 train BuiltStyledStreamWriter -- "$@"
    else
        jt 7 6144 test StyledStreamWriter BuiltStyledStreamWriter -- "$@"
    fi
}
