# The performance page table (seed 004 M31): exact page touches per range,
# per page and per epoch for a fixture touching known pages in known epochs;
# the threshold handler at the 5th touch; the look-aside buffer's hits and
# misses in the API, `pmopt dump` and `pmopt report` (text and json); one
# touch per page per epoch with 4 threads racing; a real fault in a watched
# page still dies with its trace; the API's refusals.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -c "$T/indicators/pages.c" -o p.o
pi_ld -O2 -o p p.o -pthread
PERFINST_OUT=p.pit ./p > out
cat > expected <<'X'
ids: 0 1 2 3
epoch 1: A 3 B 1
epoch 2: A 6 fired 1 (at 5 touches, epoch 2, page 1)
epoch 4: A 8 B 3 C 1 D 1 fired 1
pages: 3 2 2 1 2 1 3 0
look-aside: 7 hits, 7 misses
X
diff -u expected out || fail "page touches differ from the fixture's epochs"
ok "touches per range and page exact; handler at the 5th touch, in epoch 2, page 1"

"$PMOPT" dump p.pit > dump
assert_contains "PAGES record" dump "PAGES epochs 4, look-aside hits 7, misses 7, page size 4096, nranges 4, npages 7, nepochs 4"
assert_contains "range A in the trace" dump "range 0: 0x[0-9a-f]+, 16384 bytes, threshold 5, touches 8, fired 1$"
assert_contains "range D in the trace" dump "range 3: 0x[0-9a-f]+800, 100 bytes, threshold 0, touches 1, fired 0$"
assert_contains "a touch outside page 6's ranges" dump "touches 3, outside the ranges 1$"
assert_contains "touches per epoch" dump "epoch 1: 4 4 4 2$"

"$PMOPT" report p p.pit > rep
assert_contains "report: hit rate" rep "look-aside buffer: 7 hits, 7 misses, hit rate 50.0%"
assert_contains "report: range A" rep "^ +0  0x[0-9a-f]+ +16384 +8 +5 +1$"
assert_contains "report: per epoch" rep "page touches per epoch: 4 4 4 2$"
"$PMOPT" report --by=pages --format=json p p.pit > rep.json
python3 - <<'PY'
import json
j = json.load(open("rep.json"))["pages"][0]
assert (j["epochs"], j["lookaside_hits"], j["lookaside_misses"], j["hit_rate"]) == (4, 7, 7, 0.5), j
assert [r["touches"] for r in j["ranges"]] == [8, 3, 1, 1], j
assert j["touches_per_epoch"] == [4, 4, 4, 2], j
PY
ok "report json: hit rate, touches, per epoch"
expect_fail "csv has no page table view" "$PMOPT" report --by=pages --format=csv p p.pit

PERFINST_OUT=t.pit ./p threads > th
assert_contains "4 threads, 50 epochs: one touch per page per epoch" th "^threads: range touches 200, page 0 touches 50$"

set +e
PERFINST_OUT=c.pit ./p crash > cr 2> cr.err
rc=$?
set -e
assert_eq "a real fault in a watched page kills with SIGSEGV" 139 "$rc"
assert_contains "its first touch was counted" cr "^crash: read touch counted 1$"
"$PMOPT" dump c.pit > cdump
assert_contains "the crash left a trace with a SIGNAL record" cdump "SIGNAL signo 11 \(SIGSEGV\)"
assert_contains "... and the page table" cdump "touches 1, fired 0$"

PERFINST_OUT=n.pit ./p nested > nested
assert_contains "a handler's own touch of a watched page is counted" nested "^nested: X 1 Y 1 fired 1$"

PERFINST_OUT=b.pit ./p badargs > bad
cat > expected <<'X'
len 0: -1 Invalid argument
overlap: -1 Invalid argument
unmapped: -1 Cannot allocate memory
remove bad: -1
remove: 0
after remove: 0
X
diff -u expected bad || fail "refusals differ"
ok "bad ranges refused with errno; a removed range no longer counts"
