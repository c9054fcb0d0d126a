# make install PREFIX=… puts everything in place, and a program builds and
# runs against the installed copy found only through pkg-config.
. "$PERFINST_TOP/tests/lib.sh"
unset PERFINST_LIB_DIR
prefix=$PWD/prefix
make -s -C "$PERFINST_TOP" install PREFIX="$prefix" > install.log
for f in bin/perfinst-ld bin/pmopt lib/perfinst/perfinst.so lib/libperfinst.a lib/libperfinst.so \
         include/perfinst.h include/perfinst-format.h lib/pkgconfig/perfinst.pc; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
ok "installed files present"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
plugin=$(pkg-config --variable=plugin perfinst)
assert_eq "pkg-config plugin variable" "$prefix/lib/perfinst/perfinst.so" "$plugin"
gcc -O2 -fplugin="$(pkg-config --variable=plugin perfinst)" $(pkg-config --cflags perfinst) \
    -c "$PERFINST_TOP/examples/demo.c" -o demo.o
"$(pkg-config --variable=linker perfinst)" -O2 -o demo demo.o
ldd ./demo | grep -q "$prefix/lib/libperfinst.so" || fail "demo does not use the installed runtime"
PERFINST_OUT=demo.pit ./demo > out.txt
assert_contains "demo output" out.txt "primes below 10000: 1229"
"$prefix/bin/pmopt" report demo demo.pit --by=function --format=csv > f.csv
assert_contains "is_prime entered 4 x 10000 times" f.csv "^[0-9]+,40000,[^,]*,is_prime,"
make -s -C "$PERFINST_TOP" uninstall PREFIX="$prefix"
[ -z "$(find "$prefix" -type f)" ] || { find "$prefix" -type f; fail "uninstall left files"; }
ok "uninstall removes every installed file"
