#!/bin/bash
# The link recipe (.perfinst.link, version 2): the collect2 command line the
# link stage received (argv[0] the real collect2, --pi- options kept), with
# the real output name; the environment collect2 needs; cwd; output; every
# input that was linked, with its absolute path, the argument that named it
# (none for the runtime the stage added), size, mtime and pi_hash64
# (check.py recomputes them from the files); -l resolved as ld does.
# Replaying the recorded command through the stage links again.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/linker/lib-linker.sh"
stub_runtime
here=$(pwd -P) # recorded paths are resolved (realpath)

fixture fx '{"unit_id": "0x5e5e", "funcs": [{"name": "r1", "sites": [{"bytes": 8}]}]}'
main_calling r1 libfun
mkdir -p sub lib
mv main.o sub/main.o
echo 'int libfun(void) { return 0; }' > lf.c
gcc -fPIC -c lf.c
ar rcs lib/libfun.a lf.o
gcc -shared -o lib/libfun.so lf.o

pi_ld -o prog sub/main.o fx.o -L lib -lfun -lm --pi-line-size=128
./prog 2>/dev/null || LD_LIBRARY_PATH=lib ./prog || fail "prog does not run"
check_link prog > rec
cat rec
collect2=$(gcc -print-prog-name=collect2)
assert_contains "a collect2 command line" rec '^level 2$'
assert_contains "argv[0] is the real collect2" rec "^argv\\[0\\] $collect2\$"
assert_contains "the real output in argv" rec '^argv\[[0-9]+\] -o$'
grep -A1 -- '-o$' rec | grep -q '^argv\[[0-9]*\] prog$' || fail "-o is not followed by prog"
ok "... followed by its name"
assert_not_contains "no temporary name" rec 'perfinst-ld\.'
assert_contains "cwd" rec "^cwd $here\$"
assert_contains "output" rec '^output prog$'
assert_contains "--pi- options kept for the replay" rec '^argv\[[0-9]+\] --pi-line-size=128$'
assert_contains "the stage added the runtime" rec '^flags runtime$'
readelf -nW prog > notes
assert_contains "a build id" notes 'Build ID: [0-9a-f]+'
assert_contains "object in a subdirectory, absolute" rec "^input $here/sub/main.o argi [0-9]+ arg sub/main.o\$"
assert_contains "fixture object" rec "^input $here/fx.o argi [0-9]+ arg fx.o\$"
assert_contains "-lfun: the .so, as ld prefers" rec "^input $here/lib/libfun.so argi [0-9]+ arg -lfun\$"
assert_contains "-lm: through gcc's search path" rec '^input /.*/libm\.(so|a) argi [0-9]+ arg -lm$'
assert_contains "gcc's own inputs too (crt files, libc)" rec '^input /.*/crt1?[a-zS]*\.o argi [0-9]+ arg /'
assert_contains "the runtime, named by no argument" rec "^input $here/rt/libperfinst.so argi -1 arg -\$"
assert_contains "env: the driver" rec '^env COLLECT_GCC=(/.*/)?gcc$'
assert_contains "env: its program directories" rec '^env COMPILER_PATH=/'
assert_contains "env: where the runtime was found" rec "^env PERFINST_LIB_DIR=$here/rt\$"
check_xlat prog fx.expect.json --line-size 128 --units 1 > out
assert_contains "the line size asked for" out 'xlat ok: 1 items'

# Separate spellings reach collect2 joined; -Bstatic picks the archive; -l:FILE.
pi_ld -oprog2 sub/main.o fx.o -L lib -Wl,-Bstatic -l fun -Wl,-Bdynamic -l:libm.so.6
check_link prog2 > rec2
assert_contains "-oFILE: gcc passes -o FILE" rec2 '^output prog2$'
assert_contains "-l NAME under -Bstatic: the archive" rec2 "^input $here/lib/libfun.a argi [0-9]+ arg -lfun\$"
assert_contains "-l:FILE" rec2 '^input /.*/libm.so.6 argi [0-9]+ arg -l:libm.so.6$'

# The recipe replays: its argv through the stage again (to another output),
# with its environment, in its cwd.
mapfile -t argv < <(sed -n 's/^argv\[[0-9]*\] //p' rec)
mapfile -t envs < <(sed -n 's/^env //p' rec)
for k in "${!argv[@]}"; do [ "${argv[$k]}" = prog ] && argv[$k]=replayed; done
env "${envs[@]}" "$PILD" --pi-collect2 "${argv[@]:1}"
./replayed 2>/dev/null || LD_LIBRARY_PATH=lib ./replayed || fail "the replayed link does not run"
check_link replayed > rec4
assert_eq "the replay records the same inputs" "$(grep '^input' rec)" "$(grep '^input' rec4)"
ok "the recorded argv links again"

# An input that changes after the link no longer matches its record.
echo >> fx.o
check_link prog > rec3 2>&1 && fail "a changed input still matches"
assert_contains "a changed input is noticed" rec3 'fx.o: (size|hash|mtime)'
