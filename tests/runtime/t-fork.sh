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
    assert_not_contains "$p: child inherits nothing (main's unit all 0: no counts)" "perfinst.$p.$child.pit.txt" "^counts unit=0xb0b "
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

# A child signalled at once (Redis kills a fresh BGSAVE child with
# SIGUSR1): the signal waits until the runtime has made the child's state
# its own.  A child signalled before its fork handler had run spun for
# ever in the runtime's signal handler (the trace writer's lock still the
# parent's thread's), at 100% CPU; a little later it wrote the parent's
# counts.  Each child ends by the signal, and its trace, written by the
# signal handler, has none of the parent's counts.
pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$T/runtime/forksig.c" -o forksig.o
pi_ld -O2 -o forksig forksig.o
mkdir -p fs
PERFINST_OUT=fs/t.%p.pit timeout 300 ./forksig 20 > fs.out || { cat fs.out; fail "forksig: children hung"; }
assert_contains "forksig: every child ended by its SIGUSR1" fs.out "^20 forks, 20 ended by SIGUSR1, 0 hung; "
n=0 bad=0
for f in fs/t.*.pit; do
    c=$("$PMOPT" report --by=function --format=csv forksig "$f" 2> /dev/null | awk -F, '$4 == "parent_only" { print $2 }')
    n=$((n + 1))
    [ "${c:-0}" = 0 ] || bad=$((bad + 1))
done
assert_eq "forksig: the parent's trace and 20 children's" 21 "$n"
assert_eq "forksig: only the parent's trace counts parent_only" 1 "$bad"
