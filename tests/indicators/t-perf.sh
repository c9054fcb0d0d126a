# PERFINST_PERF: per-thread perf_event counters read at trace_start and
# trace_stop.  task-clock (a software event, which works on these VMs)
# proves the path: 5 intervals (3 in main, 1 in each of 2 threads) of a
# region that spins for >= 2 ms of CPU each, so >= 5 ms in all (half the
# least, for slack).  A hardware event is either refused with one clear
# message (these machines: no PMU) or counted; an unknown name is reported.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -c "$T/indicators/perf.c" -o f.o
pi_ld -O2 -o f f.o -pthread

PERFINST_PERF=task-clock,context-switches PERFINST_OUT=sw.pit ./f > sw 2> sw.err
assert_contains "two software events in force" sw "^events: 2$"
assert_contains "task-clock counts in the thread" sw "^event task-clock: counting$"
[ -s sw.err ] && { cat sw.err; fail "software events: unexpected messages"; }
"$PMOPT" dump sw.pit > dump
assert_contains "a PERF record for the trace_start site, 5 intervals" dump "PERF unit 0x[0-9a-f]+, site [0-9]+, intervals 5, nevents 2$"
tc=$(sed -n 's/^    task-clock: //p' dump)
[ "$tc" -ge 5000000 ] || fail "task-clock over 5 intervals of >= 2 ms CPU: $tc ns"
ok "task-clock summed over the intervals: $tc ns"
"$PMOPT" report f sw.pit > rep
assert_contains "report names the region's function and line" rep "^  task-clock +5 +[0-9]+  region .*perf.c:[0-9]+$"
"$PMOPT" report --by=perf --format=json f sw.pit > rep.json
python3 -c 'import json,sys; p=json.load(open("rep.json"))["perf"]; assert [(x["event"], x["intervals"]) for x in p] == [("task-clock", 5), ("context-switches", 5)], p'
ok "report json: perf member"

PERFINST_PERF=cycles,task-clock PERFINST_OUT=hw.pit ./f > hw 2> hw.err
"$PMOPT" dump hw.pit > hwdump
if grep -q "not supported" hw.err; then
    assert_eq "one message for the hardware event (3 threads used it)" 1 "$(grep -c . hw.err)"
    assert_contains "the message names the event and the reason" hw.err "^perfinst: PERFINST_PERF: 'cycles' is not supported on this machine \(perf_event_open: .*\); it is not counted$"
    assert_contains "the supported event still counts" hw "^events: 1$"
    assert_not_contains "cycles left out of the trace" hwdump "^    cycles:"
else
    assert_contains "a PMU: cycles counted" hw "^event cycles: counting$"
fi

PERFINST_PERF=task-clock,bogus PERFINST_OUT=bad.pit ./f > bad 2> bad.err
assert_contains "unknown event reported" bad.err "PERFINST_PERF=task-clock,bogus: unknown event 'bogus'"
assert_contains "the known one still counts" bad "^events: 1$"
./f > none 2> none.err
assert_contains "without PERFINST_PERF nothing is read" none "^events: 0$"
