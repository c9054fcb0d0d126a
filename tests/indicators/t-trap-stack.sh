# trap's handler gets the program counter only, and the call stack on
# demand: perfinst_event_stack() walks it from inside the handler (T < U <
# main), and a second call returns the same.  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/indicators/trapstack.c" -o ts.o
    pi_ld $opt -rdynamic -o ts ts.o -ldl
    PERFINST_OUT=ts.pit ./ts > out
    assert_contains "$opt: 5 traps, each without a stack until asked" out "^traps 5, lazy 5, same 5, sum 50$"
    assert_contains "$opt: the stack on demand" out "^stack 3 T<U<main$"
    rm -f ts.pit
done
