#!/bin/bash
# PIE, non-PIE and -shared outputs: the perfinst sections are SHT_PROGBITS
# without SHF_ALLOC, no dynamic relocation comes from them (the same dynamic
# relocations as a plain gcc link of the same inputs), the items carry
# link-time addresses (nm), and the programs run.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime

spec='{"unit_id": "0xabc0000000000001", "funcs": [
  {"name": "g1", "sites": [{"bytes": 12, "directives": 1}, {"bytes": 130, "directives": 5, "threshold": 7}]},
  {"name": "g2", "sites": [{"bytes": 40, "copies": 3, "directives": 8}]}]}'
fixture fx "$spec"
rt_args="-L$PWD/rt -Wl,-rpath,$PWD/rt -lperfinst -pthread"

dynrelocs() { readelf -rW "$1" | grep -cE '^[0-9a-f]{16} ' || true; }
check_sections() {
    perfinst_sections "$1" > secs
    assert_contains "$1: .perfinst.xlat PROGBITS, no flags" secs '^\.perfinst\.xlat type=1 flags=0x0$'
    assert_contains "$1: .perfinst.link PROGBITS, no flags" secs '^\.perfinst\.link type=1 flags=0x0$'
    assert_contains "$1: .perfinst PROGBITS, not allocated" secs '^\.perfinst type=1 flags=0x0$'
    readelf -SW "$1" | grep -E '\.perfinst' > rs
    assert_not_contains "$1: readelf shows no A flag" rs ' A[A-Z]* '
    # non-allocated sections get no dynamic relocations: as many as without perfinst
    assert_eq "$1: dynamic relocations" "$(dynrelocs "$2")" "$(dynrelocs "$1")"
}

for mode in -pie -no-pie; do
    MAIN_CFLAGS=$([ $mode = -pie ] && echo -fPIE || echo -fno-PIE) main_calling g1 g2
    pi_ld $mode -o prog$mode main.o fx.o
    gcc $mode -o plain$mode main.o fx.o $rt_args
    ./prog$mode || fail "prog$mode does not run"
    check_sections prog$mode plain$mode
    check_xlat prog$mode fx.expect.json --units 1 > out
    assert_contains "prog$mode: 5 items" out 'xlat ok: 5 items'
done
readelf -h prog-pie | grep -q 'DYN' || fail "prog-pie is not PIE"
readelf -h prog-no-pie | grep -q 'EXEC' || fail "prog-no-pie is not EXEC"

# A shared library, and a program that uses it.
pi_ld -shared -o libfx.so fx.o
gcc -shared -o plainfx.so fx.o $rt_args
check_sections libfx.so plainfx.so
check_xlat libfx.so fx.expect.json --units 1 > out
assert_contains "libfx.so: 5 items" out 'xlat ok: 5 items'
MAIN_CFLAGS=-fPIE main_calling g1 g2
pi_ld -o useslib main.o -L. -lfx -Wl,-rpath,"$PWD"
./useslib || fail "useslib does not run"
check_xlat useslib --units 0 > out
assert_contains "the program has no items of its own" out 'xlat ok: 0 items'
