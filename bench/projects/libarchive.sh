# bench/projects/libarchive.sh — libarchive 3.6.2 (C; its formats and
# filters reached through function pointers: each reader, writer and
# filter registers its callbacks; autotools, libtool) for
# bench/projects.sh: Debian's build (debian/rules: dh_autoreconf with
# build/autogen.sh, Debian's libtool 2.4.7 — the tarball's 2.4.6 drops
# -specs= from a shared library's link, bench/projects/flac.sh — then
# ./configure --without-openssl --with-nettle --enable-bsdtar=shared
# --enable-bsdcpio=shared --enable-bsdcat=shared; hardening left out),
# make, and the test programs (make check TESTS=: built, not run).  The
# references (cov, pgogen, pgouse, bolt) build without the test programs.
# Programs: .libs/libarchive.so.13.6.2, and .libs/bsdtar and .libs/bsdcpio
# linked to it (run with LD_LIBRARY_PATH naming .libs, as libtool's
# wrappers do).  Tests: the four test programs, each run whole (as make
# check runs them, with its environment: the reference files' folders and
# the wrappers ./bsdtar, ./bsdcpio, ./bsdcat, which run .libs' programs):
# libarchive_test (its own copy of the library's sources), bsdtar_test,
# bsdcpio_test, bsdcat_test; "Tests run" less "Tests failed" of their
# summaries passed.  Workloads: archives of trees
# bench/projects/libarchive/gen.py makes once per run into $PW/.tree-*
# (text, random and zero-filled files, empty ones, symbolic and hard links,
# empty folders, long names, fixed times): each archive written by bsdtar
# (bsdcpio for cpio), listed (-tv; ISO 9660's root entry, whose time is
# the image's making, left out) and extracted both to stdout (-xO, its
# md5) and into a folder (whose files' md5s are summed); printed: the
# listing's and contents' md5s — train: 600 files (seed 1) as tar.gz
# (pax, gzip) and ustar; test: 800 files (seed 7) as zip, cpio (newc, by
# bsdcpio -o and -i), 7-Zip (deflate), ISO 9660 (Rock Ridge) and GNU tar
# with zstd.  Tree sizes scaled by P_SCALE.  Left out: 7-Zip's default
# LZMA and tar.xz (7 s each here, nearly all of it in liblzma, outside
# what is measured) and xar, whose -xO wrote 9.9 GB for the 21 MB tree
# (24 s; in plain too: libarchive's, not looked into).
P_PKG=libarchive=3.6.2-1+deb12u5
P_TREE=debian
P_LANG=c
P_EXES=".libs/libarchive.so.13.6.2 .libs/bsdtar .libs/bsdcpio"
P_TESTEXES=".libs/bsdcat libarchive_test bsdtar_test bsdcpio_test bsdcat_test"
P_SPOT=archive_write_header     # once per entry written
P_DEBDEPS="libtool autoconf automake libbz2-dev liblz4-dev liblzma-dev libxml2-dev libzstd-dev zlib1g-dev libacl1-dev nettle-dev"
P_VGSCALE=0.15

p_build() {
    local tests=1
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) tests=0 ;; esac
    {
        sh build/autogen.sh &&
            ./configure --without-openssl --with-nettle --enable-bsdtar=shared --enable-bsdcpio=shared \
                --enable-bsdcat=shared &&
            make -j2 &&
            if [ $tests = 1 ]; then make -j2 check TESTS=; fi
    } > build.log 2>&1
}

p_test() {
    local t top=$PWD
    : > test-all.out
    for t in libarchive bsdtar bsdcpio bsdcat; do
        echo "=== ${t}_test" >> test-all.out
        env LIBARCHIVE_TEST_FILES="$top/libarchive/test" LRZIP=NOCONFIG \
            BSDTAR="$top/bsdtar" BSDTAR_TEST_FILES="$top/tar/test" \
            BSDCPIO="$top/bsdcpio" BSDCPIO_TEST_FILES="$top/cpio/test" \
            BSDCAT="$top/bsdcat" BSDCAT_TEST_FILES="$top/cat/test" \
            "./${t}_test" >> test-all.out 2>&1 || true
    done
    awk '/^  Tests run:/ { r += $3 } /^  Tests failed:/ { f += $3 } END { print r - f, r + 0 }' test-all.out
}

# tree MIX: the tree of workload MIX at the scale (made once; every
# variant archives the same files in the same order), printed
tree() {
    local n seed d
    case $1 in train) n=600 seed=1 ;; test) n=800 seed=7 ;; esac
    n=$(awk -v s="${P_SCALE:-1}" -v n="$n" 'BEGIN { n = int(n * s); print n < 50 ? 50 : n }')
    d=$(cd .. && pwd)/.tree-$seed-$n
    if [ ! -d "$d" ]; then
        rm -rf "$d.tmp"
        python3 "$P_DIR/libarchive/gen.py" "$d.tmp/t" "$n" "$seed" && mv "$d.tmp" "$d" || return 1
    fi
    echo "$d"
}

# one FORMAT TREE OUT WRAPPER...: TREE archived by bsdtar with FORMAT's
# options into OUT, listed, extracted to stdout and into a folder
one() {
    local fmt=$1 t=$2 a=$3 lib=$PWD/.libs x=$3.x opts; shift 3
    local w=(env LD_LIBRARY_PATH="$lib" "$@")
    rm -rf "$a" "$x"; mkdir -p "$x"
    case $fmt in
    cpio) (cd "$t" && find t | LC_ALL=C sort | "${w[@]}" "$lib/bsdcpio" --quiet -o -H newc > "$a") ;;
    *) read -ra opts <<< "$fmt"; (cd "$t" && "${w[@]}" "$lib/bsdtar" "${opts[@]}" -cf "$a" t) ;;
    esac || { echo "$fmt: create failed"; return 0; }
    # (ISO 9660's root, ".", has the time the image was made)
    echo "$fmt: list $("${w[@]}" "$lib/bsdtar" -tvf "$a" | awk '$NF != "."' | md5sum | cut -c1-32)" \
        "data $("${w[@]}" "$lib/bsdtar" -xOf "$a" | md5sum | cut -c1-32)"
    case $fmt in
    cpio) (cd "$x" && "${w[@]}" "$lib/bsdcpio" --quiet -i -d < "$a") ;;
    *) "${w[@]}" "$lib/bsdtar" -xpf "$a" -C "$x" ;;
    esac || echo "$fmt: extract failed"
    echo "$fmt: extracted $(cd "$x" && find . -type f | LC_ALL=C sort | xargs -d '\n' md5sum | md5sum | cut -c1-32)"
    rm -rf "$a" "$x"
}

p_workload() {
    local mix=$1 t f o=$PWD/.wl; shift
    t=$(tree "$mix") || return 1
    case $mix in
    train) for f in "-z" "--format ustar"; do one "$f" "$t" "$o" "$@"; done ;;
    test)
        for f in "--format zip" cpio "--format 7zip --options 7zip:compression=deflate" "--format iso9660" \
            "--format gnutar --zstd"; do
            one "$f" "$t" "$o" "$@"
        done ;;
    esac
}
