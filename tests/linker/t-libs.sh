#!/bin/bash
# Libraries via -l: the metadata of the archive members ld pulls in is
# linked (and only theirs); a shared library keeps its own.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime

fixture m1 '{"unit_id": "0x1001", "funcs": [{"name": "used", "sites": [{"bytes": 33, "directives": 4, "threshold": 5}, {"bytes": 70}]}]}'
fixture m2 '{"unit_id": "0x1002", "funcs": [{"name": "unused", "sites": [{"bytes": 9}]}]}'
fixture own '{"unit_id": "0x1003", "funcs": [{"name": "own", "sites": [{"bytes": 17}]}]}'
mkdir -p lib
ar rcs lib/libpair.a m1.o m2.o
main_calling used own
pi_ld -o prog main.o own.o -Llib -lpair
./prog || fail "prog does not run"
check_xlat prog m1.expect.json own.expect.json --units 2 > out
assert_contains "the pulled member's and the object's ranges, 2 units" out 'xlat ok: 3 items .* 2 units'

# The same member from a shared library stays in the library.
gcc -shared -o lib/libpair.so m1.o m2.o
pi_ld -o prog2 main.o own.o -Llib -lpair -Wl,-rpath,"$PWD/lib"
./prog2 || fail "prog2 does not run"
check_xlat prog2 own.expect.json --units 1 > out
assert_contains "only the program's own unit" out 'xlat ok: 1 items .* 1 units'
