#!/bin/bash
# Programs without perfinst metadata link and still get (empty) XLAT and
# LINK sections; command lines that do not link go to gcc untouched; our
# own options; a link whose output would already carry XLAT is refused.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime

pi_ld --help > help
assert_contains "--help" help '--pi-static-runtime'
pi_ld --version > version
assert_contains "--version" version '^perfinst-ld \(perfinst\) [0-9.]+, format version 2, link recipe version 2$'
assert_contains "--version: then gcc's" version '^gcc .*[0-9]+\.[0-9]+\.[0-9]+'
expect_fail "unknown --pi- option" pi_ld --pi-frobnicate -o x nothing.o
assert_contains "names the option" err 'unknown option --pi-frobnicate'

# Not a link: -c goes to gcc as it is (an object, no perfinst sections).
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' > hello.c
pi_ld -c hello.c -o hello.o
perfinst_sections hello.o > secs
assert_eq "-c: no perfinst sections" "" "$(cat secs)"
pi_ld -print-prog-name=ld > ldname
assert_contains "-print-...: gcc's answer" ldname 'ld'

# C sources straight to a program, no metadata at all.
pi_ld -O1 -o hello hello.c
[ "$(./hello)" = hello ] || fail "hello does not run"
check_xlat hello --units 0 > out
assert_contains "empty translation table" out 'xlat ok: 0 items .* 0 units'
check_link hello > rec
assert_contains "recipe present" rec '^argv\[0\] /.*/collect2$'
# compiled and linked in one step: collect2 linked gcc's temporary object,
# gone since; the stage kept a copy beside the output, and the recipe
# records it (linker/keep.c; a relink gives the linker the copy)
assert_contains "the kept copy of gcc's temporary object is the input" rec "^input $PWD/\.perfinst-objs/hello\.0\.o argi [0-9]+ arg /.*/cc[A-Za-z0-9]{6}\.o$"
assert_contains "no runtime: nothing refers to it" rec '^flags $'
readelf -dW hello > hello.d
assert_not_contains "no DT_NEEDED libperfinst" hello.d 'libperfinst'
assert_not_contains "no RUNPATH of ours" hello.d 'R(UN)?PATH'

# An object that smuggles in a .perfinst.xlat section makes the output
# carry one: refused, not doubled.
python3 "$L/check.py" dump hello .perfinst.xlat > xlat.bin
objcopy --add-section .perfinst.xlat=xlat.bin --set-section-flags .perfinst.xlat=contents,readonly hello.o smuggler.o
expect_fail "output already has XLAT" pi_ld -o smuggled smuggler.o
assert_contains "says why" err 'smuggled: .*already .*\.perfinst\.xlat'
[ ! -e smuggled ] || fail "smuggled was written"
ls -A | grep -q perfinst-ld && fail "a temporary directory was left behind"
ok "no temporary left"

# Linking a perfinst-ld output (a shared library) as an input is fine.
echo 'int lib1(void) { return 7; }' > lib1.c
pi_ld -shared -fPIC -o liblib1.so lib1.c
printf 'int lib1(void);\nint main(void) { return lib1() != 7; }\n' > m.c
pi_ld -o m m.c -L. -llib1 -Wl,-rpath,"$PWD"
./m || fail "m does not run"
check_xlat m --units 0 > out

# -flto: gcc runs the link-time compilation as usual.
gcc -flto -O2 -c hello.c -o hello-lto.o
pi_ld -flto -O2 -o hello-lto hello-lto.o
[ "$(./hello-lto)" = hello ] || fail "hello-lto does not run"
check_xlat hello-lto --units 0 > out
assert_contains "-flto link annotated" out 'xlat ok: 0 items'

# An output that is not a regular file (-o /dev/null, a FIFO) is written
# to, not replaced: the link goes to a temporary file elsewhere and its
# bytes into the output (a rename made /dev/null an executable for every
# process on the machine; the temporary directory went into /dev).
through_fifo out.fifo from-fifo pi_ld -O2 -o out.fifo hello.o
assert_eq "-o FIFO: exit status" 0 "$fifo_rc"
chmod +x from-fifo
assert_eq "the program came through the FIFO" hello "$(./from-fifo)"
assert_eq "no temporary directory left beside it" "" "$(ls -a | grep perfinst-ld || true)"
if null_device nul; then
    pi_ld -O2 -o nul hello.o
    assert_null_device "-o to a character device" nul
fi
[ -c /dev/null ] || fail "/dev/null is not a character device any more"
