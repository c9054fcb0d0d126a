#!/bin/bash
# pmopt export --lcov and --gcovr: the fixture's exact counts as coverage,
# rendered by genhtml (lcov's) and gcovr.  Every line count in the lcov
# tracefile is pmopt report --by=line's (gcov's lines: the 19 lines gcov
# lists for work.c, and atoi's 2 in stdlib.h); the loop test (work.c:21) ran
# 7510 times for `./work 10 1000` and genhtml's page says so; its branch
# went 7500 times into the body and 10 times out; middle's `if` 5 and 5;
# functions with their entries.  gcovr (5.2 reads its own JSON, not lcov)
# reads the --gcovr tracefile: the same lines, branches and functions.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/export/setup.sh"
build_work
run_work c.pit 10 1000
"$PMOPT" export --lcov c.info --gcovr c.json ./work c.pit > out 2> err || { cat err; fail "export --lcov --gcovr"; }
assert_eq "nothing on stdout" "" "$(cat out)"
"$PMOPT" report --format=csv --by=line ./work c.pit > lines.csv
python3 - "$PWD" <<'PY' || fail "the tracefile"
import csv, sys
cwd = sys.argv[1]
recs, sf = {}, None
for l in open("c.info"):
    l = l.strip()
    if l.startswith("SF:"):
        sf = l[3:]
        recs[sf] = {"DA": {}, "BRDA": {}, "FN": {}, "FNDA": {}}
    elif ":" in l:
        k, v = l.split(":", 1)
        if k == "DA":
            n, c = v.split(",")
            recs[sf]["DA"][int(n)] = int(c)
        elif k == "BRDA":
            n, b, br, t = v.split(",")
            recs[sf]["BRDA"].setdefault(int(n), []).append(int(t) if t != "-" else None)
        elif k == "FN":
            n, name = v.split(",", 1)
            recs[sf]["FN"][name] = int(n)
        elif k == "FNDA":
            c, name = v.split(",", 1)
            recs[sf]["FNDA"][name] = int(c)
w = recs[cwd + "/work.c"]
# every line as pmopt report has it, and no other
rep = {}
for r in csv.DictReader(open("lines.csv")):
    path = r["file"] if r["file"].startswith("/") else cwd + "/" + r["file"]
    rep[(path, int(r["line"]))] = int(r["count"])
got = {(f, n): c for f in recs for n, c in recs[f]["DA"].items()}
assert got == rep, (sorted(got.items()), sorted(rep.items()))
assert w["DA"][21] == 7510 and w["DA"][22] == 7500 and w["DA"][29] == 5 and w["DA"][30] == 5, w["DA"]
assert sorted(w["BRDA"][21]) == [10, 7500], w["BRDA"]
assert sorted(w["BRDA"][28]) == [5, 5], w["BRDA"]
assert w["FNDA"] == {"spinner": 10, "middle": 10, "outer": 1, "main": 1}, w["FNDA"]
assert w["FN"] == {"spinner": 18, "middle": 26, "outer": 33, "main": 39}, w["FN"]
print("ok: %d lines equal pmopt report's" % len(rep))
PY
ok "lines, branches and functions"

# counted after the early inliner (count-at=late): the tracefile still has
# pmopt report's lines and the functions' entries
mkdir late && cd late
build_work late
run_work c.pit 10 1000
"$PMOPT" export --lcov c.info ./work c.pit 2> err || { cat err; fail "export --lcov (late)"; }
"$PMOPT" report --format=csv --by=line ./work c.pit > lines.csv
python3 - <<'PY' || fail "the tracefile (late)"
import csv
da, fnda = {}, {}
for l in open("c.info"):
    k, _, v = l.strip().partition(":")
    if k == "SF":
        sf = v.rsplit("/", 1)[-1]
    elif k == "DA":
        n, c = v.split(",")
        da[(sf, int(n))] = int(c)
    elif k == "FNDA" and sf == "work.c":
        c, name = v.split(",")
        fnda[name] = int(c)
rep = {(r["file"].rsplit("/", 1)[-1], int(r["line"])): int(r["count"]) for r in csv.DictReader(open("lines.csv"))}
assert da == rep, (sorted(da.items()), sorted(rep.items()))
assert fnda == {"spinner": 10, "middle": 10, "outer": 1, "main": 1}, fnda
print("ok: late: %d lines equal pmopt report's" % len(rep))
PY
ok "late: lines and functions"
cd ..

command -v genhtml > /dev/null || skip "genhtml is not installed (scripts/deps.sh installs lcov)"
genhtml --branch-coverage -o html c.info > genhtml.out 2>&1 || { cat genhtml.out; fail "genhtml"; }
assert_contains "genhtml: every line hit" genhtml.out "lines\.+: 100\.0% \(21 of 21 lines\)"
assert_contains "genhtml: functions" genhtml.out "functions\.+: 100\.0% \(5 of 5 functions\)"
assert_contains "genhtml: branches" genhtml.out "branches\.+: 80\.0% \(8 of 10 branches\)"
page=$(find html -name work.c.gcov.html)
[ -n "$page" ] || fail "genhtml wrote no page for work.c"
assert_contains "genhtml's page: the loop test ran 7510 times" "$page" \
    'lineNum"> +21 </span>.*lineCov"> +7510 : +for \(unsigned i = 0'
assert_contains "genhtml's page: line 30 ran 5 times" "$page" 'lineNum"> +30 </span>.*lineCov"> +5 : '

command -v gcovr > /dev/null || skip "gcovr is not installed (scripts/deps.sh installs it)"
gcovr -a c.json -r "$PWD" --txt > gcovr.txt 2> err || { cat err; fail "gcovr"; }
assert_contains "gcovr: every line of work.c" gcovr.txt "^work\.c +19 +19 +100%"
gcovr -a c.json -r "$PWD" --branches --txt > gcovr-br.txt
assert_contains "gcovr: branches of work.c" gcovr-br.txt "^work\.c +10 +8 +80%"
gcovr -a c.json -r "$PWD" --json -o back.json
python3 - <<'PY' || fail "gcovr's own JSON"
import json
f = {x["file"]: x for x in json.load(open("back.json"))["files"]}["work.c"]
lines = {l["line_number"]: l for l in f["lines"]}
assert lines[21]["count"] == 7510, lines[21]
assert sorted(b["count"] for b in lines[21]["branches"]) == [10, 7500], lines[21]
assert {x["name"]: x["execution_count"] for x in f["functions"]}["spinner"] == 10
print("ok: gcovr read line 21: 7510, branches 7500 and 10")
PY
gcovr -a c.json -r "$PWD" --html-details -o g.html > /dev/null 2>&1 || fail "gcovr --html-details"
ok "gcovr renders HTML"

# without counts (no PROG) there is no coverage
expect_fail "coverage of a trace without counts" "$PMOPT" export --lcov x.info c.pit
assert_contains "says why" err "x.info: coverage holds counts: give PROG"
