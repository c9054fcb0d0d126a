#!/bin/bash
# Which runtime is linked: libperfinst.so by default (DT_NEEDED, RUNPATH to
# its directory), libperfinst.a with --pi-static-runtime (no DT_NEEDED, the
# archive recorded by its full path); LIBDIR from $PERFINST_LIB_DIR, else
# the directory of perfinst-ld itself.  None when no input refers to it
# (a feedback rebuild), unless --pi-runtime asks for it.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime
here=$(pwd -P)

fixture fx '{"unit_id": "0x7777", "funcs": [{"name": "s1", "sites": [{"bytes": 8}]}]}'
echo 'int perfinst_stub_marker_so(void); int perfinst_stub_marker_a(void);' > uses.h
printf '#include "uses.h"\nvoid s1(void);\nint main(void) { s1(); return USE() == 0; }\n' > main.c

gcc -DUSE=perfinst_stub_marker_so -c main.c -o main_so.o
pi_ld -o dyn main_so.o fx.o
./dyn || fail "dyn does not run"
readelf -dW dyn > dyn.d
assert_contains "DT_NEEDED libperfinst.so" dyn.d 'NEEDED.*\[libperfinst\.so\]'
assert_contains "RUNPATH to the runtime's directory" dyn.d "R(UN)?PATH.*\\[$here/rt\\]"
check_link dyn > rec
assert_contains "recipe: the .so, added by the stage" rec "^input $here/rt/libperfinst.so argi -1 arg -\$"

gcc -DUSE=perfinst_stub_marker_a -c main.c -o main_a.o
pi_ld --pi-static-runtime -o sta main_a.o fx.o
./sta || fail "sta does not run"
readelf -dW sta > sta.d
assert_not_contains "no DT_NEEDED libperfinst.so" sta.d 'libperfinst'
nm sta > sta.nm
assert_contains "the archive's code is in" sta.nm ' T perfinst_stub_marker_a$'
check_link sta > rec
assert_contains "recipe: the archive by its full path" rec "^input $here/rt/libperfinst.a argi -1 arg -\$"
assert_contains "recipe: the static runtime" rec '^flags runtime static-runtime$'
assert_contains "--pi- options reach the stage, recorded" rec '^argv\[[0-9]+\] --pi-static-runtime$'
check_xlat sta fx.expect.json --units 1 > out
assert_contains "sta: xlat" out 'xlat ok: 1 items'

# A fully static program (libc.a) with the static runtime.
if [ -e "$(gcc -print-file-name=libc.a)" ]; then
    pi_ld -static --pi-static-runtime -o full main_a.o fx.o
    ./full || fail "full does not run"
    readelf -lW full > full.l
    assert_not_contains "fully static: no interpreter" full.l 'INTERP'
    check_xlat full fx.expect.json --units 1 > out
    assert_contains "full: xlat" out 'xlat ok: 1 items'
fi

# Without PERFINST_LIB_DIR: the directory perfinst-ld is in (copy it beside
# rt, with perfinst.specs, which names the stage of the build tree: the
# driver tells it where the runtime is).
cp "$PILD" "$B/perfinst.specs" rt/
env -u PERFINST_LIB_DIR rt/perfinst-ld --pi-verbose -o byself main_so.o fx.o 2> verbose
assert_contains "found the runtime beside itself" verbose "running .* $here/rt/libperfinst.so "
./byself || fail "byself does not run"

# No input refers to the runtime (a feedback rebuild's objects): not linked,
# no RUNPATH; --pi-runtime links it anyway (sampling plain code).
printf 'int main(void) { return 0; }\n' > plain.c
gcc -c plain.c -o plain.o
pi_ld -o plain plain.o
readelf -dW plain > plain.d
assert_not_contains "plain: no DT_NEEDED libperfinst" plain.d 'libperfinst'
assert_not_contains "plain: no RUNPATH" plain.d 'R(UN)?PATH'
check_link plain > rec
assert_contains "plain: recipe says no runtime" rec '^flags $'
pi_ld --pi-runtime -o forced plain.o
readelf -dW forced > forced.d
assert_contains "--pi-runtime: DT_NEEDED libperfinst.so" forced.d 'NEEDED.*\[libperfinst\.so\]'
./forced || fail "forced does not run"
# The API alone (perfinst_* without units) is a reference too.
printf 'int perfinst_stub_marker_so(void);\nint main(void) { return perfinst_stub_marker_so() != 1; }\n' > api.c
gcc -c api.c -o api.o
pi_ld -o api api.o
./api || fail "api does not run"
readelf -dW api > api.d
assert_contains "an API call links the runtime" api.d 'NEEDED.*\[libperfinst\.so\]'
