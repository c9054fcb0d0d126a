#!/bin/bash
# timeout: 600
# Signals: every signal that can be caught and whose default action ends
# the process leaves a complete trace (END) with a SIGNAL record and the
# counts so far, and the process still dies of the signal (same exit
# status).  The program's own dispositions win: a handler or SIG_IGN it
# installs (before or after the runtime started) keeps the trace free of
# a SIGNAL record, SIG_DFL put back gives the runtime's trace again, and
# the program never sees the runtime's handler when it asks.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
# die PROG CMD STATUS SIGNO [SIG]: run, expect the exit status and the record.
die() {
    local st=0
    ./$1 $2 77 ${5:-} 2> err || st=$?
    assert_eq "$1 $2 ${5:-}: exit status" "$3" "$st"
    f=$(only_trace "perfinst.$1.[0-9]*.pit")
    dump "$f"
    assert_contains "$1 $2 ${5:-}: counts" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=77,0,0$"
    assert_contains "$1 $2 ${5:-}: signal record" "$f.txt" "^signal signo=$4 "
    # (a STOPPED record where the signal interrupted the program's own code)
    local n=5
    grep -q '^stopped module=0 count=1 ' "$f.txt" && n=6
    assert_contains "$1 $2 ${5:-}: complete" "$f.txt" "^end nrecords=$n$"
    cp "$f.txt" "last.txt"
    rm -f perfinst.*
}
# normal PROG CMD SIG STATUS OUT: a normal exit with STATUS and OUT on
# stdout, a trace without a SIGNAL record.
normal() {
    local st=0
    ./$1 $2 77 $3 > out 2> err || st=$?
    assert_eq "$1 $2 $3: exit status" "$4" "$st"
    assert_eq "$1 $2 $3: output" "$5" "$(cat out)"
    f=$(only_trace "perfinst.$1.[0-9]*.pit")
    dump "$f"
    assert_contains "$1 $2 $3: counts" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=77,0,0$"
    assert_not_contains "$1 $2 $3: no signal record" "$f.txt" "^signal"
    rm -f perfinst.*
}
# every catchable signal whose default action is to end the process
fatal="HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT XCPU XFSZ VTALRM PROF IO PWR SYS"
rt_min=$(kill -l RTMIN) rt_max=$(kill -l RTMAX)
for p in prog prog.static; do
    die $p segv 139 11
    assert_contains "$p: fault address" last.txt "^signal signo=11 code=1 addr=0x10$"
    assert_contains "$p: where the fault stopped the thread" last.txt "^stopped module=0 count=1 pc=0x"
    die $p overflow 139 11        # the handler ran on the alternate stack
    die $p abort 134 6
    die $p term 143 15
    for s in $fatal; do
        n=$(kill -l $s)
        die $p raise $((128 + n)) $n $n
    done
    for n in $(seq "$rt_min" "$rt_max"); do
        die $p raise $((128 + n)) $n $n
    done
    # SIGPIPE through a real pipe: the reader goes away after two lines
    ./$p pipe 77 2> err | head -2 > head.out
    assert_eq "$p pipe: died of SIGPIPE" 141 "${PIPESTATUS[0]}"
    assert_eq "$p pipe: the reader's lines" "line 0 line 1" "$(echo $(cat head.out))"
    f=$(only_trace "perfinst.$p.[0-9]*.pit")
    dump "$f"
    assert_contains "$p pipe: counts" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=77,0,0$"
    assert_contains "$p pipe: signal record" "$f.txt" "^signal signo=13 code=0 "
    rm -f perfinst.*

    # the program's own dispositions, set after the runtime started
    for s in USR1 TERM PIPE ALRM; do
        n=$(kill -l $s)
        normal $p own $n 4 "caught $n"
        normal $p ownsa $n 4 "caught $n"
        normal $p ignore $n 5 ""
        die $p restore $((128 + n)) $n $n    # SIG_DFL back: the runtime's again
        ./$p query $n > out
        assert_eq "$p query $s: the program sees SIG_DFL" "sigaction: dfl signal: dfl then: ign" "$(cat out)"
        rm -f perfinst.*
    done
done

# SIGTERM ignored by the parent stays ignored: no handler, no SIGNAL record.
st=0
(trap '' TERM; exec ./prog term 5) || st=$?
assert_eq "ignored SIGTERM: normal exit" 14 "$st"
f=$(only_trace "perfinst.prog.[0-9]*.pit")
dump "$f"
assert_not_contains "no signal record" "$f.txt" "^signal"
rm -f perfinst.*
(trap '' USR1; exec ./prog query 10) > out
assert_eq "inherited SIG_IGN: seen as it is" "sigaction: ign signal: ign then: ign" "$(cat out)"
rm -f perfinst.*
# A process of one thread sets each terminating signal with one sigaction
# (ours swapped in), and a second puts an inherited SIG_IGN back: not a
# look and a set each (the system calls of every counted process's start)
if [ -n "${PERFINST_SANITIZE:-}" ]; then
    echo "SKIP: the start's sigaction count (a sanitizer's runtime sets its own, and LeakSanitizer cannot run under ptrace)"
elif command -v strace > /dev/null; then
    printf '#include <signal.h>\n#include <stdio.h>\nint main(void) { printf("%%d", 22 + SIGRTMAX - SIGRTMIN + 1); return 0; }\n' > nsig.c
    gcc -o nsig nsig.c
    nsig=$(./nsig)
    sigs() { strace -f -e trace=rt_sigaction -o st.out "$@" > /dev/null 2>&1; grep -c rt_sigaction st.out; }
    assert_eq "start: one sigaction a terminating signal" "$nsig" "$(PERFINST_OUT=/dev/null sigs ./prog count 1)"
    assert_eq "start: an ignored one put back" "$((nsig + 1))" "$(trap '' USR1; PERFINST_OUT=/dev/null sigs ./prog count 1)"
else
    echo "SKIP: the start's sigaction count (no strace)"
fi
