#!/bin/bash
# Load: every instrumentation mode at once (count, trap, threshold, cycles,
# watch, a trace region, an overlay turning a function off, a process in
# mode off) in 64 threads and forked, exec'd and killed processes; several
# such process trees run at the same time with the same PERFINST_OUT.  The
# work is fixed (load.c: 3000 iterations per thread), so it ends in bounded
# time and every count is exact: nothing is lost at exit, at exec, at fork or
# when a process dies of SIGTERM, every trace is complete, and no two
# processes write the same file (check-load.py).  LOAD_RUNS trees (3).
. "$PERFINST_TOP/tests/lib.sh"
runs=${LOAD_RUNS:-3}
pi_cc -O2 -g -c "$T/load/load.c" -o load.o
pi_ld -O2 -o load load.o -pthread
unit=$("$PMOPT" dump-meta load | awk '/^unit / { print $2 }')
fn=$("$PMOPT" dump-meta load | awk '/^  function [0-9]+ offable / { print $2 }')
[ -n "$unit" ] && [ -n "$fn" ] || fail "unit or function number of offable not found"
printf 'perfinst-overlay 1\noff %s %s\n' "$unit" "$fn" > off.ov

mkdir out
if [ -n "${PERFINST_SANITIZE:-}" ]; then
    # Under a sanitizer a child forked while threads run cannot be trusted:
    # TSan refuses its new threads ("dup thread with used id"), gcc 12's ASan
    # may deadlock in its allocator (a lock held by a thread that is gone).
    # The 64 threads alone, twice at once; runtime/t-fork.sh forks there.
    for i in 1 2; do (cd out && PERFINST_OVERLAY=../off.ov ../load threads > ../run$i.out) & done
    wait
    for i in 1 2; do assert_contains "run $i" run$i.out "^ok threads$"; done
    python3 "$T/load/check-load.py" "$PMOPT" ./load 0 out/* > check.out || { cat check.out; fail "traces"; }
    ok "$(tail -1 check.out)"
    exit 0
fi
for i in $(seq "$runs"); do
    (cd out && st=0 && PERFINST_OVERLAY=../off.ov PERFINST_OUT=load.pit ../load > ../run$i.out 2> ../run$i.err || st=$?; echo $st > ../run$i.status) &
done
wait
for i in $(seq "$runs"); do
    assert_eq "run $i exit status" 0 "$(cat run$i.status)"
    for role in parent fork kill exec off; do
        assert_contains "run $i: $role process saw its own handlers and watched words" run$i.out "^ok $role$"
    done
    assert_not_contains "run $i: nothing on stderr" run$i.err "."
done
ls out
n=$(ls out | wc -l)
assert_eq "one trace per process image (7 per run)" $((7 * runs)) "$n"
assert_not_contains "no temporary file left" <(ls out) '\.tmp'
python3 "$T/load/check-load.py" "$PMOPT" ./load "$runs" out/* > check.out || { cat check.out; fail "traces"; }
ok "$(tail -1 check.out)"
