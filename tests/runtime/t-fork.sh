#!/bin/bash
# fork: the child's trace holds only what the child counted, the parent's
# only what the parent counted, in different files.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
for p in prog prog.static; do
    ./$p fork 10 20 30 > out
    parent=$(sed -n 's/^parent //p' out)
    child=$(sed -n 's/^child //p' out)
    [ -n "$parent" ] && [ -n "$child" ] && [ "$parent" != "$child" ] || fail "pids: $(cat out)"
    dump "perfinst.$p.$parent.pit"
    dump "perfinst.$p.$child.pit"
    assert_contains "$p: parent counts before and after" "perfinst.$p.$parent.pit.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=40,0,0$"
    assert_contains "$p: parent's main counted once" "perfinst.$p.$parent.pit.txt" "^counts unit=0xb0b module=0 ncounters=1 counts=1$"
    assert_contains "$p: child counts its own only" "perfinst.$p.$child.pit.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=20,0,0$"
    assert_contains "$p: child inherits nothing" "perfinst.$p.$child.pit.txt" "^counts unit=0xb0b module=0 ncounters=1 counts=0$"
    assert_contains "$p: child header" "perfinst.$p.$child.pit.txt" "^header .* pid=$child ppid=$parent "
    rm -f perfinst.*
done

# One PERFINST_OUT name for both: the child (which exits first) takes it,
# the parent gets <stem>.<pid>.pit; neither overwrites the other.
PERFINST_OUT=same.pit ./prog fork 1 2 3 > out
parent=$(sed -n 's/^parent //p' out)
child=$(sed -n 's/^child //p' out)
dump same.pit
dump "same.$parent.pit"
assert_contains "child kept the name" same.pit.txt "^header .* pid=$child .*"
assert_contains "child's counts" same.pit.txt "counts=2,0,0$"
assert_contains "parent's counts" "same.$parent.pit.txt" "counts=4,0,0$"
