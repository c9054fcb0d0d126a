#!/bin/bash
# Corrupt or foreign .perfinst in an input is refused before linking, with a
# message naming that input (an object, or an archive member as
# lib.a(member.o)); so are two objects defining one unit differently.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime

fixture ok1 '{"unit_id": "0x0c1", "funcs": [{"name": "k1", "sites": [{"bytes": 8}]}]}'
main_calling k1 k2
i=0
for how in version crc magic kind site succ; do
    i=$((i + 1))
    fixture bad$how "{\"unit_id\": \"0xbad$i\", \"corrupt\": \"$how\", \"funcs\": [{\"name\": \"k2\", \"sites\": [{\"bytes\": 8}, {\"bytes\": 4}]}]}"
    expect_fail "$how: object" pi_ld -o prog main.o ok1.o bad$how.o
    assert_contains "$how: names the object" err "^perfinst-ld: refusing input bad$how.o: "
    assert_not_contains "$how: not linked" err 'running|collect2'
    [ ! -e prog ] || fail "$how: prog was written"

    ar rcs libbad$how.a ok1.o bad$how.o
    expect_fail "$how: archive member" pi_ld -o prog main.o -L. -lbad$how
    assert_contains "$how: names the member" err "refusing input /.*/libbad$how\\.a\\(bad$how\\.o\\): "
    expect_fail "$how: archive by path" pi_ld -o prog main.o libbad$how.a
    assert_contains "$how: names the member" err "refusing input libbad$how\\.a\\(bad$how\\.o\\): "
done
pi_ld -o prog main.o ok1.o badversion.o > err 2>&1 || true
assert_contains "version message" err 'version 7 \(this reader knows 2\)'
pi_ld -o prog main.o ok1.o badcrc.o > err 2>&1 || true
assert_contains "crc message" err 'hdr_crc mismatch'

# Two objects of the command line define one unit differently.
fixture twin '{"unit_id": "0x0c1", "funcs": [{"name": "k2", "sites": [{"bytes": 16}]}]}'
expect_fail "unit defined twice" pi_ld -o prog main.o ok1.o twin.o
assert_contains "names both objects" err 'refusing inputs ok1.o and twin.o: both define unit 0x00000000000000c1'
[ ! -e prog ] || fail "prog was written"

# The same unit, identical, in two linked objects (a copy with its symbols
# renamed) is folded into one unit; both copies' code ranges are items.
objcopy --redefine-sym k1=k1copy --redefine-sym pim_c1_0_0=pim_c1_0_0_copy ok1.o copy.o
sed 's/"pim_c1_0_0"/"pim_c1_0_0_copy"/' ok1.expect.json > copy.expect.json
main_calling k1 k1copy
pi_ld -o prog main.o ok1.o copy.o
check_xlat prog ok1.expect.json copy.expect.json --units 1 > out
assert_contains "one unit, two items" out 'xlat ok: 2 items .* 1 units'
