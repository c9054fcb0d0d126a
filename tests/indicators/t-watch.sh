# watch: reads and writes per word of a marked variable (both spellings), a
# marked struct type (through pointers and whole-object writes) and a marked
# field, as the source performs them, at -O0 and -O2 alike; a field beside
# a watched one and an unmarked variable count nothing; mode off counts
# nothing; PERFINST_WATCH_GRAN changes the word size.
. "$PERFINST_TOP/tests/lib.sh"
cat > expected <<'X'
table[0]: 3 reads, 3 writes
table[2]: 3 reads, 2 writes
counter: 1 reads, 2 writes
pt.x: 10 reads, 6 writes
pt.y: 0 reads, 6 writes
recs[0]: 1 reads, 1 writes
recs[1]: 0 reads, 1 writes
unwatched: 0 reads, 0 writes
X
for opt in -O0 -O2 "-O3 -flto"; do
    pi_cc $opt -g -c "$T/indicators/watch.c" -o w.o
    pi_ld $opt $( [ "$opt" = "-O3 -flto" ] && echo "-fplugin=$PLUGIN" ) -o w w.o
    PERFINST_OUT=w.pit ./w > out
    diff -u expected out || fail "$opt: watched counts differ"
    ok "$opt: per-word reads and writes exact"
    rm -f w.pit
done
PERFINST_MODE=off PERFINST_OUT=off.pit ./w > off
assert_contains "mode off: nothing counted" off "^table\[0\]: 0 reads, 0 writes$"
# with 16-byte words, table[0] and table[1] share a word: 6 reads, 6 writes
PERFINST_WATCH_GRAN=16 PERFINST_OUT=g.pit ./w > g16
assert_contains "16-byte words merge table[0] and [1]" g16 "^table\[0\]: 6 reads, 6 writes$"
PERFINST_WATCH_GRAN=3 PERFINST_OUT=g3.pit ./w > g3 2> g3.err
assert_contains "bad PERFINST_WATCH_GRAN reported" g3.err "PERFINST_WATCH_GRAN=3"
