# bench/projects/harfbuzz.sh — HarfBuzz 6.0.0 (C++ templates, meson) for
# bench/projects.sh: meson setup with the flags in the environment, the
# static libraries (libharfbuzz, libharfbuzz-subset), FreeType and GLib
# (hb-shape and hb-subset need GLib's option parser; the API tests need
# GLib too), and the optional dependencies it does not need turned off
# (cairo, chafa, ICU, graphite2, GObject, introspection, docs, the
# benchmarks).  The references (cov, pgogen, pgouse, bolt) build hb-shape
# alone.  Tests: meson test (the API tests, the shaping tests through
# hb-shape, the subsetting tests through hb-subset, the fuzzers' corpora,
# the threads test).  Workloads: hb-shape over the texts and fonts of
# upstream's perf/ (train: The Little Prince in English with Roboto, in
# Persian with Amiri, each shaped 10 times; test: the word lists, English with Roboto, Persian
# with Noto Nastaliq Urdu, Hindi with test/subset's Noto Sans Devanagari,
# 5, 3 and 3 times),
# each run's glyphs md5summed.  Not yet run through bench/projects.sh
# (so not in its list): one whole build took 20–28 minutes of wall time on
# the 2 shared CPUs (350 s of CPU at -O2, 423 s counted); plain, count,
# cov and pgogen were measured by hand with these functions
# (bench/RESULTS.md 2026-12-07 18:50).
P_PKG=harfbuzz=6.0.0+dfsg-3
P_TREE=debian
P_LANG="c++"
P_EXES=build/util/hb-shape
P_TESTEXES="build/util/hb-subset"     # relinked too: the subset tests run it
# hb_shape_full: once per line of text and iteration (the training run:
# 1,893 lines × 10 + 923 × 10 = 28,160)
P_SPOT=hb_shape_full
P_DEBDEPS="libglib2.0-dev libfreetype-dev"
P_VGSCALE=0.1

p_build() {
    local target=() tests=enabled
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target=(util/hb-shape) tests=disabled ;; esac
    {
        meson setup build -Ddefault_library=static -Dglib=enabled -Dfreetype=enabled -Dgobject=disabled \
            -Dcairo=disabled -Dchafa=disabled -Dicu=disabled -Dgraphite2=disabled -Dintrospection=disabled \
            -Ddocs=disabled -Dbenchmark=disabled -Dtests=$tests &&
            ninja -C build -j2 "${target[@]}"
    } > build.log 2>&1
}

p_test() { meson_passed; }   # bench/lib.sh

# hs FONT TEXT LINES ITER: hb-shape of the first LINES lines of TEXT
# (P_SCALE of them) with FONT, each shaped ITER times (--num-iterations),
# the glyphs' md5sum
hs() {
    local font=$1 text=$2 n=$3 it=$4 f; shift 4
    n=$(awk -v s="${P_SCALE:-1}" -v n="$n" 'BEGIN { n = int(n * s); if (n < 20) n = 20; print n }')
    f=.text-$(basename "$text" .txt)-$n.txt
    [ -s "$f" ] || head -n "$n" "$text" > "$f"
    echo "$(basename "$font") $(basename "$text") $n: $("$@" build/util/hb-shape --num-iterations="$it" --font-file="$font" --text-file="$f" | md5sum | cut -c1-32)"
}

p_workload() {
    local mix=$1; shift
    if [ "$mix" = train ]; then
        hs perf/fonts/Roboto-Regular.ttf perf/texts/en-thelittleprince.txt 2000 10 "$@"
        hs perf/fonts/Amiri-Regular.ttf perf/texts/fa-thelittleprince.txt 1000 10 "$@"
    else
        hs perf/fonts/Roboto-Regular.ttf perf/texts/en-words.txt 12000 5 "$@"
        hs perf/fonts/NotoNastaliqUrdu-Regular.ttf perf/texts/fa-words.txt 10000 3 "$@"
        hs test/subset/data/fonts/NotoSansDevanagari-Regular.ttf perf/texts/hi-words.txt 10000 3 "$@"
    fi
}
