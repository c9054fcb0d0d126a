#!/bin/bash
# Reproducible objects: two identical compiles give byte-identical objects
# (the unit id no longer hashes cc1's temporary file name, the object's
# name or the working directory), with and without -pipe, in two copies of
# one tree (relative paths; absolute paths with -ffile-prefix-map, with and
# without -g); the unit id stays apart for one source compiled with other
# definitions, which perfinst-ld requires of objects linked together; and
# preprocessed input (-save-temps) compiles.
source "$PERFINST_TOP/tests/lib.sh"
mkdir -p one/src one/include
cat > one/include/k.h <<'C'
static inline int k(int x) { return x * K; }
C
cat > one/src/x.c <<'C'
#include "k.h"
int FN(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += k(i);
    return s;
}
C
cp -r one two
cc() { pi_cc -O2 -fplugin-arg-perfinst-all=count -DK=3 -DFN=f "$@"; }
unit() { "$PMOPT" dump-meta "$1" | sed -n 's/^unit \(0x[0-9a-f]*\).*/\1/p'; }
same() { cmp "$2" "$3" || fail "$1: $2 and $3 differ"; ok "$1: $2 = $3"; }

cd one
cc -Iinclude -c src/x.c -o a.o
cc -Iinclude -c src/x.c -o b.o
cc -pipe -Iinclude -c src/x.c -o c.o
cc -Iinclude -c src/x.c -o d.o -fdiagnostics-color=always -MD
same "twice" a.o b.o
same "-pipe" a.o c.o
same "-MD, -fdiagnostics-color" a.o d.o
cd ../two
cc -Iinclude -c src/x.c -o a.o
same "the other checkout" ../one/a.o a.o
cd ..
for t in one two; do
    (cd $t && cc -I"$PWD/include" -c "$PWD/src/x.c" -o abs.o &&
        cc -ffile-prefix-map="$PWD=." -I"$PWD/include" -c "$PWD/src/x.c" -o map.o &&
        cc -g -ffile-prefix-map="$PWD=." -I"$PWD/include" -c "$PWD/src/x.c" -o mapg.o)
done
assert_eq "absolute paths: one unit id in both checkouts" "$(unit one/abs.o)" "$(unit two/abs.o)"
same "absolute paths, -ffile-prefix-map" one/map.o two/map.o
same "absolute paths, -ffile-prefix-map, -g" one/mapg.o two/mapg.o
"$PMOPT" dump-meta one/map.o > meta
assert_contains "file names as DWARF spells them" meta "function 0 f \(\./src/x\.c:2\)"

cd one
cc -Iinclude -c src/x.c -o k4.o -UK -DK=4
cc -Iinclude -c src/x.c -o g.o -UFN -DFN=g
ids=$( (unit a.o; unit k4.o; unit g.o) | sort -u | wc -l)
assert_eq "other definitions, other unit ids" 3 "$ids"
echo 'int f(int); int g(int); int main(void) { return f(3) + g(4) != 9 + 18; }' > main.c
pi_cc -O2 -c main.c -o main.o
pi_ld a.o g.o main.o -o both
./both || fail "f and g linked together: wrong result"
ok "the same source twice in one program links and runs"
cc -Iinclude -c src/x.c -o t.o -save-temps=obj
"$PMOPT" dump-meta t.o > meta
assert_contains "-save-temps: the preprocessed input compiles" meta "function 0 f "
