#!/bin/bash
# exec: the trace is written before the image is replaced; a failed exec
# goes on counting; a vfork child's exec writes nothing; an instrumented
# image exec'ed in the same process gets a file of its own.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
for p in prog prog.static; do
    ./$p exec 5 /bin/echo hello > out
    assert_contains "$p: exec'ed program ran" out "^hello$"
    f=$(only_trace "perfinst.$p.*")
    dump "$f"
    assert_contains "$p: counts before exec" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=5,0,0$"
    rm -f perfinst.*

    ./$p execfail 5 6
    f=$(only_trace "perfinst.$p.*")
    dump "$f"
    assert_contains "$p: failed exec, counting went on" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=11,0,0$"
    rm -f perfinst.*

    if [ "${PERFINST_SANITIZE:-}" = thread ]; then
        ok "$p: vfork skipped: ThreadSanitizer turns vfork into fork"
    else
    ./$p vfork 9
    f=$(only_trace "perfinst.*")
    dump "$f"
    assert_contains "$p: vfork child's exec leaves the parent's trace alone" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=9,0,0$"
    rm -f perfinst.*
    fi

    ./$p exec 7 "$PWD/$p" count
    # the second image of the same pid finds perfinst.PROG.PID.pit taken:
    # perfinst.PROG.PID.PID.pit
    f=$(ls | grep -E "^perfinst\.$p\.[0-9]+\.pit$")
    [ "$(echo "$f" | wc -l)" = 1 ] || { ls -la; fail "$p: expected one perfinst.$p.PID.pit"; }
    pid=${f#perfinst.$p.}
    pid=${pid%.pit}
    f2=perfinst.$p.$pid.$pid.pit
    dump "$f"
    dump "$f2"
    assert_contains "$p: first image" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=7,0,0$"
    assert_contains "$p: first image's argv" "$f.txt" "args=$PWD/$p\|exec\|7\|"
    assert_contains "$p: second image, same pid" "$f2.txt" "^header .* pid=$pid "
    assert_contains "$p: second image's counts" "$f2.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=0,1,0$"
    rm -f perfinst.*
done
