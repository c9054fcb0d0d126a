#!/bin/bash
# pmopt report: counts per site/function/line equal the trace's counts at the
# right file:line; text, json (parses) and csv (header row); --by, --top;
# several traces are summed.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_prog
pigen trace -o a.pit --prog prog --unit "$UA=$CA" --unit "$UB=$CB"

run_pmopt report prog a.pit
[ $rc = 0 ] || { cat err; fail "report exited $rc"; }
# The whole text report, in order (golden/report.txt): sites hottest first
# with count, function, file:line of the marker, unit:site and block; no
# row for a site without a counter (a0a0a0a000000001:8); functions with
# entries = the first site's count and blocks = the sum of the sites;
# lines at the largest count among the line's sites (the for line: 10, 11,
# 1 -> 11).
assert_golden "the text report" out pmopt/golden/report.txt

# ---- json: parses, and holds exactly the trace's counts at the markers' lines
run_pmopt report --format=json prog a.pit
[ $rc = 0 ] || { cat err; fail "json report exited $rc"; }
python3 -m json.tool out > /dev/null || fail "json does not parse"
ok "json parses"
pigen lines prog.c > lines-prog; pigen lines lib.c > lines-lib
python3 - "$UA" "$CA" "$UB" "$CB" <<'PY' || fail "json counts"
import json, sys
r = json.load(open("out"))
ua, ca, ub, cb = int(sys.argv[1], 0), sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
counts = {ua: [int(x) for x in ca.split(",")], ub: [int(x) for x in cb.split(",")]}
ml = {"prog.c": dict(map(int, l.split()) for l in open("lines-prog")),
      "lib.c": dict(map(int, l.split()) for l in open("lines-lib"))}
# site -> marker whose line it has (prog.json, lib.json)
marker = {(ua, 0): 0, (ua, 1): 1, (ua, 2): 2, (ua, 3): 3, (ua, 4): 4, (ua, 5): 5, (ua, 6): 4,
          (ua, 7): 4, (ub, 0): 0, (ub, 1): 1, (ub, 2): 2}
seen = set()
for s in r["sites"]:
    u, k = int(s["unit"], 0), s["site"]
    assert s["count"] == counts[u][s["counter"]], s
    assert s["line"] == ml[s["file"]][marker[(u, k)]], s
    seen.add((u, k))
assert seen == set(marker), seen
assert [s["count"] for s in r["sites"]] == sorted((s["count"] for s in r["sites"]), reverse=True)
f = {x["function"]: x for x in r["functions"]}
assert (f["classify"]["entries"], f["classify"]["blocks"]) == (10, 24)
assert (f["main"]["entries"], f["main"]["blocks"]) == (1, 24)
assert (f["work"]["entries"], f["work"]["blocks"]) == (1, 12)
lines = {(x["file"], x["line"]): x["count"] for x in r["lines"]}
assert lines[("prog.c", ml["prog.c"][4])] == 11
assert r["traces"][0]["finished"] is True and r["traces"][0]["truncated"] is False
assert r["build_id"] and r["program"] == "prog"
print("json ok")
PY
ok "json counts equal the trace at the markers' lines"

# ---- csv: a header row, then one row per site (the code's address masked:
# it is the compiler's), per function, per line
run_pmopt report --format=csv prog a.pit
[ $rc = 0 ] || fail "csv exited $rc"
assert_golden "csv by site" out pmopt/golden/report-sites.csv 's/,0x[0-9a-f]{3,},([a-z]+)$/,ADDR,\1/'
python3 -c "import csv,sys; rows=list(csv.DictReader(open('out'))); assert rows[0]['count']=='11' and rows[0]['site']=='6', rows[0]" \
    || fail "csv does not read back"
ok "csv reads back"
run_pmopt report --format=csv --by=function prog a.pit
assert_golden "csv by function" out pmopt/golden/report-functions.csv
run_pmopt report --format=csv --by=line prog a.pit
assert_golden "csv by line" out pmopt/golden/report-lines.csv

# ---- --by and --top
run_pmopt report --by=function prog a.pit
assert_not_contains "--by=function: no sites section" out "^Sites"
assert_contains "--by=function: functions" out "^Functions"
run_pmopt report --by=line --top=2 prog a.pit
assert_eq "--top=2 lines" 2 "$(grep -cE '^ +[0-9]+ +[0-9.]+%  (prog|lib)\.c:' out)"
# the percentages are of the whole view, also when --top cuts it: 24 of 60
# block executions, 11 of the lines' 49
assert_contains "--top=2 lines: % of all the lines" out "^ +11 +22\.4%  prog\.c:22$"
run_pmopt report --by=function --top=1 prog a.pit
assert_contains "--top=1 functions: % of all block executions" out "^ +10 +24 +40\.0%  classify  prog\.c:8 "
run_pmopt report --format=json --by=site --top=3 prog a.pit
python3 -c "import json; r=json.load(open('out')); assert len(r['sites'])==3 and 'lines' not in r" \
    || fail "json --by=site --top=3"
ok "json --by=site --top=3"

# ---- several traces are summed
pigen trace -o b.pit --prog prog --pid 99 --unit "$UA=1,1,1,1,1,1,1,1"
run_pmopt report --format=json prog a.pit b.pit
python3 -c "
import json; r=json.load(open('out'))
s={(x['unit'],x['site']):x['count'] for x in r['sites']}
assert s[('0xa0a0a0a000000001',6)]==12 and s[('0xa0a0a0a000000001',1)]==5, s
assert s[('0xb0b0b0b000000002',1)]==10, s
assert len(r['traces'])==2
" || fail "two traces are not summed"
ok "two traces summed"

# ---- PERFINST_MODE=off is said
pigen trace -o off.pit --prog prog --flags mode_off --unit "$UA=0,0,0,0,0,0,0,0"
run_pmopt report prog off.pit
[ $rc = 0 ] || fail "report of a mode-off trace exited $rc"
assert_contains "mode off note" err "off.pit: the process ran with PERFINST_MODE=off"
assert_contains "mode off in the header" out "trace off.pit: .*PERFINST_MODE=off"

# ---- a signal is said
pigen trace -o sig.pit --prog prog --signal 11 --unit "$UA=$CA"
run_pmopt report prog sig.pit
assert_contains "signal note" err "sig.pit: the process died of signal 11 \(SIGSEGV\)"

# ---- a program without metadata
gcc -O0 "$F/lib.c" -I"$F" -shared -fPIC -o plain.so
run_pmopt report plain.so a.pit
assert_eq "no metadata: exit status" 1 "$rc"
assert_contains "no metadata: message" err "plain.so: no perfinst metadata"
