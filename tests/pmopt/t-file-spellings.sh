# One file, several spellings (optimizer/model/names.c, docs/pmopt.md "Names of
# functions and files"): tests/pmopt/spell compiled the way build systems
# do — lib//compress/a.c reaches its header as lib//compress/../common/mem.h,
# b.c (given by its absolute path, -I absolute) as /ABS/lib/common/mem.h;
# x.c (relative) and /ABS/y.c reach weird.h and /ABS/weird.h.  Every view
# shows one spelling, relative to the source root, and sums the header's
# static inline function over its units; two static functions of one name
# in two files stay two rows; --by=function names each row's unit.
# (Counted at cfg, count-at=cfg: the header's static inline function is a
# function of its own in each unit.)
. "$PERFINST_TOP/tests/lib.sh"
cp -r "$T/pmopt/spell" src
cd src
A=$PWD
cc() { pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg "$@"; }
cc -c lib//compress/a.c -o a.o
cc -I"$A/lib/common" -c "$A/b.c" -o b.o
cc -c x.c -o x.o
cc -c "$A/y.c" -o y.o
cc -c main.c -o main.o
for o in a b x y; do "$PMOPT" dump-meta $o.o; done > meta.txt
# the fixture is valid: the compiler's own spellings differ
assert_contains "a.o names lib//compress/../common/mem.h" meta.txt "\(lib//compress/\.\./common/mem\.h:3\)"
assert_contains "b.o names $A/lib/common/mem.h" meta.txt "\($A/lib/common/mem\.h:3\)"
assert_contains "y.o names $A/weird.h" meta.txt "\($A/weird\.h:3\)"
pi_ld -o prog a.o b.o x.o y.o main.o
PERFINST_OUT=s.pit ./prog > out
assert_eq "output" "12 30 30 51" "$(cat out)"

"$PMOPT" report --format=csv --by=function prog s.pit > fn.csv
"$PMOPT" report --format=csv --by=line prog s.pit > lines.csv
"$PMOPT" report --format=json prog s.pit > r.json
"$PMOPT" report --by=function prog s.pit > fn.txt
"$PMOPT" report prog s.pit > all.txt
cat fn.txt
python3 - "$A" <<'PY' || fail "csv and json"
import csv, json, sys
root = sys.argv[1]
fn = list(csv.DictReader(open("fn.csv")))
def rows(name):
    return sorted((r["file"], int(r["entries"]), r["units"]) for r in fn if r["function"] == name)
assert rows("mem_read") == [("lib/common/mem.h", 8, "b.c;lib/compress/a.c")] or \
       rows("mem_read") == [("lib/common/mem.h", 8, "lib/compress/a.c;b.c")], rows("mem_read")
assert [(f, e) for f, e, u in rows("weird_add")] == [("weird.h", 8)], rows("weird_add")
assert sorted(rows("weird_add")[0][2].split(";")) == ["x.c", "y.c"], rows("weird_add")
assert rows("helper") == [("x.c", 2, "x.c"), ("y.c", 6, "y.c")], rows("helper")
assert rows("a_sum") == [("lib/compress/a.c", 1, "lib/compress/a.c")], rows("a_sum")
assert rows("b_sum") == [("b.c", 1, "b.c")], rows("b_sum")
lines = list(csv.DictReader(open("lines.csv")))
mem = [l for l in lines if l["file"].endswith("mem.h")]
assert [(l["file"], l["line"], l["count"]) for l in mem] == [("lib/common/mem.h", "3", "8")], mem
j = json.load(open("r.json"))
assert j["source_root"] == root, j["source_root"]
files = {s["file"] for s in j["sites"]} | {f["file"] for f in j["functions"]} | \
        {l["file"] for l in j["lines"]}
assert files == {"lib/common/mem.h", "lib/compress/a.c", "b.c", "weird.h", "x.c", "y.c",
                 "main.c"}, files
print("ok: one spelling per file; mem_read and weird_add summed over 2 units; 2 helpers")
PY
assert_not_contains "no spelling with // or .. or the root" all.txt "//|/\.\./|$A/"
assert_contains "--by=function: a_sum's unit" fn.txt "^ +1 +[0-9]+ +[0-9.]+%  a_sum +lib/compress/a\.c:3 +lib/compress/a\.c$"
assert_contains "--by=function: helper of y.c" fn.txt "^ +6 +[0-9]+ +[0-9.]+%  helper +y\.c:3 +y\.c$"
assert_contains "--by=function: mem_read in 2 units" fn.txt "^ +8 +8 +[0-9.]+%  mem_read +lib/common/mem\.h:3 +2 units$"
# the html report reads the hot lines' source through the root
"$PMOPT" report --html=r.html prog s.pit
assert_contains "html: a hot line's source" r.html "return p\[i\] \* 2;"
# run from elsewhere: the same names
cd ..
"$PMOPT" report --format=csv --by=line src/prog src/s.pit > lines2.csv
cmp src/lines.csv lines2.csv || fail "the report depends on the working directory"
ok "the same report from another directory"
