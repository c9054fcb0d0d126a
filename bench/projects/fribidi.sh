# bench/projects/fribidi.sh — GNU FriBidi 1.0.8 (meson) for
# bench/projects.sh: meson setup with the flags in the environment (a
# static library, no docs), ninja, meson test (its six reference tests
# and the two Unicode conformance tests).  Workloads: the conformance
# programs (train: BidiTest over BidiTest.txt; test: BidiCharacterTest over
# BidiCharacterTest.txt), their summary lines on stdout.
P_PKG=fribidi=1.0.8-2.1
P_TREE=debian
P_LANG=c
P_EXES="build/test/unicode-conformance/BidiTest build/test/unicode-conformance/BidiCharacterTest"
P_TESTEXES=build/bin/fribidi          # relinked too: the reference tests run it
P_SPOT=fribidi_get_par_embedding_levels_ex   # once per test case
P_VGSCALE=0.5

p_build() {
    {
        meson setup build -Ddocs=false -Ddefault_library=static &&
            ninja -C build -j2
    } > build.log 2>&1
}

p_test() { meson_passed; }   # bench/lib.sh

p_workload() {
    local mix=$1; shift
    local prog=BidiTest
    [ "$mix" = train ] || prog=BidiCharacterTest
    local in=test/unicode-conformance/$prog.txt
    if [ "${P_SCALE:-1}" != 1 ]; then
        local lines
        lines=$(awk -v s="$P_SCALE" -v n="$(wc -l < "$in")" 'BEGIN { printf "%d", n * s }')
        head -n "$lines" "$in" > ".$prog-$lines.txt"
        in=.$prog-$lines.txt
    fi
    "$@" build/test/unicode-conformance/$prog "$in" 2>&1 | tail -3
}
