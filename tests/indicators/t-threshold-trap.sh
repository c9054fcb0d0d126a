# threshold(count=13) fires on executions 13, 26, 39 and names the real
# callers (C called by B called by A); the counter resets after each event.
# trap runs the TRAP vector at each of 7 executions.  With the mode register
# off, neither runs.  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2; do
    build_thresh $opt
    assert_contains "$opt: fired on reaching 13, 26, 39 (not 12, 24, 36)" out "^fired at executions 13 26 39$"
    for i in 1 2 3; do
        assert_contains "$opt: event $i stack" out "^event $i: C<B<A<main$"
    done
    PERFINST_MODE=off PERFINST_OUT=off.pit ./th > off
    assert_contains "$opt: mode off: no event, no trap, same result" off "^events 0, traps 0, sum 1682$"
    assert_contains "$opt: mode off: fired at no execution" off "^fired at executions$"
    rm -f th.pit off.pit
done
