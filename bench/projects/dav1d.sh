# bench/projects/dav1d.sh — dav1d 1.0.0 (the AV1 decoder: C with nasm x86
# assembly chosen at run time through function-pointer tables, two
# bit-depth builds of its templates, frame and tile threads; meson) for
# bench/projects.sh: Debian's build (debian/rules: meson --buildtype=release,
# whose -O3 comes before the environment's CFLAGS: their -O2 wins; the
# nasm objects are assembled without the flags; hardening left out), the
# shared library build/src/libdav1d.so.6.6.0 and the CLI build/tools/dav1d
# linked to it, and the tests (checkasm, the header tests, seek_stress).
# The references (cov, pgogen, pgouse, bolt) build without the tests.
# Tests: checkasm with seed 1 (every asm function against the C one on
# random data; its sub-tests counted, "all N tests passed" or "N of M tests
# have failed"), the five header tests (meson test --suite headers), and
# per stream below: the decode with each --cpumask (0: the C code alone,
# sse2, ssse3, sse41, avx2) giving the md5 of the default decode (film
# grain applied on the film-grain stream: the md5 muxer turns it off
# unless --filmgrain 1), and seek_stress running to its end (random seeks
# from a time-seeded generator; it says "Error decoding frame" where a
# seek lands between key frames, and fails only on a crash).  Streams: no AV1 test data
# in the source package (dav1d-test-data is a separate, network-only
# repository) nor an encoder in it: Debian's aomenc (aom-tools) encodes
# videos bench/projects/dav1d/gen.py makes (gradients, moving textured
# boxes, noise, a scene cut), once per run into $PW/.streams: train: 352x288
# 8-bit, 96 frames, --good --cpu-used=5; test: 640x360 10-bit, 60 frames,
# --rt --cpu-used=8 with 2 tile columns, and 480x272 8-bit, 60 frames,
# --good --cpu-used=6 with film grain (--denoise-noise-level=20).
# Workloads: the dav1d CLI, each decode's md5 (--muxer md5) printed —
# train: the train stream with --threads 1, whole, and its first 24 frames
# with --cpumask 0 (the C code); test: the 10-bit stream with --threads 2,
# the film-grain stream with --threads 3 --cpumask sse41, and its first 15
# frames with --cpumask 0 --threads 1 (both with --filmgrain 1).  Frame counts scaled by P_SCALE
# (--limit).
P_PKG=dav1d=1.0.0-2+deb12u1
P_TREE=debian
P_LANG=c
P_EXES="build/src/libdav1d.so.6.6.0 build/tools/dav1d"
P_TESTEXES="build/tests/checkasm build/tests/seek_stress"
P_SPOT=dav1d_parse_obus     # once per OBU of the streams decoded
P_DEBDEPS="nasm aom-tools"
P_VGSCALE=0.4

# shellcheck disable=SC2086   # CFLAGS and LDFLAGS are lists of words
p_build() {
    local tests=true
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) tests=false ;; esac
    {
        meson setup build --buildtype=release -Denable_tests=$tests &&
            ninja -C build -j2
    } > build.log 2>&1
}

# streams: the streams in $S (made once: the variants decode the same
# files), S=../.streams
streams() {
    S=$(cd .. && pwd)/.streams
    [ -s "$S/done" ] && return 0
    rm -rf "$S" && mkdir -p "$S"
    (
        cd "$S" &&
            python3 "$P_DIR/dav1d/gen.py" 352 288 96 1 > train.y4m &&
            aomenc --good --cpu-used=5 --threads=1 --limit=96 -o train.ivf train.y4m &&
            python3 "$P_DIR/dav1d/gen.py" 640 360 60 7 10 > test10.y4m &&
            aomenc --rt --cpu-used=8 --threads=1 -b 10 --input-bit-depth=10 --tile-columns=1 --limit=60 \
                -o test10.ivf test10.y4m &&
            python3 "$P_DIR/dav1d/gen.py" 480 272 60 5 > testfg.y4m &&
            aomenc --good --cpu-used=6 --threads=1 --denoise-noise-level=20 --limit=60 -o testfg.ivf testfg.y4m &&
            rm -f ./*.y4m && echo done > done
    ) > "$S.log" 2>&1 || { echo "dav1d.sh: the streams could not be made ($S.log)" >&2; return 1; }
}

p_test() {
    local s m ref p=0 n=0 out fg
    streams || { echo "0 1"; return; }
    build/tests/checkasm 1 > test-checkasm.out 2>&1
    meson test -C build --suite headers > test-meson.out 2>&1
    : > test-decode.out
    for s in train test10 testfg; do
        fg=0; [ $s != testfg ] || fg=1
        ref=$(build/tools/dav1d -q -i "$S/$s.ivf" --muxer md5 -o - --filmgrain $fg 2>> test-decode.out)
        for m in 0 sse2 ssse3 sse41 avx2; do
            n=$((n + 1))
            out=$(build/tools/dav1d -q -i "$S/$s.ivf" --muxer md5 -o - --filmgrain $fg --cpumask $m --threads 2 2>> test-decode.out)
            echo "$s $m $out (default $ref)" >> test-decode.out
            [ -z "$ref" ] || [ "$out" != "$ref" ] || p=$((p + 1))
        done
        n=$((n + 1))
        if build/tests/seek_stress -q -i "$S/$s.ivf" --muxer md5 -o /dev/null >> test-decode.out 2>&1; then p=$((p + 1)); else echo "seek_stress $s failed" >> test-decode.out; fi
    done
    {
        sed -n 's/^checkasm: all \([0-9]*\) tests passed.*/\1 \1/p; s/^checkasm: \([0-9]*\) of \([0-9]*\) tests have failed.*/\1 \2/p' test-checkasm.out |
            awk '{ if (NF == 2 && $1 != $2) print $2 - $1, $2; else print }'
        awk '/^Ok:/ { ok = $2 } /^Fail:/ { f = $2 } /^Timeout:/ { to = $2 } END { print ok + 0, ok + f + to }' test-meson.out
        echo "$p $n"
    } | awk '{ p += $1; t += $2 } END { print p + 0, t + 0 }'
}

# dec NAME FRAMES ARG... [-- WRAPPER...]: a decode of stream NAME, its
# first FRAMES frames (P_SCALE of them), its md5
dec() {
    local s=$1 f=$2 a=(); shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do a+=("$1"); shift; done
    [ $# -eq 0 ] || shift
    f=$(awk -v s="${P_SCALE:-1}" -v f="$f" 'BEGIN { f = int(f * s + 0.5); print f < 4 ? 4 : f }')
    echo "$s ${a[*]} $f: $("$@" build/tools/dav1d -q -i "$S/$s.ivf" --muxer md5 -o - --limit "$f" "${a[@]}")"
}

p_workload() {
    local mix=$1; shift
    streams || return 1
    case $mix in
    train)
        dec train 96 --threads 1 -- "$@"
        dec train 24 --threads 1 --cpumask 0 -- "$@" ;;
    test)
        dec test10 60 --threads 2 -- "$@"
        dec testfg 60 --threads 3 --cpumask sse41 --filmgrain 1 -- "$@"
        dec testfg 15 --threads 1 --cpumask 0 --filmgrain 1 -- "$@" ;;
    esac
}
