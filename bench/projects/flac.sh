# bench/projects/flac.sh — FLAC 1.4.2 (C libFLAC with SSE/AVX intrinsics
# chosen at run time through function pointers, C++ libFLAC++; autotools,
# libtool) for bench/projects.sh: Debian's build (debhelper compat 13:
# dh_autoreconf, `autoreconf -f -i` with Debian's libtool 2.4.7; then
# debian/rules on amd64: ./configure --disable-rpath --disable-xmms-plugin --disable-altivec
# --enable-sse --enable-static --disable-silent-rules in the tree; the
# two options configure no longer knows it only warns about), make, then
# the test programs (`make -C src check`: check_PROGRAMS, without running
# the suite).  FLAC's configure puts -O3 -funroll-loops before the
# environment's CFLAGS, whose -O2 wins.  Without the autoreconf, the
# tarball's libtool 2.4.6 drops -specs= from libFLAC.so's link (2.4.7
# passes it on): the library would not go through perfinst's link stage
# (no .perfinst.link: pmopt plan --order and relink refuse it; its
# counters' symbols left undefined for programs linked without perfinst).  Tests: five of test/'s scripts
# at FLAC__TEST_LEVEL=1, each one test — test_libFLAC (against
# libFLAC-static, linked in), test_libFLAC++, test_grabbag (cuesheet,
# picture), test_seeking, test_metaflac — about 15 s; test_flac,
# test_streams and test_compression take minutes, test_replaygain needs
# test_streams' files.  test_libFLAC's metadata test makes a file
# read-only and fails when root can still write it ("are you running as
# root?"): the scripts run with CAP_DAC_OVERRIDE dropped (setpriv) when
# run as root.  Workloads: the flac CLI (src/flac/.libs/flac, with
# LD_LIBRARY_PATH naming libFLAC's .libs: the system's libFLAC.so.12
# otherwise) encoding WAV files bench/projects/flac/gen.py makes and
# decoding them (to raw PCM, compared with the input's samples): train:
# seed 1, 16-bit stereo speech at 44.1 kHz, -5; test: seed 7, 24-bit
# stereo music at 96 kHz -8, 16-bit mono speech at 22.05 kHz -0, 16-bit
# stereo music at 44.1 kHz -3 decoded three times (decode-heavy) and
# tested (flac -t).
P_PKG=flac=1.4.2+ds-2
P_TREE=debian
P_LANG=c
P_EXES="src/libFLAC/.libs/libFLAC.so.12.0.0 src/flac/.libs/flac"
P_TESTEXES="src/test_libFLAC/test_libFLAC src/test_libFLAC++/.libs/test_libFLAC++ src/libFLAC++/.libs/libFLAC++.so.10.0.0
 src/test_grabbag/cuesheet/.libs/test_cuesheet src/test_grabbag/picture/.libs/test_picture
 src/test_seeking/.libs/test_seeking src/metaflac/.libs/metaflac"
P_SPOT=FLAC__stream_encoder_process   # flac's encode.c: once per 2048 samples it reads (CHUNK_OF_SAMPLES)
P_DEBDEPS="libogg-dev libtool autoconf automake"
P_VGSCALE=0.25

p_build() {
    {
        autoreconf -f -i &&
            ./configure --disable-rpath --disable-xmms-plugin --disable-altivec --enable-sse \
            --enable-static --disable-silent-rules &&
            make -j2 &&
            case $P_VARIANT in
            cov|pgogen|pgouse|bolt) ;;
            *) make -j2 -C src check ;;
            esac
    } > build.log 2>&1
}

p_test() {
    local t p=0 n=0 drop=()
    [ "$(id -u)" != 0 ] || drop=(setpriv --bounding-set=-dac_override,-dac_read_search)
    : > test-check.out
    for t in test_libFLAC test_libFLAC++ test_grabbag test_seeking test_metaflac; do
        n=$((n + 1))
        echo "=== $t" >> test-check.out
        (cd test && "${drop[@]}" env FLAC__TEST_LEVEL=1 FLAC__TEST_WITH_VALGRIND=no ECHO_N=-n ECHO_C= \
            "./$t.sh" >> ../test-check.out 2>&1) && p=$((p + 1)) || echo "=== $t: FAILED" >> test-check.out
    done
    echo "$p $n"
}

# flac_wav MIX KB KIND BITS CHANNELS RATE: the input file (made when missing)
flac_wav() {
    local seed f kb
    case $1 in train) seed=1 ;; test) seed=7 ;; esac
    kb=$(scaled_kb "$2")   # bench/lib.sh
    f=.in-$seed-$kb-$3-$4-$5-$6.wav
    [ -s "$f" ] || python3 "$P_DIR/flac/gen.py" "$kb" "$seed" "$3" "$4" "$5" "$6" > "$f"
    echo "$f"
}

# flac_round IN LEVEL DECODES [WRAPPER...]: IN encoded at LEVEL, decoded
# DECODES times to raw PCM and compared with IN's samples, then tested
flac_round() {
    local in=$1 l=$2 k=$3 i; shift 3
    "$@" src/flac/.libs/flac -s -f "$l" -o .c.flac "$in"
    echo "$in $l: $(wc -c < .c.flac) bytes"
    for i in $(seq "$k"); do
        "$@" src/flac/.libs/flac -s -f -d --force-raw-format --endian=little --sign=signed -o .d.raw .c.flac
        cmp -s -i 68:0 "$in" .d.raw && echo "$in $l: decode $i ok"
    done
    "$@" src/flac/.libs/flac -s -t .c.flac && echo "$in $l: test ok"
}

p_workload() {
    local mix=$1; shift
    export LD_LIBRARY_PATH=src/libFLAC/.libs
    case $mix in
    train)
        flac_round "$(flac_wav train 4096 speech 16 2 44100)" -5 1 "$@" ;;
    test)
        flac_round "$(flac_wav test 3072 music 24 2 96000)" -8 1 "$@"
        flac_round "$(flac_wav test 1024 speech 16 1 22050)" -0 1 "$@"
        flac_round "$(flac_wav test 2048 music 16 2 44100)" -3 3 "$@" ;;
    esac
}
