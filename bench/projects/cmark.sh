# bench/projects/cmark.sh — cmark 0.30.2 (C, CMake; the CommonMark
# reference implementation) for bench/projects.sh: CMake with the flags in
# the environment and Debian's options (dh --buildsystem=cmake:
# CMAKE_BUILD_TYPE=None), but -DCMARK_STATIC=OFF: with the static library
# built (upstream's and Debian's default) the cmark program links it, not
# libcmark.so; this way the program, api_test and the Python tests all run
# the shared library.  Tests: ctest's 9 (api_test; with python3:
# html_normalization, the spec, pathological, roundtrip and entity tests
# through libcmark.so by ctypes, and the spec, smart-punctuation and
# regression tests through the cmark program; without python3 CMake adds
# one test that only says so, skipping_spectests, and this recipe counts
# what ctest ran).  Workloads: the cmark program rendering Markdown
# corpora bench/projects/cmark/gen.py makes, each output's size and md5 on
# stdout (train: seed 1, the prose mix (paragraphs of inline markup,
# headings, quotes) to HTML and to man; test: seed 7, the struct mix
# (nested lists, code blocks, pipe tables, HTML blocks, reference links)
# to HTML with --smart --sourcepos, to XML and to LaTeX --width 72).
P_PKG=cmark=0.30.2-6
P_TREE=debian
P_LANG=c
P_EXES="build/src/libcmark.so.0.30.2 build/src/cmark"
P_TESTEXES=build/api_test/api_test
P_SPOT=cmark_parser_feed    # the cmark program feeds the parser once per 4 KiB it reads (main.c)
P_VGSCALE=0.1

p_build() {
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DCMARK_STATIC=OFF &&
            cmake --build build -j2
    } > build.log 2>&1
}

p_test() {
    ctest_counts
}

p_workload() {
    local mix=$1; shift
    local kb seed gmix fmts f
    kb=$(scaled_kb 8192)   # bench/lib.sh
    case $mix in
    train) seed=1 gmix=prose fmts="html man" ;;
    test) seed=7 gmix=struct fmts="html,--smart,--sourcepos xml latex,--width,72" ;;
    esac
    local corpus=.corpus-$gmix-$seed-$kb.md
    [ -s "$corpus" ] || python3 "$P_DIR/cmark/gen.py" "$kb" "$seed" "$gmix" > "$corpus"
    for f in $fmts; do
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH=build/src "$@" build/src/cmark --to ${f//,/ } "$corpus" > .out
        echo "--to ${f//,/ }: $(wc -c < .out) bytes, md5 $(md5sum < .out | cut -d' ' -f1)"
    done
}
