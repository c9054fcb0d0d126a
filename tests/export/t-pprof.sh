#!/bin/bash
# pmopt export --pprof: a gzip'ed profile.proto decoded by an independent
# reader, the npm registry's pprof-format package run by node (put
# into a cache by scripts/readers.sh; SKIP when it is not), holds the fixture's
# exact counts (block executions per function and line, entries, call
# arcs per call site), its timer samples (in periods and nanoseconds,
# under main;outer;middle;spinner) and the mappings with build-ids and the
# executable segment's addresses of the PIE; one function per name whether
# a count or a sample named it; a C++ method's demangled, qualified name;
# idle-transition samples (blocker.c) as report --tree counts them; errors
# name the file.
# timeout: 600
source "$PERFINST_TOP/tests/lib.sh"
source "$T/export/setup.sh"
build_work
run_work w.pit 200 2000000 PERFINST_SAMPLE=cpu:1ms
need_npm pprof-format

"$PMOPT" export --pprof w.pb.gz ./work w.pit > out 2> err || { cat err; fail "export --pprof"; }
assert_eq "nothing on stdout" "" "$(cat out)"
gzip -t w.pb.gz || fail "not gzip"
ok "w.pb.gz is gzip"
node "$T/export/check-pprof.js" w.pb.gz > dec.json || fail "pprof-format could not decode w.pb.gz"
ok "pprof-format decodes it"
"$PMOPT" report --format=json ./work w.pit > rep.json
"$PMOPT" report --tree ./work w.pit > tree
# the program's executable segment (link-time addresses of a PIE)
readelf -lW work | awk '$1 == "LOAD" && $7 == "R" && $8 == "E" {print $2, $3, $6}' > seg
python3 - <<'PY' || fail "the decoded profile"
import json, re
d = json.load(open("dec.json"))
rep = json.load(open("rep.json"))
assert d["errors"] == [], d["errors"]
assert d["sample_types"] == [["executions", "count"], ["entries", "count"], ["calls", "count"],
                             ["samples", "count"], ["cpu", "nanoseconds"]], d["sample_types"]
assert d["default_sample_type"] == "executions" and d["period_type"] == ["cpu", "nanoseconds"]
assert d["period"] == 1000000, d["period"]
# mappings: the program first, its build-id, its executable segment
off, vaddr, size = (int(x, 16) for x in open("seg").read().split())
m = d["mappings"][0]
assert m["file"] == "./work" and m["build_id"] == rep["build_id"], m
assert (m["start"], m["limit"], m["offset"]) == (vaddr, vaddr + size, off), (m, vaddr, size, off)
libc = [x for x in d["mappings"] if "libc.so" in x["file"]]
assert libc and re.fullmatch(r"[0-9a-f]{40}", libc[0]["build_id"]), d["mappings"]
# exact counts: the fixture's, and every function's blocks as pmopt report has them
fl = d["flat"]
assert fl["entries"]["spinner"] == 200 and fl["entries"]["middle"] == 200, fl["entries"]
assert fl["entries"]["outer"] == 1 and fl["entries"]["main"] == 1, fl["entries"]
assert fl["executions"]["spinner"] == 600000600, fl["executions"]
for f in rep["functions"]:
    assert fl["executions"].get(f["function"], 0) == f["blocks"], (f, fl["executions"])
ln = d["lines"]["executions"]
assert ln["spinner work.c:21"] == 300000200 and ln["spinner work.c:22"] == 300000000, ln
# call arcs per call site
arcs = d["arcs"]["calls"]
assert arcs["middle work.c:29 -> spinner"] == 100 and arcs["middle work.c:30 -> spinner"] == 100, arcs
assert arcs["outer work.c:36 -> middle"] == 200 and arcs["main work.c:43 -> outer"] == 1, arcs
# timer samples: periods as report --tree counts them, x 1 ms; in spinner, under its callers
periods = int(re.search(r"samples for ([0-9]+) periods", open("tree").read()).group(1))
st = d["stacks"]["samples"]
assert sum(st.values()) == periods > 0, (st, periods)
assert sum(d["stacks"]["cpu"].values()) == periods * 1000000
inspin = sum(v for k, v in st.items() if k.endswith(";spinner"))
assert all(k.endswith("main;outer;middle;spinner") for k in st if k.endswith(";spinner")), st
assert inspin >= 0.9 * periods, (inspin, periods)
# one spinner, named by the counts and the samples alike, demangled name = linkage for C
sp = [f for f in d["functions"] if f["name"] == "spinner"]
assert len(sp) == 1 and sp[0]["file"] == "work.c" and sp[0]["start_line"] == 18, sp
print("ok: %d periods, %d in spinner" % (periods, inspin))
PY
ok "exact counts, arcs, samples and mappings decoded by pprof-format"

# counts alone (no samples): no sample or cpu column
run_work c.pit 10 1000
"$PMOPT" export --pprof c.pb.gz ./work c.pit
node "$T/export/check-pprof.js" c.pb.gz > c.json
python3 -c "
import json; d = json.load(open('c.json'))
assert [t for t, u in d['sample_types']] == ['executions', 'entries', 'calls'], d['sample_types']
assert d['lines']['executions']['spinner work.c:21'] == 1001 * 5 + 501 * 5, d['lines']
assert d['flat']['entries']['spinner'] == 10" || fail "counts-only profile"
ok "counts only: three sample types, the loop test 7510"

# samples alone (no PROG): the stacks, named from the sampled objects
"$PMOPT" export --pprof s.pb.gz w.pit
node "$T/export/check-pprof.js" s.pb.gz > s.json
python3 -c "
import json; d = json.load(open('s.json'))
assert [t for t, u in d['sample_types']] == ['samples', 'cpu'], d['sample_types']
assert any(k.endswith('main;outer;middle;spinner') for k in d['stacks']['samples']), d['stacks']
assert d['default_sample_type'] == 'cpu'" || fail "samples-only profile"
ok "without PROG: the samples alone"

# C++: the demangled, qualified name; the linkage name as system_name
pi_cc -x c++ -O2 -g -fplugin-arg-perfinst-all=count -c "$T/export/shapes.cc" -o shapes.o
pi_ld --pi-cc=g++ -O2 -o shapes shapes.o
PERFINST_OUT=shapes.pit ./shapes
"$PMOPT" export --pprof shapes.pb.gz ./shapes shapes.pit
node "$T/export/check-pprof.js" shapes.pb.gz > shapes.json
python3 -c "
import json; d = json.load(open('shapes.json'))
f = [x for x in d['functions'] if x['name'] == 'shapes::Circle::area']
assert len(f) == 1 and f[0]['system_name'] == '_ZNK6shapes6Circle4areaEi', d['functions']
assert d['flat']['entries']['shapes::Circle::area'] == 10, d['flat']['entries']" || fail "C++ names"
ok "C++: shapes::Circle::area (_ZNK6shapes6Circle4areaEi), 10 entries"

# idle-transition samples (PERFINST_IDLE): to-idle, idle time, from-idle,
# as many as pmopt report --tree counts, under the functions that blocked
gcc -O2 -g -fomit-frame-pointer -c "$T/sampling/blocker.c" -o blocker.o
pi_ld --pi-runtime -O2 -o blocker blocker.o -pthread
PERFINST_IDLE=both PERFINST_OUT=idle.pit ./blocker 60 > /dev/null
"$PMOPT" report --tree ./blocker idle.pit > itree
"$PMOPT" export --pprof idle.pb.gz ./blocker idle.pit
node "$T/export/check-pprof.js" idle.pb.gz > idle.json
python3 - <<'PY' || fail "idle samples"
import json, re
d = json.load(open("idle.json"))
h = open("itree").read()
to, frm = (int(x) for x in re.search(r"; to-idle ([0-9]+), from-idle ([0-9]+);", h).groups())
tick = float(re.search(r"period ([0-9.]+) ms, [0-9]+ CPUs", h).group(1)) * 1e6
assert [t for t, u in d["sample_types"]] == ["to-idle", "idle", "from-idle"], d["sample_types"]
assert d["default_sample_type"] == "to-idle"
assert sum(d["stacks"]["to-idle"].values()) == to > 0, (d["stacks"]["to-idle"], to)
assert sum(d["stacks"]["from-idle"].values()) == frm > 0, frm
assert sum(d["stacks"]["idle"].values()) == to * tick, (sum(d["stacks"]["idle"].values()), to, tick)
assert any(k.endswith(";worker;block_long") for k in d["stacks"]["to-idle"]), list(d["stacks"]["to-idle"])
print("ok: to-idle %d, from-idle %d, idle %d ns" % (to, frm, to * tick))
PY
ok "idle samples: to-idle, idle time and from-idle as report --tree counts them"

# errors name the file
echo junk > junk.pit
expect_fail "not a trace" "$PMOPT" export --pprof x.pb.gz ./work junk.pit
assert_contains "names the trace" err "junk.pit"
expect_fail "an unwritable output" "$PMOPT" export --pprof /nonexistent/x.pb.gz ./work w.pit
assert_contains "names the output" err "^pmopt: /nonexistent/x.pb.gz: cannot create: No such file or directory$"
"$PMOPT" export --pprof x.pb.gz ./work > out 2> err && fail "no trace accepted"
assert_contains "no trace: usage" err "no TRACE given"
