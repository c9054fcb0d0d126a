#!/bin/bash
# Partial traces.  A trace written while the process goes on counting
# (perfinst_write_trace, PERFINST_FLUSH, a failed exec) is marked partial
# (PI_TF_PARTIAL); the exit-time trace is not.
# 1. PERFINST_FLUSH=1: a process killed with SIGKILL keeps the counts of the
#    last flush, in a complete trace marked partial (without it: no trace).
# 2. A full disk at exit (root: a small tmpfs): the exit-time rewrite fails
#    and the earlier trace stays — marked partial, never read as finished
#    with stale counts: after perfinst_write_trace, and after a failed exec
#    whose trace was final until exec failed (marked partial in place).
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"
build_prog prog "$R/prog.c"
# flags TXT: the header's flags of a dumped trace
flags() { sed -n 's/^header version=1 flags=\(0x[0-9a-f]*\) .*/\1/p' "$1"; }

for p in prog prog.static; do
    ./$p write 5 0 > /dev/null
    f=$(only_trace "perfinst.$p.[0-9]*.pit")
    dump "$f"
    assert_eq "$p: the exit-time trace is not partial" 0x0 "$(flags "$f.txt")"
    rm -f perfinst.*

    st=0
    PERFINST_FLUSH=1 PERFINST_OUT=$PWD/k.pit ./$p flushkill 77 "$PWD/k.pit" 2> err || st=$?
    assert_eq "$p: killed" 137 "$st"
    dump k.pit
    assert_eq "$p flush: partial" 0x8 "$(flags k.pit.txt)"
    assert_contains "$p flush: the counts of the last flush" k.pit.txt "^counts unit=0xa11ce module=0 ncounters=3 counts=77,0,0$"
    assert_not_contains "$p flush: no signal record (SIGKILL)" k.pit.txt "^signal"
    "$PMOPT" dump k.pit > d
    assert_contains "$p flush: pmopt dump says partial" d "flags 0x8 \(partial\)"
    rm -f k.pit*
    st=0
    PERFINST_OUT=$PWD/k.pit ./$p raise 77 9 2> err || st=$?
    assert_eq "$p without PERFINST_FLUSH: killed, no trace (the control)" "137 absent" "$st $( [ -e k.pit ] && echo present || echo absent)"
done

PERFINST_FLUSH=0 ./prog count 1 2> err
assert_contains "PERFINST_FLUSH=0: said" err "^perfinst: PERFINST_FLUSH=0: expected a number of seconds from 1 to 86400; no periodic flush$"
rm -f perfinst.*

if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=64k tmpfs full 2> /dev/null; then
    trap 'umount "$PWD/full"' EXIT
    for how in write exec; do
        rm -f full/*
        st=0
        PERFINST_OUT=$PWD/full/t.pit ./prog fill 7 "$PWD/full" $how > out 2> err || st=$?
        assert_eq "full disk after $how: the program's exit status" 0 "$st"
        assert_contains "full disk after $how: said" err "^perfinst: cannot write the trace $PWD/full/t\.pit\.tmp: No space left on device$"
        cp full/t.pit t.pit
        dump t.pit
        assert_eq "full disk after $how: the trace left is partial" 0x8 "$(flags t.pit.txt)"
        assert_contains "full disk after $how: with the counts it had" t.pit.txt "^counts unit=0xa11ce module=0 ncounters=3 counts=7,0,0$"
        "$PMOPT" dump t.pit > d
        assert_contains "full disk after $how: pmopt dump says partial" d "flags 0x8 \(partial\)"
    done
else
    echo "SKIPPED full disk: needs root to mount a small tmpfs"
fi
