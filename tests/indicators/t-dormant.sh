# Dormant classes and secondary metrics (seed 004 M25) on dormant.c: walk's
# branch class reads exactly 0 after each of the first 30 calls (the
# primary threshold fires at the 30th), then grows by exactly the same
# number per call from the 31st — the branches of one call, which equal
# pmopt report's static-count x executions total for the run / 100 calls;
# level 3 follows the first counted call (the class's threshold is 1) and
# times the remaining 69 calls; walk was flagged hot 3 times (calls 30, 60,
# 90); still, never flagged, stays at level 1 with 0.  With the mode
# register off the probes do not run.  pmopt report and its json show it.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -c "$T/indicators/dormant.c" -o d.o
pi_ld -O2 -o dorm d.o
PERFINST_OUT=d.pit ./dorm > out 2> err
cat out err
[ ! -s err ] || fail "the runtime complained"
assert_contains "level 2 after the primary threshold, still 0" out "^after call 30: level 2, flagged hot 1, secondary 0$"
assert_contains "zero until the 30th call" out "^zero until the primary threshold: yes$"
assert_contains "the same count per call after" out "^then per call: [1-9][0-9]*, linear: yes$"
per=$(sed -n 's/^then per call: \([0-9]*\),.*/\1/p' out)
"$PMOPT" report ./dorm d.pit > rep 2> /dev/null
total=$(awk '/^  walk .*types branch/ { t = 1 } t && $1 == "total" { gsub("~", "", $3); print $3; exit }' rep)
assert_eq "per call = the run's branches (static x executions) / 100" "$total" "$((per * 100))"
assert_eq "walk at the end" "walk: level 3, flagged hot 3, invocations 70, secondary $((per * 70)), branch $((per * 70)), tertiary 69" \
    "$(grep '^walk:' out)"
assert_eq "the SECONDARY vector ran once" "secondary events 1, value $per" "$(grep '^secondary events' out)"
assert_eq "still stays dormant" "still: level 1, flagged hot 0, secondary 0" "$(grep '^still:' out)"
assert_eq "an unknown function" "unknown: -1" "$(grep '^unknown:' out)"
cat rep
assert_contains "report: walk's row" rep "^ +3 +3 +70 +$((per * 70)) +branch +69 +[0-9]+ +walk +[^ ]*dormant\.c:[0-9]+$"
assert_contains "report: still's row" rep "^ +1 +0 +0 +0 +load\|store +0 +- +still "
"$PMOPT" report --format=json ./dorm d.pit > rep.json 2> /dev/null
python3 - "$per" <<'PY' || fail "json"
import json, sys
per = int(sys.argv[1])
d = {x["function"]: x for x in json.load(open("rep.json"))["dormant"]}
w = d["walk"]
assert (w["level"], w["flagged_hot"], w["invocations"], w["secondary"], w["tertiary"], w["class"]) == (3, 3, 70, 70 * per, 69, "branch"), w
assert (d["still"]["level"], d["still"]["secondary"], d["still"]["class"]) == (1, 0, "load|store"), d
PY
ok "json: dormant rows"
"$PMOPT" dump d.pit > dump
assert_contains "dump: the level-3 event" dump "EVENT .* kind secondary, value $per,"
# two runs merged: counts added, the level the highest
PERFINST_OUT=d2.pit ./dorm > /dev/null
"$PMOPT" merge -o m.pit d.pit d2.pit > /dev/null
"$PMOPT" report ./dorm m.pit > mrep 2> /dev/null
assert_contains "merged: walk's row" mrep "^ +3 +6 +140 +$((per * 140)) +branch +138 +[0-9]+ +walk "
# PERFINST_DORMANT=handler: the runtime only flags; without a handler that
# arms it the class stays off, with one (perfinst_dormant_set) it counts
# exactly as with the default
PERFINST_DORMANT=handler ./dorm > h1 2> /dev/null
assert_contains "handler mode, no handler: level 1 after the primary" h1 "^after call 31: level 1, flagged hot 1, secondary 0$"
assert_contains "handler mode, no handler: nothing counted" h1 "^walk: level 1, flagged hot 3, invocations 0, secondary 0,"
PERFINST_DORMANT=handler DORMANT_BY_HANDLER=1 ./dorm > h2 2> /dev/null
assert_eq "handler mode, the handler arms it: the same counts" "$(grep -E '^(walk|secondary events)' out)" \
    "$(grep -E '^(walk|secondary events)' h2)"
PERFINST_DORMANT=bogus ./dorm > /dev/null 2> e
assert_contains "a bad PERFINST_DORMANT is reported" e "PERFINST_DORMANT=bogus: expected auto or handler"
# (the program stops at once when walk is unknown to the runtime)
expect_fail "mode off: the probes do not run, walk stays unknown" env PERFINST_MODE=off ./dorm
"$PMOPT" dump-meta dorm > meta
assert_contains "dump-meta: walk's directives" meta "^  function [0-9]+ walk .*threshold\|dormant"
