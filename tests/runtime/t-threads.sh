#!/bin/bash
# Per-thread counters are exact: 8 threads x 1e6 increments; threads that
# end with pthread_exit; a thread still running at exit.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
for p in prog prog.static; do
    for round in 1 2 3; do
        ./$p threads 8 1000000
        f=$(only_trace "perfinst.$p.[0-9]*.pit")
        dump "$f"
        assert_contains "$p: 8 x 1e6 (round $round)" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=8000000,0,0$"
        assert_contains "$p: 9 threads collected" "$f.txt" "^process nthreads=9 "
        rm "$f"
    done

    ./$p pexit 8 1000000
    f=$(only_trace "perfinst.$p.[0-9]*.pit")
    dump "$f"
    assert_contains "$p: pthread_exit 8 x 1e6" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=8000000,0,0$"
    rm "$f"

    ./$p running 4321
    f=$(only_trace "perfinst.$p.[0-9]*.pit")
    dump "$f"
    assert_contains "$p: thread still running at exit" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=4321,0,0$"
    assert_contains "$p: main and the running thread" "$f.txt" "^process nthreads=2 "
    rm "$f"
done
