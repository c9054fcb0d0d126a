#!/bin/bash
# The output appears only by rename() at the end: a failed link (gcc's
# status passed through), refused metadata or a refused input leaves an
# existing output untouched and no temporary file behind; a good link
# replaces it.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime

fixture good '{"unit_id": "0x600d", "funcs": [{"name": "h1", "sites": [{"bytes": 8}]}]}'
fixture bad '{"unit_id": "0xbad", "corrupt": "crc", "funcs": [{"name": "h2", "sites": [{"bytes": 8}]}]}'
main_calling h1
mkdir out
echo "the previous good output" > out/prog
cp out/prog keep
no_leftovers() {
    ls -A out > listing
    assert_eq "$1: nothing but prog in out/" "prog" "$(cat listing)"
}

# 1. the link fails (undefined symbol): gcc's status and message, prog kept.
echo 'void nowhere(void); void h1(void) { nowhere(); }' > undef.c
gcc -c undef.c
set +e
pi_ld -o out/prog main.o undef.o > err 2>&1
status=$?
set -e
gcc -o plain main.o undef.o > gccerr 2>&1 && fail "the plain link should fail"
assert_eq "exit status is gcc's" 1 "$status"
assert_contains "gcc's message passed through" err "undefined reference to .nowhere"
cmp -s out/prog keep || fail "failed link changed out/prog"
ok "failed link left out/prog untouched"
no_leftovers "failed link"

# 2. an input is refused before linking.
expect_fail "corrupt input" pi_ld -o out/prog main.o good.o bad.o
cmp -s out/prog keep || fail "refused input changed out/prog"
ok "refused input left out/prog untouched"
no_leftovers "refused input"

# 3. the linked metadata is refused (a unit pulled from an archive clashes
#    with one on the command line): the output is refused, named, kept.
fixture twin '{"unit_id": "0x600d", "funcs": [{"name": "h3", "sites": [{"bytes": 99}]}]}'
ar rcs libtwin.a twin.o
MAIN_CFLAGS= main_calling h1 h3
expect_fail "clashing units" pi_ld -o out/prog main.o good.o -L. -ltwin
assert_contains "the output is named" err 'refusing the metadata linked into out/prog'
assert_contains "both inputs are named" err 'good.o.*libtwin.a\(twin.o\)|libtwin.a\(twin.o\).*good.o'
cmp -s out/prog keep || fail "refused output changed out/prog"
no_leftovers "refused output"

# 4. a good link replaces it; the mode is an executable's.
main_calling h1
pi_ld -o out/prog main.o good.o
cmp -s out/prog keep && fail "good link did not replace out/prog"
out/prog || fail "out/prog does not run"
[ -x out/prog ] || fail "out/prog is not executable"
no_leftovers "good link"
ok "good link replaced out/prog"

# 5. the output directory does not exist: refused, nothing created.
expect_fail "missing directory" pi_ld -o nodir/prog main.o good.o
assert_contains "the directory is named" err 'nodir'
[ ! -e nodir ] || fail "nodir was created"

# 6. default output a.out, and an absolute -o.
pi_ld main.o good.o
[ -x a.out ] && ./a.out || fail "no working a.out"
pi_ld -o "$PWD/out/abs" main.o good.o
out/abs || fail "absolute -o"
