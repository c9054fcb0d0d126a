#!/bin/bash
# pmopt merge at fleet scale: 1,000 traces of one build (copies of a real
# trace as 1,000 processes would write them, tests/pmopt/fleet.c) merged
# under a 30 MB address-space limit (ulimit -v), though the inputs hold
# 64 MB of counts: the merge streams, one input in memory at a time.  The
# sums are exact, the result does not depend on the order of the inputs,
# and --weight=N multiplies the counts of the inputs after it.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"

pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/layout/edges.c" -o edges.o
pi_ld -O2 -o edges edges.o
PERFINST_OUT=t.pit ./edges 100 > /dev/null
gcc -std=gnu11 -O1 -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/common" "$T/pmopt/fleet.c" \
    "$B/libpicommon.a" $(make -s --no-print-directory -C "$PERFINST_TOP" print-PICOMMON_LDLIBS) \
    -o fleet
mkdir f
./fleet t.pit 1000 f/ 8192    # 1000 traces, 8192 padding counters each (64 KiB)
ls f/*.pit > list
assert_eq "traces written" 1000 "$(wc -l < list)"

# Under AddressSanitizer (scripts/check-sanitize.sh) the shadow memory
# needs terabytes of address space: no limit there.
limit=30000
if nm -D "$PMOPT" 2>/dev/null | grep -q __asan_init || nm "$PMOPT" 2>/dev/null | grep -q __asan_init; then
    limit=unlimited
    echo "note: $PMOPT is built with AddressSanitizer: no ulimit -v"
fi
merge() { rc=0; (ulimit -v $limit; exec "$PMOPT" merge "$@") > out 2> err || rc=$?; }

merge -o all.pit $(cat list)
[ $rc = 0 ] || { cat err; fail "merge of 1000 traces under ulimit -v $limit exited $rc"; }
assert_contains "summary" out "^merged 1000 traces into all.pit: 2 modules, 2 units$"
merge -o rev.pit $(tac list)
[ $rc = 0 ] || { cat err; fail "merge of 1000 traces, reversed, exited $rc"; }
cmp all.pit rev.pit || fail "the merge of 1000 traces depends on their order"
ok "1000 traces in reverse order: the same bytes"

# exact sums: copy i is t.pit times (i % 7) + 1, so the merge is t.pit
# times 3997 (142 weeks of 28, then 1+...+6); the padding counters 1+...+1000
run_pmopt report --format=json ./edges t.pit
mv out one.json
run_pmopt report --format=json ./edges all.pit
mv out all.json
python3 - <<'PY' || fail "merged counts are not 3997 times the template's"
import json
one = {(s["unit"], s["site"]): s["count"] for s in json.load(open("one.json"))["sites"]}
all_ = {(s["unit"], s["site"]): s["count"] for s in json.load(open("all.json"))["sites"]}
assert one.keys() == all_.keys() and sum(one.values()) > 0
for k in one:
    assert all_[k] == 3997 * one[k], (k, one[k], all_[k])
print("sites", len(one), "total", sum(all_.values()))
PY
ok "every site's count is 3997 times the template's"
run_pmopt dump all.pit
grep -A1 " COUNTS .*unit 0x000000000000feed" out > pad
assert_contains "padding counters: the library's module (build-id feed0001 sorts first)" pad "COUNTS module 0, unit 0x000000000000feed, ncounters 8192"
assert_contains "padding counters: 500500 each" pad "^ +\[0\] 500500 500500 500500"

# weights: 3 x copy 0 (1x) + 2 x copy 1 (2x) + 2 x copy 2 (3x) = 13 x the template
merge -o w.pit --weight=3 f/0.pit --weight=2 f/1.pit f/2.pit
[ $rc = 0 ] || { cat err; fail "merge --weight exited $rc"; }
merge -o w2.pit --weight=2 f/2.pit f/1.pit --weight=3 f/0.pit
cmp w.pit w2.pit || fail "weighted merge depends on the order of the inputs"
ok "weighted merge: the same bytes in another order"
run_pmopt report --format=json ./edges w.pit
python3 - <<'PY' || fail "weighted counts are not 13 times the template's"
import json
one = {(s["unit"], s["site"]): s["count"] for s in json.load(open("one.json"))["sites"]}
w = {(s["unit"], s["site"]): s["count"] for s in json.load(open("out"))["sites"]}
for k in one:
    assert w[k] == 13 * one[k], (k, one[k], w[k])
PY
ok "weighted counts are 13 times the template's"
run_pmopt merge -o x.pit --weight=0 f/0.pit
assert_eq "--weight=0: usage error" 2 "$rc"
assert_contains "--weight=0: says why" err "pmopt: merge: --weight: '0' is not a positive integer"
run_pmopt merge -o x.pit --weight=-2 f/0.pit
assert_eq "--weight=-2: usage error" 2 "$rc"
run_pmopt merge -o x.pit --weight=1x f/0.pit
assert_eq "--weight=1x: usage error" 2 "$rc"
[ ! -e x.pit ] || fail "a refused merge left x.pit"
ok "bad weights refused"
