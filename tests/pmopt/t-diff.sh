#!/bin/bash
# pmopt diff: two builds of slower.c, the second with slow() doing five
# times the work (same control flow) and an extra() function: per function
# and per line the exact counts before and after, the change, the CFG
# state (same, changed, new); two runs of one build; json and csv; the
# differential flame graph coloured as its own numbers say (red grew, blue
# shrank); bad operands.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"

for f in 1 5; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -DFACTOR=$f -c "$T/pmopt/slower.c" -o s$f.o
    pi_ld -O2 -g -o slower$f s$f.o
done
N=2000000 R=10
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=base.pit ./slower1 $N $R
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=new.pit ./slower5 $N $R

run_pmopt diff --format=json ./slower1 base.pit ./slower5 new.pit
[ $rc = 0 ] || { cat err; fail "diff of two builds exited $rc"; }
cp out d.json
python3 - "$N" "$R" <<'PY' || fail "diff of two builds: wrong counts"
import json, sys
n, r = int(sys.argv[1]), int(sys.argv[2])
d = json.load(open("d.json"))
f = {x["function"]: x for x in d["functions"]}
l = {(x["file"], x["line"]): x for x in d["lines"]}
# the loop's test runs n*F+1 times a call, its body n*F times (slower.c:16, :17)
assert l[("slower.c", 16)]["count"] == [r * (n + 1), r * (5 * n + 1)], l[("slower.c", 16)]
assert l[("slower.c", 17)]["count"] == [r * n, r * 5 * n], l[("slower.c", 17)]
assert l[("slower.c", 22)]["count"] == [r * (n + 1)] * 2, l[("slower.c", 22)]
assert l[("slower.c", 23)]["count"] == [r * n] * 2
assert l[("slower.c", 29)]["count"] == [None, 1], l[("slower.c", 29)]
assert f["slow"]["entries"] == [r, r] and f["slow"]["cfg"] == "same", f["slow"]
assert f["slow"]["blocks"][1] - f["slow"]["blocks"][0] == 4 * r * n * 2, f["slow"]
assert f["fast"]["blocks"][0] == f["fast"]["blocks"][1] and f["fast"]["cfg"] == "same"
assert f["extra"]["cfg"] == "new" and f["extra"]["blocks"][0] is None and f["extra"]["entries"] == [None, 1]
assert f["main"]["cfg"] == "changed", f["main"]
# largest change first: slow, then its two lines (tied in counts: their
# order is the sampled time's)
assert d["functions"][0]["function"] == "slow"
assert sorted((x["file"], x["line"]) for x in d["lines"][:2]) == [("slower.c", 16), ("slower.c", 17)]
assert d["base"]["program"] == "./slower1" and d["new"]["trace"] == "new.pit"
print("ok")
PY
ok "two builds: exact counts before and after, cfg same/changed/new, slow first"

run_pmopt diff ./slower1 base.pit ./slower5 new.pit
cat out
assert_contains "text: slow's row" out "^ +$((2*R*N+3*R)) +$((10*R*N+3*R)) +\+$((8*R*N))  +\+400\.0%.*same +slow  slower\.c:14$"
assert_contains "text: the loop body's line" out "^ +$((R*N)) +$((5*R*N)) +\+$((4*R*N)) +\+400\.0%.* slower\.c:17$"
assert_contains "text: extra is new" out "^ +- +1 +\+1 +new .*new +extra  slower\.c:27$"

run_pmopt diff --format=csv ./slower1 base.pit ./slower5 new.pit
assert_contains "csv: header" out "^function,file,line,cfg,blocks_before,blocks_after,blocks_change,entries_before,entries_after,samples_before,samples_after,samples_change$"
assert_contains "csv: slow" out "^slow,slower\.c,14,same,$((2*R*N+3*R)),$((10*R*N+3*R)),$((8*R*N)),$R,$R,"
run_pmopt diff --format=csv --by=line --top=2 ./slower1 base.pit ./slower5 new.pit
assert_eq "csv --by=line --top=2: header and two rows" 3 "$(wc -l < out)"
assert_contains "csv --by=line: the loop test" out "^slower\.c,16,$((R*(N+1))),$((R*(5*N+1))),$((4*R*N)),"

# two runs of one build: PROG once
PERFINST_OUT=small.pit ./slower1 1000 3
run_pmopt diff --format=csv --by=line ./slower1 small.pit base.pit
[ $rc = 0 ] || { cat err; fail "diff of two runs exited $rc"; }
assert_contains "one build: the loop body 3000 -> R*N" out "^slower\.c,17,3000,$((R*N)),$((R*N-3000)),"

# the differential flame graph: every frame's colour says what its title says
run_pmopt diff --flamegraph=d.svg --format=json ./slower1 base.pit ./slower5 new.pit
[ $rc = 0 ] || { cat err; fail "diff --flamegraph exited $rc"; }
python3 - <<'PY' || fail "the differential flame graph's colours do not match its numbers"
import json, re, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse("d.svg").getroot()
n = 0
for g in root.iter(ns + "g"):
    title = g.find(ns + "title").text
    fill = g.find(ns + "rect").get("fill")
    r, gr, b = map(int, re.match(r"rgb\((\d+),(\d+),(\d+)\)", fill).groups())
    if title.startswith("all:"):
        continue
    m = re.search(r": (\d+) samples before, (\d+) after", title)
    before, after = (int(m.group(1)), int(m.group(2))) if m else (0, int(re.search(r"(\d+) after \(new\)", title).group(1)))
    if after > before:
        assert r == 255 and b < 255, (title, fill)
    elif after < before:
        assert b == 255 and r < 255, (title, fill)
    else:
        assert r == gr == b, (title, fill)
    n += 1
assert n > 0
d = json.load(open("out"))
slow = [x for x in d["functions"] if x["function"] == "slow"][0]
frames = [g.find(ns + "title").text for g in root.iter(ns + "g")]
if slow["samples"][1] > 0:   # sampled in the new run: drawn
    assert any(t.startswith("slow ") for t in frames), frames
print("frames", n)
PY
ok "flame graph: red where a frame grew, blue where it shrank, as its titles say"

# operands and errors
run_pmopt diff ./slower1 base.pit
assert_eq "two operands: usage error" 2 "$rc"
run_pmopt diff ./slower1 base.pit new.pit
assert_eq "a trace of another build: error" 1 "$rc"
assert_contains "names the trace and the build" err "new.pit is not a trace of \./slower1"
run_pmopt diff --flamegraph=x.svg ./slower1 small.pit base.pit
assert_eq "--flamegraph without samples: error" 1 "$rc"
assert_contains "says which trace has none" err "small.pit has no timer samples for --flamegraph"
run_pmopt diff --sort=size ./slower1 small.pit base.pit
assert_eq "--sort=size: usage error" 2 "$rc"
