# bench/projects/opus.sh — Opus 1.3.1 (C, autotools, libtool; SSE, SSE2,
# SSE4.1 and AVX intrinsics chosen at run time through function-pointer
# tables, celt/x86/x86_celt_map.c and silk/x86/x86_silk_map.c) for
# bench/projects.sh: Debian's build (debhelper-compat 13: dh_autoreconf,
# autoreconf -fi, which also replaces the tarball's libtool 2.4.6 by the
# system's: 2.4.6 drops -specs= from the shared library's link, which then
# does not go through perfinst's link stage; debian/rules:
# dh_auto_configure's flags, in the source tree, and --enable-custom-modes;
# no docs), make
# (libopus, static and shared, opus_demo, opus_custom_demo,
# repacketizer_demo, opus_compare and the tests' programs, some of which
# link the library's objects in).  Tests: `make check`, its 14 programs,
# with SEED fixed (the fuzzing tests of the encoder and decoder seed from
# the time otherwise).  Workloads: opus_demo (.libs/opus_demo, run with
# LD_LIBRARY_PATH, not libtool's wrapper) encoding (-e) and then decoding
# (-d) PCM that bench/projects/opus/gen.py makes — train: speech, VoIP at
# low bitrates (16 kHz mono 12 kb/s, 48 kHz mono 24 kb/s with DTX: SILK
# and hybrid); test: music (48 kHz stereo at 128 kb/s, 10 ms frames,
# complexity 10, and restricted-lowdelay 64 kb/s CVBR, 5 ms frames,
# complexity 7: CELT alone) and 24 kHz speech at 20 kb/s, 60 ms frames,
# complexity 3, in-band FEC, decoded with 5% of the packets lost.
P_PKG=opus=1.3.1-3
P_TREE=debian
P_LANG=c
P_DEBDEPS="libtool autoconf automake"   # dh_autoreconf's
P_EXES=".libs/libopus.so.0.8.0 .libs/opus_demo"
P_TESTEXES="celt/tests/test_unit_cwrs32 celt/tests/test_unit_dft celt/tests/test_unit_entropy celt/tests/test_unit_laplace
 celt/tests/test_unit_mathops celt/tests/test_unit_mdct celt/tests/test_unit_rotation celt/tests/test_unit_types
 silk/tests/test_unit_LPC_inv_pred_gain tests/test_opus_projection tests/.libs/test_opus_*
 .libs/opus_custom_demo .libs/repacketizer_demo opus_compare"
P_SPOT=opus_encode          # once per 20 ms frame the training encodes
P_VGSCALE=0.5

p_build() {
    # shellcheck disable=SC2016   # ${prefix} literally, as dh_auto_configure passes it
    {
        autoreconf -fi &&
        ./configure --build=x86_64-linux-gnu --prefix=/usr --includedir='${prefix}/include' \
            --mandir='${prefix}/share/man' --infodir='${prefix}/share/info' --sysconfdir=/etc \
            --localstatedir=/var --disable-option-checking --disable-silent-rules \
            --libdir='${prefix}/lib/x86_64-linux-gnu' --disable-maintainer-mode \
            --disable-dependency-tracking --enable-custom-modes --disable-doc &&
            make -j2
    } > build.log 2>&1
}

p_test() {
    SEED=42 make check > test-check.out 2>&1
    awk '/^# TOTAL:/ { t = $3 } /^# PASS:/ { p = $3 } END { print p + 0, t + 0 }' test-check.out
}

# opus_pcm KIND RATE CHANNELS SECONDS SEED: the PCM file of gen.py, made
# in the current directory when missing, SECONDS scaled by P_SCALE
opus_pcm() {
    local s f
    s=$(awk -v t="$4" -v k="${P_SCALE:-1}" 'BEGIN { printf "%g", t * k }')
    f=.pcm-$1-$2-$3-$s-$5.raw
    [ -s "$f" ] || python3 "$P_DIR/opus/gen.py" "$1" "$2" "$3" "$s" "$5" > "$f"
    echo "$f"
}

# each run: "KIND SEED SECONDS | opus_demo -e's arguments | -d's options"
p_workload() {
    local mix=$1; shift
    local runs r src kind seed secs enc dec rate chs pcm
    case $mix in
    train) runs=("speech 1 40 | voip 16000 1 12000 -complexity 5 |"
                 "speech 2 40 | voip 48000 1 24000 -dtx |") ;;
    test) runs=("music 7 20 | audio 48000 2 128000 -framesize 10 -complexity 10 |"
                "music 7 20 | restricted-lowdelay 48000 2 64000 -cvbr -framesize 5 -complexity 7 |"
                "speech 8 20 | audio 24000 1 20000 -framesize 60 -complexity 3 -inbandfec | -loss 5") ;;
    esac
    export LD_LIBRARY_PATH=.libs
    for r in "${runs[@]}"; do
        IFS='|' read -r src enc dec <<< "$r"
        read -r kind seed secs <<< "$src"
        enc=${enc# }; enc=${enc% }
        read -r _ rate chs _ <<< "$enc"
        pcm=$(opus_pcm "$kind" "$rate" "$chs" "$secs" "$seed")
        # shellcheck disable=SC2086
        "$@" .libs/opus_demo -e $enc "$pcm" .enc.bit 2> /dev/null
        # shellcheck disable=SC2086
        "$@" .libs/opus_demo -d "$rate" "$chs" $dec .enc.bit .dec.raw 2> /dev/null
        # shellcheck disable=SC2086
        echo $enc${dec:+ (-d$dec)}: "$(wc -c < .enc.bit) bytes, decoded $(md5sum < .dec.raw | cut -c1-32)"
    done
}
