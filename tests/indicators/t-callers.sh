# thresh.c through pmopt: the Indicators section shows the threshold site's
# 3 events in 40 executions at C and the trap's 7 handler calls in 7
# executions at T; --callers turns the events' stacks into arcs B → C and
# A → B (3 events each), also after merging two runs (whose load biases
# differ: the frames are kept as link-time addresses).  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2; do
    build_thresh $opt
    "$PMOPT" dump-meta th > meta
    assert_contains "$opt: dump-meta names C's handler" meta "^  site [0-9]+: block, .*thresh\.c:[0-9]+:[0-9]+, .*count\|threshold, threshold 13, handler on_hot,"
    "$PMOPT" report --callers th th.pit > rep 2> err
    cat rep
    assert_contains "$opt: threshold hits 3 of 40 at C" rep "^  threshold +3 of 40  count=13 .* C +[^ ]*thresh\.c:[0-9]+$"
    assert_contains "$opt: trap hits 7 of 7 at T" rep "^  trap +7 of 7 .* T +[^ ]*thresh\.c:[0-9]+$"
    assert_contains "$opt: callers of C from 3 events" rep "^  C  3 events$"
    assert_contains "$opt: B → C, 3 events" rep "^    B → C  3$"
    assert_contains "$opt: A → B, 3 events" rep "^      A → B  3$"
    assert_contains "$opt: main → A, 3 events" rep "^        main → A  3$"
    assert_not_contains "$opt: no DWARF note" err "DWARF"
    "$PMOPT" report --format=json --callers th th.pit > rep.json
    python3 - <<'PY' || fail "$opt: json indicators or callers"
import json
r = json.load(open("rep.json"))
ind = {x["function"]: x for x in r["indicators"]}
assert (ind["C"]["kind"], ind["C"]["hits"], ind["C"]["execs"], ind["C"]["threshold"]) == ("threshold", 3, 40, 13), ind
assert (ind["T"]["kind"], ind["T"]["hits"], ind["T"]["execs"]) == ("trap", 7, 7), ind
c = r["callers"]
assert [x["function"] for x in c] == ["C"] and c[0]["events"] == 3, c
b = c[0]["callers"]
assert [(x["function"], x["count"]) for x in b] == [("B", 3)], b
a = b[0]["callers"]
assert [(x["function"], x["count"]) for x in a] == [("A", 3)], a
PY
    ok "$opt: json indicators and callers"
    # a second run, merged: the frames of both runs meet at link-time addresses
    PERFINST_OUT=th2.pit ./th > /dev/null
    "$PMOPT" merge -o m.pit th.pit th2.pit > /dev/null
    "$PMOPT" report --callers th m.pit > mrep
    assert_contains "$opt: merged: B → C, 6 events" mrep "^    B → C  6$"
    assert_contains "$opt: merged: A → B, 6 events" mrep "^      A → B  6$"
    assert_contains "$opt: merged: threshold hits 6 of 80" mrep "^  threshold +6 of 80 "
    rm -f th.pit th2.pit m.pit
done
