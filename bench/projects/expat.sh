# bench/projects/expat.sh — Expat 2.5.0 (C, autotools, libtool) for
# bench/projects.sh: Debian's build (debian/rules: expat/buildconf.sh,
# which is autoreconf, then ../configure out of the source tree with the
# flags in the environment, Debian's -Wall added to CFLAGS and its
# -Wl,-Bsymbolic-functions put before LDFLAGS, make) of the char build
# only, not of the wchar_t one (-DXML_UNICODE, libexpatw: its library
# alone, which no program here runs), and --without-docbook (Debian's
# build makes xmlwf.1 with docbook2x, a build dependency this machine need
# not have): libexpat.so.1.8.10, xmlwf linked to it, the examples; plus
# the workload's program, bench/projects/expat/drive.c, compiled and linked
# against the shared library with the same flags.  The pin:
# 2.5.0-1+deb12u2, the mirror no longer serving the newer security update
# deb12u5 (404).  Tests: `make check`, which builds and runs runtests and
# runtestspp (the same suite compiled as C and as C++, linked to the
# library's objects statically; minicheck's "N%: Checks: C, Failed: F" in
# each log): the checks of both.  Workloads: expat-drive, not xmlwf: expat
# salts its hash tables from getrandom(2) for each parser, which xmlwf
# cannot fix, so that lookup's collisions (its loop's counts, the plan,
# valgrind's counts) change from run to run; the driver fixes the salt
# (XML_SetHashSalt).  It parses XML catalogs bench/projects/pugixml/gen.py
# makes, each pass's event counts and hash on stdout (train: seed 1 as
# made, read(2) into XML_GetBuffer 8 KiB at a time with element, text, PI,
# comment and CDATA handlers, attributes sorted as xmlwf's canonical XML
# does, then through XML_Parse with a default handler only, as xmlwf -c;
# test: seed 7 with an internal DTD subset (default attributes, internal
# entities that replace the &amp; references) and namespaces (a default
# one, a prefixed one on the tags and parts), namespace processing with
# declaration handlers and positions as xmlwf -m, in UTF-8 and again in
# UTF-16: paths the training never runs).
P_PKG=expat=2.5.0-1+deb12u2
P_TREE=debian
P_LANG=c
P_EXES="obj/lib/.libs/libexpat.so.1.8.10 obj/expat-drive"
P_TESTEXES="obj/tests/runtests obj/tests/runtestspp"
P_SPOT=XML_ParseBuffer      # once per 8 KiB read(2) of the canon pass (the last empty), once per 64 KiB piece XML_Parse passes on
P_VGSCALE=0.1

# (CFLAGS and LDFLAGS split into words on purpose)
# shellcheck disable=SC2086
p_build() {
    {
        (cd expat && ./buildconf.sh) &&
            mkdir -p obj && (cd obj && CFLAGS="$CFLAGS -Wall" LDFLAGS="-Wl,-Bsymbolic-functions $LDFLAGS" \
                ../expat/configure --without-docbook && make -j2) &&
            cp "$P_DIR/expat/drive.c" obj/ &&
            $CC $CFLAGS -Wall -Iexpat/lib -c obj/drive.c -o obj/drive.o &&
            $CC $CFLAGS -o obj/expat-drive obj/drive.o -Lobj/lib/.libs -lexpat $LDFLAGS
    } > build.log 2>&1
}

p_test() {
    (cd obj && make -j2 check > ../test-check.out 2>&1)
    # each program's summary, or "0 ?" when one died before it
    awk 'FNR == 1 { f++ } /^[0-9]+%: Checks: [0-9]+, Failed: [0-9]+/ { sub(",", "", $3); t += $3; p += $3 - $5; s++ }
         END { if (s == f && t) print p, t; else print p + 0, "?" }' obj/tests/runtests.log obj/tests/runtestspp.log
}

# corpus MIX KB: the corpus of MIX, made in the current directory when missing; prints its name
corpus() {
    local f
    case $1 in
    train)
        f=.corpus-1-$2.xml
        [ -s "$f" ] || python3 "$P_DIR/pugixml/gen.py" "$2" 1 > "$f" ;;
    test)
        f=.corpus-7-$2.xml
        [ -s "$f" ] || python3 "$P_DIR/pugixml/gen.py" "$2" 7 | sed -e '1a\
<!DOCTYPE catalog [\
  <!ENTITY amp2 "&#38;#38;">\
  <!ENTITY shop "Shop &amp2; Co &#169;">\
  <!ATTLIST item status CDATA "new" currency (EUR|USD) "EUR">\
  <!ATTLIST part unit CDATA #FIXED "g">\
  <!ATTLIST x:tags xmlns:x CDATA "urn:x-catalog:tags">\
]>' -e 's|<catalog version="2">|<catalog version="2" xmlns="urn:x-catalog" xmlns:x="urn:x-catalog:tags">|' \
            -e 's|&amp;|\&shop;|' -e 's|<\(/\{0,1\}\)tags>|<\1x:tags>|g' -e 's| weight="| x:weight="|g' > "$f"
        [ -s "$f.utf16" ] || sed '1s/UTF-8/UTF-16/' "$f" | iconv -f UTF-8 -t UTF-16 > "$f.utf16" ;;
    esac
    echo "$f"
}

p_workload() {
    local mix=$1; shift
    local kb c
    kb=$(scaled_kb 16384)   # bench/lib.sh
    c=$(corpus "$mix" "$kb")
    export LD_LIBRARY_PATH=obj/lib/.libs
    case $mix in
    train) "$@" obj/expat-drive "$c" canon copy ;;
    test) "$@" obj/expat-drive "$c" ns && "$@" obj/expat-drive "$c.utf16" ns ;;
    esac
}
