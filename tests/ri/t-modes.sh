# sample(...) on a statement: in work(10) the loop's units are the unit
# after the pragma, 10 bodies, 11 tests and the exit block holding the end
# of the statement: 23 a call (2n + 3), so two calls are units 1 .. 46 and
# every=3 samples at 3, 6, ..., 45; work2's statement is one directed unit
# a call (47, 48; 48 is also the count's: one group, count|directed).
# Cycles mode: cycles=1 makes every unit a sample point (a TSC tick passes
# between two units), a huge interval none.  pmopt export --chrome writes
# JSON with an event per report group, carrying its CPU and units, and a
# counter track for emitted values.  At -O0 and -O2.  Group times stay in
# order when the clock is stepped back (clockstep.c).
. "$PERFINST_TOP/tests/lib.sh"
units() { awk '/INSTRUCTION/ { for (i = 1; i <= NF; i++) if ($i == "units") printf "%s ", $(i+1) }' "$1"; }
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/ri/region.c" -o region.o
    pi_ld $opt -o region region.o
    PERFINST_OUT=r.pit ./region 10 > /dev/null
    "$PMOPT" dump r.pit > r
    assert_eq "$opt: statement units, every 3rd, and the directed ones" "$(seq -s ' ' 3 3 45) 47 48 " "$(units r)"
    assert_eq "$opt: 47 directed only" 1 "$(grep -c 'INSTRUCTION flags 0x4 (directed), .*units 47$' r)"
    assert_eq "$opt: 48 both" 1 "$(grep -c 'INSTRUCTION flags 0x5 (count|directed), .*units 48$' r)"

    pi_cc $opt -g -c "$T/ri/count.c" -o count.o
    pi_ld $opt -o count count.o
    PERFINST_RI=cycles=1 PERFINST_OUT=c.pit ./count 50 tick > /dev/null
    "$PMOPT" dump c.pit > c
    assert_eq "$opt: cycles=1: every unit" "$(seq -s ' ' 1 50) " "$(units c)"
    assert_eq "$opt: ... taken for the cycles" 50 "$(grep -c 'INSTRUCTION flags 0x2 (cycles)' c)"
    assert_contains "$opt: ... mode cycles" c "\] BEGIN flags 0x0 \(-\), rgs 2, mode cycles, nrg 50,"
    PERFINST_RI=cycles=1000000000000000 PERFINST_OUT=c2.pit ./count 50 tick > /dev/null
    "$PMOPT" dump c2.pit > c2
    assert_not_contains "$opt: a huge cycles interval: none" c2 "INSTRUCTION"
    rm -f *.pit
done

pi_cc -O2 -g -c "$T/ri/events.c" -o ev.o
pi_ld -O2 -o ev ev.o
PERFINST_RI=rgs=3 PERFINST_OUT=e.pit ./ev emit > /dev/null
PERFINST_OUT=r.pit ./region 10 > /dev/null
"$PMOPT" export --chrome e.json e.pit
"$PMOPT" export --chrome r.json r.pit
python3 - <<'PY' || fail "chrome JSON"
import json
e = json.load(open("e.json"))["traceEvents"]
groups = [x for x in e if x["ph"] == "i"]
assert len(groups) == 1 and groups[0]["name"] == "directed", groups
a = groups[0]["args"]
assert a["units"] == 1 and a["cpu"] in (0, 1) and a["capability"] == "primary" and a["signature"].startswith("0x"), a
assert a["records"][0].startswith("CALL ") and a["records"][1] == "EMIT %s value 0x15e" % a["records"][1].split()[1], a["records"]
emits = [x["args"]["value"] for x in e if x["ph"] == "C" and x["name"] == "emit"]
assert emits == [1, 4, 9, 16, 25, 42, 1007, 350], emits
r = json.load(open("r.json"))["traceEvents"]
groups = [x for x in r if x["ph"] == "i"]
assert [g["args"]["units"] for g in groups] == list(range(3, 46, 3)) + [47, 48], groups
assert [g["name"] for g in groups][-3:] == ["count", "directed", "directed"]
assert all(g["ts"] >= 0 for g in groups) and [g["ts"] for g in groups] == sorted(g["ts"] for g in groups)
assert any(x["ph"] == "M" and x["name"] == "thread_name" for x in r)
PY
ok "chrome JSON: groups, args, emit counter, times in order"

# Group times keep their order when the clock is stepped back: every
# reading of CLOCK_REALTIME a second earlier than the last (clockstep.c).
# They are the start's time of day plus the CLOCK_MONOTONIC time since
# (from the time of day itself, each group was a second before the last).
gcc -O2 -shared -fPIC -o clockstep.so "$T/ri/clockstep.c" -ldl
LD_PRELOAD=$PWD/clockstep.so PERFINST_OUT=step.pit ./region 10 > /dev/null
"$PMOPT" dump step.pit > step
start=$(sed -n 's/^header: .*start_ns \([0-9]*\),.*/\1/p' step)
sed -n 's/.*\] \(BEGIN\|TIMESTAMP\) .*tod_ns \([0-9]*\)$/\2/p' step > tods
assert_eq "a clock stepped back: all 17 group times" 17 "$(wc -l < tods)"
python3 - "$start" tods <<'PY' || fail "group times out of order under a stepped clock"
import sys
start, tods = int(sys.argv[1]), [int(l) for l in open(sys.argv[2])]
assert start > 0 and all(start <= a <= b for a, b in zip([start] + tods, tods)), (start, tods)
PY
ok "a clock stepped back: group times in order, none before the start"
expect_fail "export without a format" "$PMOPT" export e.pit
assert_contains "... says so" err "no format given"
expect_fail "export of a missing trace" "$PMOPT" export --chrome x.json nosuch.pit
