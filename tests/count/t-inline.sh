# Counts of a marked function survive inlining and unrolling: at -O2/-O3 the
# function has no out-of-line copy left, yet every line count is exact.
. "$PERFINST_TOP/tests/lib.sh"
for opt in "-O2" "-O3 -funroll-all-loops" "-O2 -flto"; do
    pi_cc $opt -g -c "$T/count/inline.c" -o i.o
    pi_ld $opt -o inl i.o $( [ "$opt" = "-O2 -flto" ] && echo "-fplugin=$PLUGIN" )
    nm inl | grep -q " clamp" && fail "$opt: clamp was not inlined (the test needs it inlined)"
    PERFINST_OUT=i.pit ./inl > out
    assert_eq "$opt output" 18625 "$(cat out)"
    python3 "$T/count/check-counts.py" "$PMOPT" ./inl "$T/count/inline.c" i.pit > c || { cat c; fail "$opt"; }
    ok "$opt inlined: $(tail -1 c)"
    rm -f i.pit
done
