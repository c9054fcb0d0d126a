# A shared library and a program that uses it, both built through the
# flags (as a makefile would: CFLAGS and LDFLAGS, -fPIC for the library):
# both modules count exactly into one trace, and each has its own
# translation table.  An object meant for the library but compiled without
# -fPIC gets perfinst's message naming it, not ld's TPOFF32 error.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
CFLAGS="-O2 $PI_CFLAGS -fplugin-arg-perfinst-all=count"
LDFLAGS="$PI_LIBS"
gcc $CFLAGS -fPIC -c "$A/src/walk.c" -o walk.o
gcc -shared $LDFLAGS -o libwalk.so walk.o
gcc $CFLAGS -c "$A/src/steps.c" -o steps.o
gcc $LDFLAGS -o steps steps.o -L. -lwalk -Wl,-rpath,"$PWD"
PERFINST_OUT=run.pit ./steps 4 > out
assert_eq "output" "steps 4: 102" "$(cat out)"
assert_eq "the library's walk: 4 entries" 4 "$(function_entries libwalk.so run.pit walk)"
assert_eq "the library's step: 12 entries" 12 "$(function_entries libwalk.so run.pit step)"
assert_eq "the program's main: 1 entry" 1 "$(function_entries steps run.pit main)"
for m in libwalk.so steps; do
    "$PMOPT" dump-meta $m > $m.meta
    assert_contains "$m: its own translation table and recipe" $m.meta 'translation table, link recipe'
    readelf -dW $m > $m.d
    assert_contains "$m: the runtime" $m.d 'NEEDED.*\[libperfinst\.so\]'
done

# Without -fPIC: perfinst's message, naming the object and the remedy.
gcc $CFLAGS -c "$A/src/walk.c" -o nopic.o
expect_fail "a -shared link of a non-PIC instrumented object" gcc -shared $LDFLAGS -o libbad.so nopic.o
assert_contains "names the object and says -fPIC" err '^perfinst-ld: nopic\.o: compiled without -fPIC, and linked into a shared library \(-shared\).*compile it with -fPIC$'
assert_not_contains "not ld's relocation error" err 'TPOFF32 against'
[ ! -e libbad.so ] || fail "libbad.so was written"
ok "no output"
# The same object in an archive: the link fails (ld's error), then the note.
ar rcs libnopic.a nopic.o
printf 'int walk(int);\nint use(void) { return walk(1); }\n' > use.c
gcc -fPIC -c use.c -o use.o
expect_fail "an archive member without -fPIC" gcc -shared $LDFLAGS -o libbad.so use.o -L. -lnopic
assert_contains "the note names the member" err 'libnopic\.a\(nopic\.o\) has perfinst units compiled without -fPIC'

# A library whose link did not run the link stage (libtool before 2.4.7
# drops -specs= from a shared library's link: FLAC 1.4.2's and opus
# 1.3.1's tarballs): a program linked through the stage against it gets a
# note naming it and links the runtime for it (the library does not name
# it), and counts; pmopt plan --order refuses it saying why.
gcc -shared -o libunstaged.so walk.o
gcc -O2 -c "$A/src/steps.c" -o plainsteps.o
gcc $LDFLAGS -o steps2 plainsteps.o -L. -lunstaged -Wl,-rpath,"$PWD" 2> err || fail "the program's link failed: $(cat err)"
assert_contains "the stage's note names the library" err '^perfinst-ld: note: .*/libunstaged\.so has perfinst units but was linked without perfinst.s link stage.*libtool before 2\.4\.7'
readelf -dW steps2 > steps2.d
assert_contains "the program links the runtime for the library" steps2.d 'NEEDED.*\[libperfinst\.so\]'
PERFINST_OUT=run2.pit ./steps2 4 > out
assert_eq "output" "steps 4: 102" "$(cat out)"
assert_eq "the library's walk: 4 entries" 4 "$(function_entries libunstaged.so run2.pit walk)"
expect_fail "plan --order of the library" "$PMOPT" plan --order=auto -o fb libunstaged.so run2.pit
assert_contains "the refusal says why" err 'libunstaged\.so has no recorded link.*linked without perfinst.s link stage.*libtool before 2\.4\.7'
