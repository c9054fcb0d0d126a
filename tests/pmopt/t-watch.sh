#!/bin/bash
# The watch views from hand-made WATCH and SITESTAT (kind watch) records:
# pmopt dump decodes WATCH; pmopt report names each word of PROG through
# DWARF (watched.c: arrays, nested arrays of structs, bit-fields, a union,
# an anonymous member, a static local) and lists words outside PROG as
# heap/stack with their run-time address, per data site the accesses, in
# text, json and csv, exact numbers; pmopt merge adds the words of one
# module-relative address whatever the order of its inputs; records whose
# sizes or word size contradict themselves are refused.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
UW=0xd0d0d0d000000004
build_obj watched
gcc watched.o -o watched
LIB=/usr/lib/x86_64-linux-gnu/libwatch-fixture.so

sym() { nm watched | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
t=$(sym table); c=$(sym counter); r=$(sym recs); g=$(sym grid); u=$(sym un); a=$(sym anon)
h=$(sym hits.0); m=$(sym main)
hex() { printf '0x%x' "$1"; }
STACK=0x7ffd00001000            # outside every module
NEAR=0x100000                   # in PROG's module span, past its image: a heap next to a PIE
# struct cell { unsigned a:3, b:5; short s; char name[6]; } is 12 bytes: grid+8 is
# grid[0][0].name[4], +16 grid[0][1].name[0], +24 grid[0][2].a, +40 grid[1][0].name[0]
WA="8:p+$t=3/3,p+$((t + 16))=3/2,p+$c=1/2,p+$r=1/1,p+$((r + 16))=0/1,p+$g=2/0,p+$((g + 8))=0/2"
WA="$WA,p+$((g + 16))=1/1,p+$((g + 24))=4/0,p+$((g + 40))=0/3,p+$u=1/5,p+$a=2/2,p+$((a + 8))=6/0"
WA="$WA,p+$h=7/7,p+$m=1/0,p+$NEAR=4/4,$STACK=5/5,l+0x100=9/9"
pigen trace -o a.pit --prog watched --pid 100 --unit "$UW=3" --lib "$LIB:00112233" \
    --sitestat "$UW:1:watch:10:10:0:0:0" --sitestat "$UW:2:watch:12:10:0:0:0" \
    --sitestat "$UW:3:watch:1:1:0:0:0" --watch "$WA"
# b: the same words again, and two of its own; its stack is elsewhere
pigen trace -o b.pit --prog watched --pid 200 --unit "$UW=1" --lib "$LIB:00112233" \
    --watch "8:p+$t=1/1,p+$((t + 8))=2/0,$STACK=1/0,0x7ffd00002000=0/1,l+0x100=1/1,p+$NEAR=1/0" \
    --sitestat "$UW:1:watch:4:4:0:0:0" --sitestat "$UW:5:watch:1:1:0:0:0"
pigen trace -o c.pit --prog watched --pid 300 --unit "$UW=1" --watch "8:p+$c=0/1"

# ---- dump decodes WATCH
run_pmopt dump a.pit
[ $rc = 0 ] || { cat err; fail "dump exited $rc"; }
assert_contains "dump: WATCH header" out "^#[0-9]+ @0x[0-9a-f]+ WATCH word size 8, nwords 18$"
assert_contains "dump: a word, run-time address" out "^    \[0\] $(hex $((0x555555554000 + t))): reads 3, writes 3$"
assert_contains "dump: SITESTAT kind watch" out "SITESTAT unit 0xd0d0d0d000000004, site 2, kind watch, count 12, execs 10,"

# ---- report, json: every word named, exact numbers
run_pmopt report --format=json watched a.pit
[ $rc = 0 ] || { cat err; fail "report exited $rc"; }
assert_contains "a library's word: a note" err "a.pit: 1 watched word in modules that are not watched: ignored"
python3 - "$t" "$c" "$r" "$g" "$u" "$a" "$h" "$m" <<'PY' || fail "report json"
import json, sys
t, c, r, g, u, a, h, m = (int(x, 0) for x in sys.argv[1:])
rep = json.load(open("out"))
assert rep["watch_word_size"] == 8, rep["watch_word_size"]
w = [(x["object"], x["kind"], x["address"], x["address_is"], x["reads"], x["writes"]) for x in rep["watch_words"]]
V = lambda name, addr, rd, wr: (name, "variable", hex(addr), "link-time", rd, wr)
want = [
    V("hits", h, 7, 7),                                   # a static local, by its DWARF name
    ("heap/stack", "heap/stack", "0x7ffd00001000", "run-time", 5, 5),
    ("heap/stack", "heap/stack", hex(0x555555554000 + 0x100000), "run-time", 4, 4),
    V("table[0]", t, 3, 3), V("un.l", u, 1, 5), V("table[2]", t + 16, 3, 2),
    V("anon.y", a + 8, 6, 0),                             # an anonymous struct member
    V("counter", c, 1, 2), V("grid[0][0].name[4]", g + 8, 0, 2),
    V("grid[0][1].name[0]", g + 16, 1, 1), V("grid[0][2].a", g + 24, 4, 0),
    V("anon.tag", a, 2, 2), V("grid[1][0].name[0]", g + 40, 0, 3),
    V("recs[0].hot", r, 1, 1), V("grid[0][0].a", g, 2, 0),   # a bit-field
    ("?", "unknown", hex(m), "link-time", 1, 0),          # PROG's code: no variable
    V("recs[1].hot", r + 16, 0, 1),
]
# sorted by reads + writes, then PROG before heap/stack, then address
key = lambda x: (-(x[4] + x[5]), {"link-time": 0, "run-time": 1}[x[3]], int(x[2], 16))
assert sorted(want, key=key) == w, "\n".join(map(str, w))
s = [(x["site"], x["object"], x["access"], x["function"], x["file"], x["line"], x["accesses"], x["words"])
     for x in rep["watch_sites"]]
assert s == [(1, "table", "read", "main", "watched.c", 20, 10, 10),
             (2, "table", "write", "main", "watched.c", 20, 10, 12),
             (3, "counter", "read", "main", "watched.c", 21, 1, 1),
             (4, "counter", "write", "main", "watched.c", 21, 0, 0),
             (5, "struct rec.hot", "write", "main", "watched.c", 22, 0, 0),
             (6, "struct rec.hot", "read", "main", "watched.c", 25, 0, 0)], s
assert rep["indicators"] == [] and rep["regions"] == [], (rep["indicators"], rep["regions"])
print("watch json ok")
PY
ok "report json: words named through DWARF, heap/stack, sites, exact"

# ---- text
run_pmopt report watched a.pit
[ $rc = 0 ] || { cat err; fail "text report exited $rc"; }
cat out
assert_contains "text: the words' section (default views)" out "^Watched data per 8-byte word, most accessed first"
assert_contains "text: table[0]" out "^  table\[0\] +$(hex $t) +3 +3$"
assert_contains "text: grid[0][2].a" out "^  grid\[0\]\[2\]\.a +$(hex $((g + 24))) +4 +0$"
assert_contains "text: a stack word, its run-time address" out "^  heap/stack +0x7ffd00001000 +5 +5$"
assert_contains "text: run-dependent addresses said" out "run-time\) and changes from run to run"
assert_contains "text: the sites' section" out "^Watched data per access site"
assert_contains "text: site table R" out "^  table +R +10 +10  main +watched\.c:20$"
assert_contains "text: site table W (12 words in 10 accesses)" out "^  table +W +10 +12  main +watched\.c:20$"
assert_contains "text: a site never executed" out "^  struct rec\.hot +R +0 +0  main +watched\.c:25$"
assert_not_contains "text: data sites are not regions" out "^Regions"
assert_not_contains "text: watch SITESTATs are not indicators" out "^Indicators"
run_pmopt report --by=watch-sites watched a.pit
assert_not_contains "--by=watch-sites: no words" out "^Watched data per 8-byte word"
assert_contains "--by=watch-sites: the sites" out "^Watched data per access site"
run_pmopt report --by=watch --top=2 watched a.pit
assert_eq "--top=2: two word rows" "hits heap/stack" "$(awk '/^Watched data per 8/ {on = 1; getline; next} /^$/ {on = 0} on && /^  [^(]/ {print $1}' out | tr '\n' ' ' | sed 's/ $//')"
# a program with no data site, a trace without WATCH: no watch section by default
build_prog
pigen trace -o p.pit --prog prog --unit "$UA=$CA" --unit "$UB=$CB"
run_pmopt report prog p.pit
assert_not_contains "no watched data: no watch sections" out "^Watched"
run_pmopt report --by=watch prog p.pit
assert_contains "--by=watch without WATCH: said" out "^  \(none: no WATCH record for PROG\)$"

# ---- csv
run_pmopt report --format=csv --by=watch watched a.pit
[ $rc = 0 ] || { cat err; fail "csv --by=watch exited $rc"; }
assert_eq "csv words header" "object,kind,address,address_is,reads,writes" "$(head -1 out)"
assert_contains "csv: a word" out "^table\[2\],variable,$(hex $((t + 16))),link-time,3,2$"
assert_contains "csv: a stack word" out "^heap/stack,heap/stack,0x7ffd00001000,run-time,5,5$"
run_pmopt report --format=csv --by=watch-sites watched a.pit
assert_eq "csv sites header" "accesses,words,object,access,unit,site,function,file,line" "$(head -1 out)"
assert_eq "csv: the hottest site" "10,10,table,read,0xd0d0d0d000000004,1,main,watched.c,20" "$(sed -n 2p out)"

# ---- merge: module-relative words, order-independent bytes
run_pmopt merge -o ab.pit a.pit b.pit
[ $rc = 0 ] || { cat err; fail "merge exited $rc"; }
run_pmopt merge -o ba.pit b.pit a.pit
cmp ab.pit ba.pit || fail "merge A+B differs from B+A"
run_pmopt merge -o abc.pit a.pit b.pit c.pit
run_pmopt merge -o cba.pit c.pit b.pit a.pit
run_pmopt merge -o ab_c.pit ab.pit c.pit
run_pmopt merge -o c_ab.pit c.pit ab.pit
cmp abc.pit cba.pit && cmp abc.pit ab_c.pit && cmp abc.pit c_ab.pit ||
    fail "merge of three depends on the order or grouping"
ok "A+B = B+A, A+B+C = C+B+A = (A+B)+C = C+(A+B) byte for byte (WATCH included)"
run_pmopt dump abc.pit
cat out
# modules sorted by build-id: the library (00112233) is module 0, PROG module 1
pos=$(sed -n 's/.* MODULE index \([0-9]\), .*path "[^"]*watched".*/\1/p' out)
lpos=$(sed -n 's/.* MODULE index \([0-9]\), .*libwatch-fixture.*/\1/p' out)
assert_contains "merged: PROG's words module-relative, added" out "^    \[[0-9]+\] module $pos \+ $(hex $t): reads 4, writes 4$"
assert_contains "merged: a word only b has" out "^    \[[0-9]+\] module $pos \+ $(hex $((t + 8))): reads 2, writes 0$"
assert_contains "merged: c's counter word added" out "^    \[[0-9]+\] module $pos \+ $(hex $c): reads 1, writes 3$"
assert_contains "merged: the library's word, its own module" out "^    \[[0-9]+\] module $lpos \+ 0x100: reads 10, writes 10$"
assert_contains "merged: a heap word next to PROG, module-relative" out "^    \[[0-9]+\] module $pos \+ 0x100000: reads 5, writes 4$"
assert_contains "merged: the same stack address of two runs, added" out "^    \[[0-9]+\] 0x7ffd00001000: reads 6, writes 5$"
assert_contains "merged: a stack word of one run" out "^    \[[0-9]+\] 0x7ffd00002000: reads 0, writes 1$"
assert_eq "merged: one WATCH record" 1 "$(grep -c ' WATCH ' out)"
run_pmopt report --format=json watched abc.pit
[ $rc = 0 ] || { cat err; fail "report of the merge exited $rc"; }
cp out merged.json
run_pmopt report --format=json watched a.pit b.pit c.pit
cp out three.json
python3 - "$t" <<'PY' || fail "report of the merged trace"
import json, sys
t = int(sys.argv[1], 0)
m, s = json.load(open("merged.json")), json.load(open("three.json"))
W = lambda r: {(x["object"], x["address"], x["address_is"]): (x["reads"], x["writes"]) for x in r["watch_words"]}
wm, ws = W(m), W(s)
assert wm[("table[0]", hex(t), "link-time")] == (4, 4), wm
assert wm[("table[1]", hex(t + 8), "link-time")] == (2, 0), wm
# a heap word next to PROG: a run-time address per run, relative to PROG once merged
assert wm[("heap/stack", "0x100000", "module-relative")] == (5, 4), wm
assert ws[("heap/stack", hex(0x555555554000 + 0x100000), "run-time")] == (5, 4), ws
same = lambda d: {k: v for k, v in d.items() if k[2] != "module-relative" and k[1] != hex(0x555555654000)}
assert same(wm) == same(ws), (wm, ws)
sites = lambda r: [(x["site"], x["accesses"], x["words"]) for x in r["watch_sites"]]
assert sites(m) == sites(s) == [(1, 14, 14), (2, 10, 12), (3, 1, 1), (5, 1, 1), (4, 0, 0), (6, 0, 0)], sites(m)
print("merged report ok")
PY
ok "report of the merge = report of A B C (a heap word next to PROG becomes module-relative)"
run_pmopt report watched abc.pit
assert_contains "text of the merge: base+ address" out "^  heap/stack +base\+0x100000 +5 +4$"

# ---- words of different sizes: merge and report refuse them
pigen trace -o g16.pit --prog watched --unit "$UW=1" --watch "16:p+$t=6/6"
run_pmopt merge -o x.pit a.pit g16.pit
assert_eq "word sizes differ: merge exit status" 1 "$rc"
assert_contains "word sizes differ: merge message" err "g16.pit: watched words of 16 bytes, but an earlier input has 8-byte words \(PERFINST_WATCH_GRAN differed\)"
[ ! -e x.pit ] || fail "a refused merge left x.pit"
run_pmopt report watched a.pit g16.pit
assert_eq "word sizes differ: report exit status" 1 "$rc"
assert_contains "word sizes differ: report message" err "g16.pit: watched words of 16 bytes, but an earlier trace has 8-byte words"
run_pmopt report --by=watch watched g16.pit
assert_contains "16-byte words: said in the title" out "^Watched data per 16-byte word"
assert_contains "16-byte words: table[0] and [1] in one word, named by the first" out "^  table\[0\] +$(hex $t) +6 +6$"

# ---- WATCH records that contradict themselves are refused
python3 - <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["PERFINST_TOP"], "tests"))
from pifmt import trace_header, trace_record as rec
hdr = trace_header
word = struct.pack("<QQQ", 0x555555558040, 1, 2)
open("w-gran3.pit", "wb").write(hdr() + rec(9, struct.pack("<II", 3, 1) + word))
open("w-gran0.pit", "wb").write(hdr() + rec(9, struct.pack("<II", 0, 1) + word))
open("w-gran8192.pit", "wb").write(hdr() + rec(9, struct.pack("<II", 8192, 1) + word))
open("w-more.pit", "wb").write(hdr() + rec(9, struct.pack("<II", 8, 3) + word * 2))
open("w-fewer.pit", "wb").write(hdr() + rec(9, struct.pack("<II", 8, 1) + word * 2))
open("w-short.pit", "wb").write(hdr() + rec(9, b""))
open("w-mixed.pit", "wb").write(hdr() + rec(9, struct.pack("<II", 8, 1) + word) +
                                rec(9, struct.pack("<II", 16, 1) + word))
# a merged trace whose word names module 4 of none
tagged = struct.pack("<QQQ", (5 << 56) | 0x4040, 1, 1)
open("w-tag.pit", "wb").write(hdr(1) + rec(9, struct.pack("<II", 8, 1) + tagged))
PY
refuse() { refused watched "$@"; } # FILE REGEX
refuse w-gran3.pit "w-gran3.pit: record 0 \(WATCH\) at offset 0x30: word size 3 is not a power of two from 1 to 4096"
refuse w-gran0.pit "w-gran0.pit: record 0 \(WATCH\) at offset 0x30: word size 0 is not a power of two from 1 to 4096"
refuse w-gran8192.pit "w-gran8192.pit: record 0 \(WATCH\) at offset 0x30: word size 8192 is not a power of two"
refuse w-more.pit "w-more.pit: record 0 \(WATCH\) at offset 0x30: 3 words need 80 bytes, the record has 56"
refuse w-fewer.pit "w-fewer.pit: record 0 \(WATCH\) at offset 0x30: 1 words need 32 bytes, the record has 56"
refuse w-short.pit "w-short.pit: record 0 \(WATCH\) at offset 0x30: 0 bytes, too small"
run_pmopt merge -o m.pit w-mixed.pit
assert_eq "8- and 16-byte WATCH records in one trace: refused" 1 "$rc"
assert_contains "8- and 16-byte WATCH records: message" err "w-mixed.pit: record 1 at offset 0x[0-9a-f]+: WATCH records with 8-byte and 16-byte words"
run_pmopt merge -o m.pit w-tag.pit
assert_eq "a merged word naming a missing module: refused" 1 "$rc"
assert_contains "a merged word naming a missing module: message" err "w-tag.pit: watched word 0x500000000004040 names module 4, which has no MODULE record"

# ---- a cut trace: the words are in the record that was cut, so none are used
pigen offsets a.pit > offs
cut=$(awk '$3 == 9 { print $2; exit }' offs)
head -c $((cut + 40)) a.pit > cut.pit
run_pmopt report --format=json watched cut.pit
[ $rc = 0 ] || { cat err; fail "report of a cut trace exited $rc"; }
python3 -c "
import json; r = json.load(open('out'))
assert r['watch_words'] == [] and r['watch_word_size'] is None and r['watch_sites'][0]['accesses'] == 10
" || fail "cut trace: SITESTATs before the cut kept, no words"
ok "cut trace: the SITESTATs before the cut are used, the cut WATCH record is not"
