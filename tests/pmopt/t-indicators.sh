#!/bin/bash
# The indicators' records (SITESTAT, EVENT, TRACEREG): pmopt dump decodes
# them; pmopt report shows the indicators, callers, regions, trace regions
# and types views with exact numbers (ind.c/ind.json: a site's ninsns is
# 3 + its index, branch = index % 2, call = (index % 3 == 0), ret = 0);
# pmopt merge combines them whatever the order of its inputs; records whose
# sizes contradict themselves are refused.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
UI=0xc0c0c0c000000003
build_obj ind
gcc ind.o -o ind
#        hot slow coded typed:3 4 5  main:6 7 8 9 10  tr
CI=40,20,10,10,4,10,3,12,3,1,1,7
D=5,0,0,2,1,2,0,0,0,0,1,0      # counter deltas between trace_start (site 9) and trace_stop

sym() { nm ind | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
hot=$(sym hot); mid=$(sym mid); top=$(sym top); main=$(sym main)
mid_end=$(printf '0x%x' $((mid + 0x$(nm -S ind | awk '$4 == "mid" { print $2 }'))))
# A: hot <- mid (a return address at mid's very end: the call is mid's last
# instruction) <- top <- a library <- PROG's module but 4 GiB up <- main
LIB=/usr/lib/x86_64-linux-gnu/libind-fixture.so
framesA="p+$((hot + 8)),p+$mid_end,p+$((top + 16)),l+0x100,p+0x100000000,p+$((main + 48))"
framesB="p+$hot,p+$((mid + 5)),p+$((main + 64))"
pigen trace -o a.pit --prog ind --pid 100 --unit "$UI=$CI" --lib "$LIB:00112233" \
    --sitestat "$UI:0:threshold:3:40:0:0:0" --sitestat "$UI:1:cycles:5:20:200000:10:50000" \
    --sitestat "$UI:2:cycles:2:10:1000:0:700" --sitestat "$UI:9:trace:1:1:5000:5000:5000" \
    --sitestat "$UI:11:trap:7:7:0:0:0" --sitestat "0x77:0:trap:1:1:0:0:0" \
    --event "$UI:0:threshold:4:100:$framesA" --event "$UI:0:threshold:4:100:$framesA" \
    --event "$UI:0:threshold:4:101:$framesA" \
    --tracereg "$UI:9:$UI=$D" --tracereg "$UI:9:0x77=1,2"
pigen trace -o b.pit --prog ind --pid 200 --unit "$UI=1,1,1,1,1,1,1,1,1,1,1,1" \
    --tracereg "$UI:9:$UI=1,0,0,0,0,0,0,0,0,0,1,0" --event "$UI:0:threshold:4:200:$framesB" \
    --sitestat "$UI:9:trace:2:2:3000:1000:2000" --sitestat "$UI:1:cycles:0:0:0:0:0" \
    --sitestat "$UI:0:threshold:1:13:0:0:0"
pigen trace -o c.pit --prog ind --pid 300 --sitestat "$UI:1:cycles:1:1:7:7:7"

# ---- dump decodes the new records
run_pmopt dump a.pit
[ $rc = 0 ] || { cat err; fail "dump exited $rc"; }
assert_contains "dump: SITESTAT" out "^#[0-9]+ @0x[0-9a-f]+ SITESTAT unit 0xc0c0c0c000000003, site 1, kind cycles, count 5, execs 20, sum 200000, min 10, max 50000$"
assert_contains "dump: EVENT" out "^#[0-9]+ @0x[0-9a-f]+ EVENT unit 0xc0c0c0c000000003, site 0, kind threshold, value 4, tid 101, nframes 6$"
assert_contains "dump: EVENT frames, four to a line" out "^    \[0\] 0x$(printf %x $((0x555555554000 + hot + 8))) 0x$(printf %x $((0x555555554000 + mid_end))) "
assert_contains "dump: TRACEREG" out "^#[0-9]+ @0x[0-9a-f]+ TRACEREG start unit 0xc0c0c0c000000003 site 9, unit 0xc0c0c0c000000003, ncounters 12$"
assert_contains "dump: TRACEREG counts" out "^    \[0\] 5 0 0 2 1 2 0 0$"

# ---- report: every view, exact numbers
run_pmopt report --format=json --callers ind a.pit
[ $rc = 0 ] || { cat err; fail "report exited $rc"; }
assert_contains "records of units not in PROG: a note" err "a.pit: 2 indicator records of units that are not in ind: ignored"
python3 - <<'PY' || fail "report json"
import json
r = json.load(open("out"))
ind = {(x["site"], x["kind"]): x for x in r["indicators"]}
assert set(ind) == {(0, "threshold"), (1, "cycles"), (2, "cycles"), (9, "trace"), (11, "trap")}, ind
x = ind[(0, "threshold")]
assert (x["function"], x["hits"], x["execs"], x["threshold"], x["threshold_from"], x["cycles"]) == \
    ("hot", 3, 40, 4, "directive", None), x
x = ind[(1, "cycles")]
assert (x["hits"], x["execs"], x["threshold"], x["threshold_from"]) == (5, 20, 1000, "directive"), x
assert x["cycles"] == {"sum": 200000, "mean": 10000, "min": 10, "max": 50000}, x
x = ind[(2, "cycles")]   # code 0b011: 10 + 50 through the default table
assert (x["hits"], x["execs"], x["threshold"], x["threshold_from"]) == (2, 10, 60, "code 0x3, default table"), x
assert x["cycles"] == {"sum": 1000, "mean": 100, "min": 0, "max": 700}, x
x = ind[(11, "trap")]
assert (x["function"], x["hits"], x["execs"], x["threshold"]) == ("tr", 7, 7, None), x
x = ind[(9, "trace")]
assert (x["function"], x["hits"], x["cycles"]["mean"]) == ("main", 1, 5000), x

# callers: hot <- mid <- top <- ? (a library, then PROG's module 4 GiB up: one ?) <- main
c = r["callers"]
assert len(c) == 1 and c[0]["function"] == "hot" and c[0]["events"] == 3, c
def chain(n):
    out = []
    while n["callers"]:
        assert len(n["callers"]) == 1, n
        n = n["callers"][0]
        out.append((n["function"], n["count"]))
    return out
assert chain(c[0]) == [("mid", 3), ("top", 3), ("?", 3), ("main", 3)], chain(c[0])

g = r["regions"]
assert len(g) == 1, g
g = g[0]
# visits: the region_begin site (6); inside: sites 7 (12 x 10 insns, two ranges) and 8 (3 x 11)
assert (g["region"], g["function"], g["visits"], g["blocks"], g["instructions"], g["approximate"],
        g["sites"]) == ("loop", "main", 3, 15, 12 * 10 + 3 * 11, True, 3), g

t = r["trace_regions"]
assert len(t) == 1, t
t = t[0]
assert (t["site"], t["function"], t["intervals"], t["cycles"]["sum"]) == (9, "main", 1, 5000), t
# deltas 5 0 0 2 1 2 0 0 0 0 1 0: hot 5 x 3, typed 2 x 6 + 1 x 7 + 2 x 8, main (site 10) 1 x 13
assert (t["blocks"], t["instructions"], t["approximate"], t["foreign_blocks"]) == (11, 63, True, 3), t
f = {x["function"]: (x["entries"], x["blocks"]) for x in t["functions"]}
assert f == {"hot": (5, 5), "typed": (2, 5), "main": (None, 1)}, f

ty = r["types"]
assert len(ty) == 1 and ty[0]["function"] == "typed" and ty[0]["types"] == ["branch", "call", "ret"], ty
ty = ty[0]
assert ty["dynamic"] == {"branch": 10 + 10, "call": 10, "ret": 0} and ty["approximate"] is True, ty
s = {x["site"]: x for x in ty["sites"]}
assert s[3]["static"] == {"branch": 1, "call": 1, "ret": 0} and s[3]["dynamic"] == {"branch": 10, "call": 10, "ret": 0}, s[3]
assert (s[4]["ranges"], s[4]["count"], s[4]["insns"]) == (2, 4, 7), s[4]
assert s[5]["dynamic"] == {"branch": 10, "call": 0, "ret": 0}, s[5]
print("report views ok")
PY
ok "report: indicators, callers, regions, trace regions, types exact"

# ---- text
run_pmopt report --callers ind a.pit
[ $rc = 0 ] || { cat err; fail "text report exited $rc"; }
# every view, in order (golden/indicators.txt): threshold 3 of 40 at hot
# (ind.c:10); cycles 2 of 10 through the default code table (0b011 = 60
# cycles, 100/0/700); trap 7 of 7 at tr; the callers' arcs mid → hot,
# top → mid, ? → top, 3 each; region loop 3 visits, 15 blocks, ~153
# instructions (approximate); the trace region's 11 block executions,
# ~63 instructions, hot entered 5 times; the types' totals ~168/~20/~10/~0
assert_golden "the text report" out pmopt/golden/indicators.txt

# ---- csv, one table per view (golden/indicators-VIEW.csv; types: the
# requested columns only, e.g. typed's site 3: 10 runs, 60 instructions,
# 10 branches, 10 calls, 0 returns)
for v in indicators regions trace types callers; do
    run_pmopt report --format=csv --by=$v ind a.pit
    [ $rc = 0 ] || { cat err; fail "csv --by=$v exited $rc"; }
    python3 -c "import csv; rows = list(csv.DictReader(open('out'))); assert rows, 'no rows'" ||
        fail "csv --by=$v does not read back"
    assert_golden "csv --by=$v" out pmopt/golden/indicators-$v.csv
done
run_pmopt report --format=csv --callers ind a.pit
assert_golden "csv --callers (as --by=callers)" out pmopt/golden/indicators-callers.csv
run_pmopt report --format=csv --by=regions --callers ind a.pit
assert_eq "csv: --by and --callers together is a usage error" 2 "$rc"
run_pmopt report --by=nosuch ind a.pit
assert_eq "--by=nosuch: usage" 2 "$rc"
# text --by=regions: that section only
run_pmopt report --by=regions ind a.pit
assert_not_contains "--by=regions: no sites" out "^Sites"
assert_contains "--by=regions: regions" out "^Regions"

# ---- merge: order-independent bytes, combined records
run_pmopt merge -o ab.pit a.pit b.pit
[ $rc = 0 ] || { cat err; fail "merge a b exited $rc"; }
run_pmopt merge -o ba.pit b.pit a.pit
cmp ab.pit ba.pit || fail "merge A+B differs from B+A"
ok "A+B = B+A byte for byte (indicator records included)"
run_pmopt merge -o abc.pit a.pit b.pit c.pit
run_pmopt merge -o cba.pit c.pit b.pit a.pit
run_pmopt merge -o ab_c.pit ab.pit c.pit
run_pmopt merge -o c_ab.pit c.pit ab.pit
cmp abc.pit cba.pit && cmp abc.pit ab_c.pit && cmp abc.pit c_ab.pit || fail "merge of three depends on the order or grouping"
ok "A+B+C = C+B+A = (A+B)+C = C+(A+B)"
run_pmopt dump abc.pit
cat out
assert_contains "merged threshold: counts and executions added" out "SITESTAT unit 0xc0c0c0c000000003, site 0, kind threshold, count 4, execs 53, sum 0, min 0, max 0$"
assert_contains "merged cycles: a record that measured nothing does not lower min" out "SITESTAT unit 0xc0c0c0c000000003, site 1, kind cycles, count 6, execs 21, sum 200007, min 7, max 50000$"
assert_contains "merged trace: min of mins, max of maxes" out "SITESTAT unit 0xc0c0c0c000000003, site 9, kind trace, count 3, execs 3, sum 8000, min 1000, max 5000$"
assert_contains "merged TRACEREG: added elementwise" out "^    \[0\] 6 0 0 2 1 2 0 0$"
assert_eq "merged: all 4 events kept" 4 "$(grep -c ' EVENT ' out)"
assert_contains "merged frames are link-time; other modules' frames 0" out "^    \[0\] 0x$(printf %x $((hot + 8))) 0x$(printf %x $mid_end) 0x$(printf %x $((top + 16))) 0x0$"
assert_eq "merged events sorted by contents: tids" "100 100 101 200" \
    "$(sed -n 's/.* EVENT .*, tid \([0-9]*\),.*/\1/p' out | tr '\n' ' ' | sed 's/ $//')"
run_pmopt report --format=json --callers ind abc.pit
[ $rc = 0 ] || { cat err; fail "report of the merge exited $rc"; }
python3 - <<'PY' || fail "report of the merged trace"
import json
r = json.load(open("out"))
c = r["callers"][0]
assert (c["function"], c["events"]) == ("hot", 4), c
k = {n["function"]: n for n in c["callers"]}
assert list(k) == ["mid"] and k["mid"]["count"] == 4, k
m = {n["function"]: n["count"] for n in k["mid"]["callers"]}
assert m == {"top": 3, "main": 1}, m
ind = {(x["site"], x["kind"]): x for x in r["indicators"]}
assert (ind[(1, "cycles")]["hits"], ind[(1, "cycles")]["cycles"]["min"]) == (6, 7)
t = r["trace_regions"][0]
assert (t["intervals"], t["blocks"]) == (3, 13), t
print("merged report ok")
PY
ok "report of the merged trace: callers from link-time frames, sums"
# reading several traces in report sums them the same way
run_pmopt report --format=json --callers ind a.pit b.pit c.pit
python3 -c "
import json; r = json.load(open('out'))
assert r['callers'][0]['events'] == 4 and r['trace_regions'][0]['intervals'] == 3
" || fail "report of three traces"
ok "report of A B C = report of the merge"

# ---- a TRACEREG with another number of counters: merge and report refuse it
pigen trace -o d.pit --prog ind --tracereg "$UI:9:$UI=1,2,3"
run_pmopt merge -o x.pit a.pit d.pit
assert_eq "TRACEREG ncounters mismatch: merge exit status" 1 "$rc"
assert_contains "TRACEREG ncounters mismatch: message" err "trace region of site 9 of unit 0xc0c0c0c000000003: unit 0xc0c0c0c000000003 has TRACEREG records with (12 and 3|3 and 12) counters"
[ ! -e x.pit ] || fail "a refused merge left x.pit"
run_pmopt report ind d.pit
assert_eq "TRACEREG ncounters mismatch: report exit status" 1 "$rc"
assert_contains "TRACEREG ncounters mismatch: report message" err "d.pit: trace region of site 9: unit 0xc0c0c0c000000003 \(ind.c\) has 3 counters, but ind says 12"

# ---- records whose sizes contradict themselves are refused
python3 - <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["PERFINST_TOP"], "tests"))
from pifmt import trace_header, trace_record as rec
hdr = trace_header()
st = struct.pack("<QII5Q", 1, 0, 1, 1, 1, 0, 0, 0)
open("st-short.pit", "wb").write(hdr + rec(6, st[:48]))
open("st-long.pit", "wb").write(hdr + rec(6, st + bytes(8)))
ev = struct.pack("<QIIQII", 1, 0, 2, 13, 7, 3)
open("ev-frames.pit", "wb").write(hdr + rec(7, ev + bytes(16)))
open("ev-short.pit", "wb").write(hdr + rec(7, ev[:24]))
tr = struct.pack("<QIIQ", 1, 0, 5, 1)
open("tr-counts.pit", "wb").write(hdr + rec(8, tr + bytes(32)))
open("tr-short.pit", "wb").write(hdr + rec(8, tr[:16]))
PY
refuse() { refused ind "$@"; } # FILE REGEX
refuse st-short.pit "st-short.pit: record 0 \(SITESTAT\) at offset 0x30: 48 bytes, expected 56"
refuse st-long.pit "st-long.pit: record 0 \(SITESTAT\) at offset 0x30: 64 bytes, expected 56"
refuse ev-frames.pit "ev-frames.pit: record 0 \(EVENT\) at offset 0x30: 3 frames need 56 bytes, the record has 48"
refuse ev-short.pit "ev-short.pit: record 0 \(EVENT\) at offset 0x30: 24 bytes, too small"
refuse tr-counts.pit "tr-counts.pit: record 0 \(TRACEREG\) at offset 0x30: 5 counters need 64 bytes, the record has 56"
refuse tr-short.pit "tr-short.pit: record 0 \(TRACEREG\) at offset 0x30: 16 bytes, too small"

# ---- a cut trace keeps the indicator records before the cut
pigen offsets a.pit > offs
cut=$(awk '$3 == 7 { print $2; exit }' offs)    # the first EVENT record
head -c $((cut + 20)) a.pit > cut.pit
run_pmopt report --format=json --callers ind cut.pit
[ $rc = 0 ] || { cat err; fail "report of a cut trace exited $rc"; }
python3 -c "
import json; r = json.load(open('out'))
assert len(r['indicators']) == 5 and r['callers'] == [] and r['trace_regions'] == []
" || fail "cut trace: SITESTATs kept, EVENTs and TRACEREGs after the cut not"
ok "cut trace: the SITESTATs before the cut are used"
