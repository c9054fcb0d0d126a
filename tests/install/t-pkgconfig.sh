# make install PREFIX=… puts everything in place, and a program builds and
# runs against the installed copy found only through pkg-config: the flags
# route (--cflags, --libs: the installed specs file names the installed
# link stage) and the installed perfinst-ld.
. "$PERFINST_TOP/tests/lib.sh"
unset PERFINST_LIB_DIR
prefix=$PWD/prefix
make -s -C "$PERFINST_TOP" install PREFIX="$prefix" > install.log
for f in bin/perfinst-ld bin/pmopt lib/perfinst/perfinst.so lib/perfinst/perfinst.specs \
         lib/libperfinst.a lib/libperfinst.so include/perfinst.h include/perfinst-format.h \
         lib/pkgconfig/perfinst.pc; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
ok "installed files present"
assert_contains "the installed specs names the installed link stage" "$prefix/lib/perfinst/perfinst.specs" \
    "^$prefix/bin/perfinst-ld --pi-collect2\$"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
plugin=$(pkg-config --variable=plugin perfinst)
assert_eq "pkg-config plugin variable" "$prefix/lib/perfinst/perfinst.so" "$plugin"
assert_eq "pkg-config --cflags" "-I$prefix/include -fplugin=$prefix/lib/perfinst/perfinst.so -specs=$prefix/lib/perfinst/perfinst.specs" \
    "$(echo $(pkg-config --cflags perfinst))"
assert_eq "pkg-config --libs" "-specs=$prefix/lib/perfinst/perfinst.specs -fplugin=$prefix/lib/perfinst/perfinst.so" \
    "$(echo $(pkg-config --libs perfinst))"
gcc -O2 $(pkg-config --cflags perfinst) -c "$PERFINST_TOP/examples/demo.c" -o demo.o
gcc -O2 $(pkg-config --libs perfinst) -o demo demo.o
ldd ./demo | grep -q "$prefix/lib/libperfinst.so" || fail "demo does not use the installed runtime"
readelf -dW demo > demo.d
assert_contains "RUNPATH to the installed runtime" demo.d "R(UN)?PATH.*\\[$prefix/lib\\]"
PERFINST_OUT=demo.pit ./demo > out.txt
assert_contains "demo output" out.txt "primes below 10000: 1229"
"$prefix/bin/pmopt" report demo demo.pit --by=function --format=csv > f.csv
assert_contains "is_prime entered 4 x 10000 times" f.csv "^[0-9]+,40000,[^,]*,is_prime,"
"$(pkg-config --variable=linker perfinst)" -O2 -o demo2 demo.o
ldd ./demo2 | grep -q "$prefix/lib/libperfinst.so" || fail "the installed perfinst-ld: not the installed runtime"
ok "the installed perfinst-ld links against the installed runtime"
make -s -C "$PERFINST_TOP" uninstall PREFIX="$prefix"
[ -z "$(find "$prefix" -type f)" ] || { find "$prefix" -type f; fail "uninstall left files"; }
ok "uninstall removes every installed file"
