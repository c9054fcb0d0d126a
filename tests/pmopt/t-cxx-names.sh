# C++ names in every view (optimizer/model/names.c, docs/pmopt.md "Names of
# functions and files"): demangled and qualified (store::MemTable::Get and
# store::Version::Get stay two functions, not one "Get"), overloads told
# apart by their parameters, the anonymous namespace named, the linkage
# name kept as the key in json and csv; a template and an inline function
# compiled in two units are one row each, summed, with their units listed
# (json, csv, --units).  Exact counts from tests/pmopt/cxx (main: run_a 3
# iterations, run_b 5; counted at cfg, count-at=cfg, so that inline
# functions are functions of their own).  The views: report text/csv/json/html, plan
# --advise, dump-meta, --tree, folded stacks, the flame graph.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/pmopt/cxx
for f in a b main; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$src/$f.cc" -o $f.o
done
pi_ld --pi-cc=g++ -o prog a.o b.o main.o
PERFINST_OUT=c.pit ./prog > out
assert_eq "output" 721 "$(cat out)"

# ---- text: one row per function, the unit it comes from
"$PMOPT" report --by=function --units prog c.pit > fn.txt
cat fn.txt
row() { # ENTRIES FUNCTION FILE:LINE UNIT
    assert_contains "$2: $1 entries ($4)" fn.txt "^ +$1 +[0-9]+ +[0-9.]+%  $2 +$3 +$4$"
}
row 3 'store::MemTable::Get' 'a\.cc:[0-9]+' 'a\.cc'
row 5 'store::Version::Get' 'b\.cc:[0-9]+' 'b\.cc'
row 3 'store::put\(long\)' 'a\.cc:[0-9]+' 'a\.cc'
row 5 'store::put\(char const\*\)' 'b\.cc:[0-9]+' 'b\.cc'
row 3 '\(anonymous namespace\)::helper' 'a\.cc:4' 'a\.cc'
row 8 'twice<long>' 'names\.h:21' '2 units'
row 8 'mix' 'names\.h:25' '2 units'
assert_eq "twice<long>: one row" 1 "$(grep -c ' twice<long> ' fn.txt)"
assert_not_contains "no mangled name" fn.txt "_Z"
assert_not_contains "no bare Get" fn.txt "  Get "
# --units: each unit's own counts under the row (3 from a.cc, 5 from b.cc)
awk '/ twice<long> / { getline; print; getline; print }' fn.txt > units.txt
assert_contains "twice<long> in a.cc" units.txt "^ +[0-9]+ +[0-9]+ +unit 0x[0-9a-f]{16} a\.cc$"
assert_contains "twice<long> in b.cc" units.txt "^ +[0-9]+ +[0-9]+ +unit 0x[0-9a-f]{16} b\.cc$"

# ---- csv and json: the names shown, the linkage name as key, the units
"$PMOPT" report --format=csv --by=function prog c.pit > fn.csv
"$PMOPT" report --format=json prog c.pit > r.json
"$PMOPT" report --format=csv prog c.pit > sites.csv
python3 - <<'PY' || fail "csv and json"
import csv, json
want = {  # linkage: (shown, entries, units)
    "_ZNK5store8MemTable3GetEll": ("store::MemTable::Get", 3, ["a.cc"]),
    "_ZNK5store7Version3GetEll": ("store::Version::Get", 5, ["b.cc"]),
    "_ZN5store3putEl": ("store::put(long)", 3, ["a.cc"]),
    "_ZN5store3putEPKc": ("store::put(char const*)", 5, ["b.cc"]),
    "_ZN12_GLOBAL__N_16helperEl": ("(anonymous namespace)::helper", 3, ["a.cc"]),
    "_Z5twiceIlET_S0_": ("twice<long>", 8, ["a.cc", "b.cc"]),
    "_Z3mixl": ("mix", 8, ["a.cc", "b.cc"]),
    "_Z5run_all": ("run_a", 1, ["a.cc"]),
}
rows = {r["linkage"]: r for r in csv.DictReader(open("fn.csv"))}
for k, (name, entries, units) in want.items():
    r = rows[k]
    assert (r["function"], int(r["entries"]), int(r["nunits"])) == (name, entries, len(units)), r
    assert sorted(r["units"].split(";")) == units, r
j = json.load(open("r.json"))
fs = {f["linkage"]: f for f in j["functions"]}
assert len(fs) == len(j["functions"]), "a linkage name in two rows"
for k, (name, entries, units) in want.items():
    f = fs[k]
    assert (f["function"], f["entries"]) == (name, entries), f
    assert sorted(u["source"] for u in f["units"]) == units, f
    assert sum(u["entries"] for u in f["units"]) == entries, f
    assert f["unit"] == f["units"][0]["unit"], f
assert j["source_root"].endswith("tests/pmopt/cxx"), j["source_root"]
for s in j["sites"]:
    assert not s["function"].startswith("_Z") and s["linkage"], s
sites = list(csv.DictReader(open("sites.csv")))
assert {s["function"] for s in sites if s["linkage"] == "_ZNK5store8MemTable3GetEll"} == {"store::MemTable::Get"}
print("ok: csv and json: %d functions named, keyed and summed" % len(want))
PY

# ---- html, plan --advise, dump-meta
"$PMOPT" report --html=r.html prog c.pit
assert_contains "html: qualified name" r.html "<code>store::MemTable::Get</code>"
assert_contains "html: escaped template name" r.html "<code>twice&lt;long&gt;</code>"
"$PMOPT" plan --hot=100 --advise prog c.pit > advise.txt 2> /dev/null
assert_contains "plan --advise: the merged row names both units" advise.txt \
    " twice<long> +0x[0-9a-f]{16} [0-9]+ \+1 unit +names\.h:21$"
assert_contains "plan --advise: qualified" advise.txt " store::Version::Get +0x"
"$PMOPT" plan --hot=100 -o hot.overlay prog c.pit 2> /dev/null
assert_eq "the overlay turns on both units' twice<long>" 2 \
    "$(awk '/^# twice<long> / { getline; n += /^on /; getline; n += /^on / } END { print n }' hot.overlay)"
"$PMOPT" dump-meta a.o > meta.txt
assert_contains "dump-meta: shown name and linkage name" meta.txt \
    "^  function [0-9]+ store::MemTable::Get \[_ZNK5store8MemTable3GetEll\] \("

# ---- sampled stacks: two Get nodes, not one
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s.pit ./prog 20000000 > /dev/null
"$PMOPT" report --tree prog s.pit > tree.txt
cat tree.txt
assert_contains "tree: run_a calls store::MemTable::Get" tree.txt \
    "^ .* {12}store::MemTable::Get  \(a\.cc:7\)$"
assert_contains "tree: run_b calls store::Version::Get" tree.txt \
    "^ .* {12}store::Version::Get  \(b\.cc:3\)$"
"$PMOPT" export --folded s.folded --flamegraph s.svg prog s.pit
assert_contains "folded: run_a;store::MemTable::Get" s.folded ";main;run_a;store::MemTable::Get [0-9]+$"
assert_contains "folded: run_b;store::Version::Get" s.folded ";main;run_b;store::Version::Get [0-9]+$"
assert_contains "flame graph: store::Version::Get" s.svg "<title>store::Version::Get \(b\.cc:3\): [0-9]+ samples"
