#!/bin/bash
# The translation table and shadow-segment template (.perfinst.xlat):
# every surviving code range is an item with its site's counter, directives
# and threshold, at the address nm gives; every line of every item lists it;
# discarded (addr 0) and empty ranges have no item; --pi-line-size works;
# --gc-sections and COMDAT copies drop the code's ranges with the code.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime

fixture u1 '{"unit_id": "0x1111000000000001", "funcs": [
  {"name": "f1", "sites": [
     {"bytes": 5, "directives": 1},
     {"bytes": 150, "directives": 12, "threshold": 13},
     {"bytes": 64, "align": 64, "directives": 16},
     {"bytes": 3, "copies": 2, "directives": 513},
     {"bytes": 7, "copies": 2, "discard_copies": [1]},
     {"bytes": 0}]},
  {"name": "f2", "sites": [{"bytes": 1, "counter": false, "directives": 2048}]}]}'
fixture u2 '{"unit_id": "0x2222000000000002", "funcs": [
  {"name": "f3", "sites": [{"bytes": 70, "directives": 4, "threshold": 1000},
                           {"bytes": 2, "directives": 32}]}]}'
main_calling f1 f2 f3

pi_ld -o prog main.o u1.o u2.o
./prog || fail "prog does not run"
check_xlat prog u1.expect.json u2.expect.json --units 2 > out
cat out
assert_contains "9 items, some spanning lines" out 'xlat ok: 9 items \(([2-9]|[1-9][0-9]+) spanning'

pi_ld --pi-line-size=32 -o prog32 main.o u1.o u2.o
check_xlat prog32 u1.expect.json u2.expect.json --units 2 --line-size 32 > out32
assert_contains "line size 32" out32 'xlat ok: 9 items .* line 32$'
expect_fail "--pi-line-size=48" pi_ld --pi-line-size=48 -o bad main.o u1.o
assert_contains "line size refused" err 'power of two'

# --gc-sections: a CODE chunk SHF_LINK_ORDER to its function goes with it.
fixture gc '{"unit_id": "0x3333", "code_style": "linkorder", "funcs": [
  {"name": "live", "section": ".text.live", "sites": [{"bytes": 9}, {"bytes": 90}]},
  {"name": "dead", "section": ".text.dead", "sites": [{"bytes": 20}]}]}'
main_calling live
pi_ld -o gcprog main.o gc.o -Wl,--gc-sections
nm gcprog > syms
assert_not_contains "dead code collected" syms 'pim_3333_2_0'
check_xlat gcprog gc.expect.json --units 1 > outgc
assert_contains "only the live function's ranges" outgc 'xlat ok: 2 items'

# An inline function in two units: ld keeps one copy, and its CODE chunk
# (in the same COMDAT group) with it.
fixture c1 '{"unit_id": "0xc1", "funcs": [{"name": "fc", "section": ".text.fc", "comdat": true, "sites": [{"bytes": 4}]}]}'
fixture c2 '{"unit_id": "0xc2", "funcs": [{"name": "fc", "section": ".text.fc", "comdat": true, "sites": [{"bytes": 4}]}]}'
main_calling fc
pi_ld -o cprog main.o c1.o c2.o
check_xlat cprog c1.expect.json c2.expect.json --units 2 > outc
assert_contains "one copy of the inline function" outc 'xlat ok: 1 items'
