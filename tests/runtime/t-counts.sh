#!/bin/bash
# Single-threaded exact counts, the trace's header, PROCESS and MODULE
# records (shared and static runtime, PIE and non-PIE), and a unit with an
# unknown ABI version refused with one message.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
gcc $CFIX -pthread -no-pie -o prog.nopie "$R/prog.c" -L"$B" -lperfinst -Wl,-rpath,"$B"

for p in prog prog.static prog.nopie; do
    ./$p count 1234
    f=$(only_trace "perfinst.$p.[0-9]*.pit")
    dump "$f"
    pid=${f#perfinst.$p.}
    pid=${pid%.pit}
    assert_contains "$p: header" "$f.txt" "^header version=1 flags=0x0 mode_off=0 pid=$pid ppid=$$ line_size=[0-9]+ "
    assert_contains "$p: argv" "$f.txt" "^process nthreads=1 argc=3 args=$PWD/$p\|count\|1234$"
    bid=$(readelf -n $p | awk '/Build ID/ {print $3}')
    [ -n "$bid" ] || fail "$p has no build-id"
    assert_contains "$p: module" "$f.txt" "^module index=0 build_id=$bid bias=0x[0-9a-f]+ path=$PWD/$p$"
    assert_contains "$p: unit a" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=1234,1,0$"
    assert_contains "$p: unit b" "$f.txt" "^counts unit=0xb0b module=0 ncounters=1 counts=1$"
    assert_contains "$p: end" "$f.txt" "^end nrecords=4$"
    rm "$f"
done
assert_contains "non-PIE: load bias 0" "$f.txt" "^module .* bias=0x0 "
grep -q "^module .* bias=0x0 " perfinst.prog.static.*.txt && fail "PIE program with a zero load bias"

./prog badabi 3 > out 2> err
assert_eq "one message for three units with unknown ABI versions" 1 "$(wc -l < err)"
assert_contains "the message names the unit and versions" err "^perfinst: unit 0x0000000000000bad was built for ABI version 99 but this libperfinst speaks version 1"
assert_contains "refused unit's mode word untouched" out "^bad mode word 7$"
assert_contains "refused unit's functions (one registration call) count nothing" out "^bad switches 0 0$"
f=$(only_trace "perfinst.prog.*.pit")
dump "$f"
assert_not_contains "refused unit not in the trace" "$f.txt" "unit=0xbad"
assert_contains "other units counted" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=3,0,0$"

# Bounded tables (issue 16): what a table could not hold is counted in a
# LOST record; the per-thread threshold counters grow (100 sites reached:
# 100 events, where a thread used to stop at 64 sites silently).
for p in prog prog.static; do
    PERFINST_EVENTS=30 PERFINST_SITESTATS=256 PERFINST_OUT=tb.pit ./$p tables 500 > /dev/null
    "$PMOPT" dump tb.pit > tb.txt
    assert_eq "$p: 100 threshold sites, each reached once" 100 "$(grep -c ' SITESTAT .*kind threshold, count 1,' tb.txt)"
    assert_eq "$p: PERFINST_EVENTS=30: 30 events kept" 30 "$(grep -c ' EVENT ' tb.txt)"
    assert_contains "$p: ... 70 lost, said" tb.txt " LOST table 3 \(events\), capacity 30, lost 70, items 0$"
    assert_contains "$p: PERFINST_SITESTATS=256: the probe executions that found no slot" tb.txt " LOST table 2 \(sitestat\), capacity 256, lost [1-9][0-9]*, items 0$"
    assert_contains "$p: trace regions nested past 8: 2 intervals lost" tb.txt " LOST table 4 \(trace-depth\), capacity 8, lost 2, items 0$"
    rm -f tb.pit
done
