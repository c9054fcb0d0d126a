#!/bin/bash
# Fatal signals: the trace is complete (END) with a SIGNAL record and the
# counts so far, and the process still dies of the signal.  A signal the
# program ignores is left alone.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
# die PROG CMD STATUS SIGNO: run, expect the exit status and the record.
die() {
    local st=0
    ./$1 $2 77 2> err || st=$?
    assert_eq "$1 $2: exit status" "$3" "$st"
    f=$(only_trace "perfinst.$1.[0-9]*.pit")
    dump "$f"
    assert_contains "$1 $2: counts" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=77,0,0$"
    assert_contains "$1 $2: signal record" "$f.txt" "^signal signo=$4 "
    assert_contains "$1 $2: complete" "$f.txt" "^end nrecords=5$"
    cp "$f.txt" "last.txt"
    rm -f perfinst.*
}
for p in prog prog.static; do
    die $p segv 139 11
    assert_contains "$p: fault address" last.txt "^signal signo=11 code=1 addr=0x10$"
    die $p overflow 139 11        # the handler ran on the alternate stack
    die $p abort 134 6
    die $p term 143 15
done

# SIGTERM ignored by the parent stays ignored: no handler, no SIGNAL record.
st=0
(trap '' TERM; exec ./prog term 5) || st=$?
assert_eq "ignored SIGTERM: normal exit" 14 "$st"
f=$(only_trace "perfinst.prog.[0-9]*.pit")
dump "$f"
assert_not_contains "no signal record" "$f.txt" "^signal"
