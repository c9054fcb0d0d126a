#!/bin/bash
# The link recipe (.perfinst.link): argv exactly as gcc was run, with the
# real output name; cwd; output; every input that was linked, with its
# absolute path, the argument that named it, size, mtime and pi_hash64
# (check.py recomputes them from the files); -l resolved as ld does.
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

pi_ld -o prog sub/main.o fx.o -L lib -lfun -lm
./prog 2>/dev/null || LD_LIBRARY_PATH=lib ./prog || fail "prog does not run"
check_link prog > rec
cat rec
assert_contains "argv[0] is the compiler" rec '^argv\[0\] gcc$'
assert_contains "the real output in argv" rec '^argv\[1\] -o$'
assert_contains "... followed by its name" rec '^argv\[2\] prog$'
assert_not_contains "no temporary name" rec 'perfinst-ld\.'
assert_contains "cwd" rec "^cwd $here\$"
assert_contains "output" rec '^output prog$'
assert_contains "build id asked for" rec '^argv\[[0-9]+\] -Wl,--build-id$'
assert_contains "object in a subdirectory, absolute" rec "^input $here/sub/main.o argi 3 arg sub/main.o\$"
assert_contains "fixture object" rec "^input $here/fx.o argi 4 arg fx.o\$"
assert_contains "-lfun: the .so, as ld prefers" rec "^input $here/lib/libfun.so argi [0-9]+ arg -lfun\$"
assert_contains "-lm: through gcc's search path" rec '^input /.*/libm\.(so|a) argi [0-9]+ arg -lm$'
assert_contains "the runtime" rec "^input $here/rt/libperfinst.so argi [0-9]+ arg -lperfinst\$"
assert_contains "5 inputs" rec 'link ok: [0-9]+ arguments, 5 inputs'

# Joined and separate spellings; -Bstatic picks the archive; -l:FILE.
pi_ld -oprog2 sub/main.o fx.o -L lib -Wl,-Bstatic -l fun -Wl,-Bdynamic -l:libm.so.6
check_link prog2 > rec2
assert_contains "-oFILE kept as given" rec2 '^argv\[1\] -oprog2$'
assert_contains "-l NAME under -Bstatic: the archive" rec2 "^input $here/lib/libfun.a argi [0-9]+ arg fun\$"
assert_contains "-l:FILE" rec2 '^input /.*/libm.so.6 argi [0-9]+ arg -l:libm.so.6$'

# The recipe replays: run its argv again (to another output) in its cwd.
mapfile -t argv < <(sed -n 's/^argv\[[0-9]*\] //p' rec)
for k in "${!argv[@]}"; do [ "${argv[$k]}" = prog ] && argv[$k]=replayed; done
"${argv[@]}"
./replayed 2>/dev/null || LD_LIBRARY_PATH=lib ./replayed || fail "the replayed link does not run"
ok "the recorded argv links again"

# An input that changes after the link no longer matches its record.
echo >> fx.o
check_link prog > rec3 2>&1 && fail "a changed input still matches"
assert_contains "a changed input is noticed" rec3 'fx.o: (size|hash)'
