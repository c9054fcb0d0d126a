#!/bin/bash
# watch.c (built as t-watch.sh builds it) through pmopt report --by=watch:
# its trace's WATCH words are named through DWARF — table[0] 3 reads and 3
# writes, table[2] 3 and 2, counter 1 and 2, recs[0].hot 1 and 1,
# recs[1].hot 0 and 1 — the local `pt` is on the stack (heap/stack, 10/6
# and 0/6), `unwatched` never appears; per data site the object as the
# plugin named it, read or write, function, line and the accesses counted
# from the source; at -O0, -O2 and -O3 -flto alike.  Two runs merged add
# up; a run with PERFINST_WATCH_GRAN=16 shows 16-byte words and cannot be
# merged with them.
. "$PERFINST_TOP/tests/lib.sh"
SRC=$T/indicators/watch.c
line() { grep -nF -- "$1" "$SRC" | head -1 | cut -d: -f1; }
L_TABLE=$(line 'table[i % 4] += i')
L_C3=$(line 'counter = 3;')
L_CPP=$(line 'counter++;')
L_PT=$(line 'struct point pt = {1, 2};')
L_R0=$(line 'recs[0].hot = 5;')
L_R1=$(line 'recs[1].hot = recs[0].hot;')
L_UW=$(line 'unwatched[1] = table[2];')
L_MX=$(line 'p->x += dx;')
L_MY=$(line 'p->y = p->x * 2;')
export L_TABLE L_C3 L_CPP L_PT L_R0 L_R1 L_UW L_MX L_MY

for opt in -O0 -O2 "-O3 -flto"; do
    pi_cc $opt -g -c "$SRC" -o w.o
    pi_ld $opt $( [ "$opt" = "-O3 -flto" ] && echo "-fplugin=$PLUGIN" ) -o w w.o
    rm -f w.pit w2.pit
    PERFINST_OUT=w.pit ./w > /dev/null
    [ -s w.pit ] || fail "$opt: the watch-only program wrote no trace"
    "$PMOPT" report --format=json --by=watch w w.pit > rep.json 2> err || { cat err; fail "$opt: report"; }
    python3 - <<'PY' || fail "$opt: watch words or sites"
import json, os
r = json.load(open("rep.json"))
assert r["watch_word_size"] == 8, r["watch_word_size"]
words = [(x["object"], x["reads"], x["writes"]) for x in r["watch_words"] if x["kind"] == "variable"]
assert words == [("table[0]", 3, 3), ("table[1]", 3, 3), ("table[2]", 3, 2), ("table[3]", 2, 2),
                 ("counter", 1, 2), ("recs[0].hot", 1, 1), ("recs[1].hot", 0, 1)], words
for x in r["watch_words"]:
    assert x["kind"] != "variable" or x["address_is"] == "link-time", x
    assert "unwatched" not in x["object"], x
# pt is main's local: its two words are stack words
stack = sorted((x["reads"], x["writes"]) for x in r["watch_words"] if x["kind"] == "heap/stack")
assert stack == [(0, 6), (10, 6)], stack
assert all(x["address_is"] == "run-time" for x in r["watch_words"] if x["kind"] == "heap/stack")
assert len(r["watch_words"]) == 9, r["watch_words"]
L = {k: int(v) for k, v in os.environ.items() if k.startswith("L_")}
sites = sorted((x["object"], x["access"], x["function"], x["line"], x["accesses"]) for x in r["watch_sites"])
want = sorted([
    ("table", "read", "main", L["L_TABLE"], 10), ("table", "write", "main", L["L_TABLE"], 10),
    ("counter", "write", "main", L["L_C3"], 1),
    ("counter", "read", "main", L["L_CPP"], 1), ("counter", "write", "main", L["L_CPP"], 1),
    ("struct point.x", "write", "main", L["L_PT"], 1), ("struct point.y", "write", "main", L["L_PT"], 1),
    ("struct rec.hot", "write", "main", L["L_R0"], 1),
    ("struct rec.hot", "read", "main", L["L_R1"], 1), ("struct rec.hot", "write", "main", L["L_R1"], 1),
    ("table", "read", "main", L["L_UW"], 1),
    ("struct point.x", "read", "move", L["L_MX"], 5), ("struct point.x", "write", "move", L["L_MX"], 5),
    ("struct point.x", "read", "move", L["L_MY"], 5), ("struct point.y", "write", "move", L["L_MY"], 5),
])
assert sites == want, "\n".join(map(str, sites))
assert all(x["words"] == x["accesses"] for x in r["watch_sites"]), r["watch_sites"]
# the struct's fields by name and line: 16 accesses of x (10 reads, 6 writes), 6 of y,
# exactly what pt's two stack words saw
tot = lambda o, a: sum(x["accesses"] for x in r["watch_sites"] if x["object"] == o and x["access"] == a)
assert (tot("struct point.x", "read"), tot("struct point.x", "write")) == (10, 6)
assert (tot("struct point.y", "read"), tot("struct point.y", "write")) == (0, 6)
# the words of the globals add up to their sites' accesses
assert tot("table", "read") == 3 + 3 + 3 + 2 and tot("table", "write") == 3 + 3 + 2 + 2
PY
    ok "$opt: words by DWARF name, stack words, sites by object and line: exact"

    "$PMOPT" report w w.pit > rep 2> err || { cat err; fail "$opt: text report"; }
    assert_contains "$opt: text: the words' section by default" rep "^Watched data per 8-byte word"
    assert_contains "$opt: text: table[0] 3 3" rep "^  table\[0\] +0x[0-9a-f]+ +3 +3$"
    assert_contains "$opt: text: recs[1].hot 0 1" rep "^  recs\[1\]\.hot +0x[0-9a-f]+ +0 +1$"
    assert_contains "$opt: text: pt.x on the stack" rep "^  heap/stack +0x7f[0-9a-f]+ +10 +6$"
    assert_contains "$opt: text: run-dependent addresses said" rep "changes from run to run"
    assert_contains "$opt: text: a site of move" rep "^  struct point\.y +W +5 +5  move +[^ ]*watch\.c:$L_MY$"
    assert_not_contains "$opt: text: unwatched never appears" rep "unwatched"
    assert_not_contains "$opt: no DWARF note" err "DWARF"

    # two runs merged: the globals' words add up at their link-time addresses
    PERFINST_OUT=w2.pit ./w > /dev/null
    "$PMOPT" merge -o m.pit w.pit w2.pit > /dev/null
    "$PMOPT" report --format=csv --by=watch w m.pit > m.csv 2> err || { cat err; fail "$opt: report of the merge"; }
    assert_contains "$opt: merged: table[0] 6 6" m.csv "^table\[0\],variable,0x[0-9a-f]+,link-time,6,6$"
    assert_contains "$opt: merged: counter 2 4" m.csv "^counter,variable,0x[0-9a-f]+,link-time,2,4$"
done

# 16-byte words: table[0] and table[1] share one, so do table[2] and [3]
rm -f g.pit
PERFINST_WATCH_GRAN=16 PERFINST_OUT=g.pit ./w > /dev/null
"$PMOPT" report --by=watch w g.pit > g16 2> err || { cat err; fail "16-byte words: report"; }
assert_contains "16-byte words: the title says so" g16 "^Watched data per 16-byte word"
assert_contains "16-byte words: table[0..1]" g16 "^  table\[0\] +0x[0-9a-f]+ +6 +6$"
assert_contains "16-byte words: table[2..3]" g16 "^  table\[2\] +0x[0-9a-f]+ +5 +4$"
if "$PMOPT" merge -o x.pit w.pit g.pit > /dev/null 2> err; then fail "8- and 16-byte words merged"; fi
assert_contains "8- and 16-byte words: not merged" err "PERFINST_WATCH_GRAN differed"
