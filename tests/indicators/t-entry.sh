# A body that starts with a loop head gets an entry block of its own: the
# trap fires and the entry count grows once per call.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/indicators/loophead.c" -o lh.o
    pi_ld $opt -o lh lh.o
    PERFINST_OUT=lh.pit ./lh > out
    assert_contains "$opt: one trap per call" out "^traps 3$"
    "$PMOPT" report ./lh lh.pit --by=function --format=csv > f.csv
    assert_contains "$opt: entered 3 times" f.csv "^[0-9]+,3,[^,]*,spin,"
    rm -f lh.pit
done
