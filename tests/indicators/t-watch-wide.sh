#!/bin/bash
# watch on an access wider than a word (watchwide.c): a 24-byte struct
# copied by one aggregate assignment, 5 times, then one field written.
# Every word the access covers counts it once: p1's three words 5 reads
# each (p1.b also 1 write), p2's three words 5 writes each; at -O0 and -O2.
# With PERFINST_WATCH_GRAN=16 the struct (32-byte aligned) is two words:
# p1.a and p1.b share the first (5 reads, 1 write).  (t-watch.sh's fixture
# has no access wider than 8 bytes: GCC splits its initialisers.)
. "$PERFINST_TOP/tests/lib.sh"
cat > expected <<'X'
p1.a: 5 reads, 0 writes
p1.b: 5 reads, 1 writes
p1.c: 5 reads, 0 writes
p2.a: 0 reads, 5 writes
p2.b: 0 reads, 5 writes
p2.c: 0 reads, 5 writes
X
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/indicators/watchwide.c" -o ww.o
    pi_ld $opt -o ww ww.o
    PERFINST_OUT=ww.pit ./ww > out || fail "$opt: the program failed"
    diff -u expected out || fail "$opt: per-word counts of the wide accesses differ"
    ok "$opt: a 3-word access counts in each of its words"
    rm -f ww.pit
done
PERFINST_WATCH_GRAN=16 PERFINST_OUT=g.pit ./ww > g16
assert_contains "16-byte words: p1.a and p1.b share one" g16 "^p1\.a: 5 reads, 1 writes$"
assert_contains "16-byte words: p1.c in the second" g16 "^p1\.c: 5 reads, 0 writes$"
