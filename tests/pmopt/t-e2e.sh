#!/bin/bash
# End to end with the real plugin, perfinst-ld and runtime (skipped until
# they are built): compile, link, run twice, then dump-meta, report and merge
# give the exact counts of the program's control flow (counted at cfg,
# count-at=cfg: every function on its own blocks, before the early inliner).
source "$PERFINST_TOP/tests/lib.sh"
for f in "$PLUGIN" "$PILD" "$B/libperfinst.so"; do
    [ -e "$f" ] || skip "$f is not built"
done
cat > loop.c <<'C'
#include <stdio.h>
#include <stdlib.h>
static int classify(int x)
{
    if (x % 3 == 0)
        return 1;                                  /* line 6 */
    return x & 1;
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    int hits = 0;
    for (int i = 0; i < n; i++)                    /* line 13 */
        hits += classify(i);
    printf("%d\n", hits);
    return 0;
}
C
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c loop.c -o loop.o
pi_ld -g -o loop loop.o
PERFINST_OUT=a.pit ./loop 10 > /dev/null
PERFINST_OUT=b.pit ./loop 5 > /dev/null

"$PMOPT" dump-meta loop > meta || { cat meta; fail "dump-meta of a plugin-built program"; }
assert_contains "units, ranges, xlat and link recipe" meta "^loop: .*1 units, [0-9]+ code ranges, translation table, link recipe"
assert_contains "a range in classify or inlined into main" meta "count +[0-9]+  classify +loop.c:6 "

"$PMOPT" report --format=json loop a.pit > a.json 2> err || { cat err; fail "report a.pit"; }
python3 - <<'PY' || fail "exact counts of loop 10"
import json
r = json.load(open("a.json"))
f = {x["function"]: x for x in r["functions"]}
assert f["classify"]["entries"] == 10, f["classify"]
assert f["main"]["entries"] == 1, f["main"]
lines = {x["line"]: x["count"] for x in r["lines"] if x["file"].endswith("loop.c")}
assert lines[13] == 11, lines     # the loop test: n + 1
assert lines[6] == 4, lines       # 0, 3, 6, 9
print("exact")
PY
ok "loop 10: classify 10 entries, for line 11, return 1 four times"

"$PMOPT" merge -o ab.pit a.pit b.pit > /dev/null
"$PMOPT" merge -o ba.pit b.pit a.pit > /dev/null
cmp ab.pit ba.pit || fail "merge order"
"$PMOPT" report --format=csv --by=line loop ab.pit > ab.csv
assert_contains "merged: the for line 11 + 6" ab.csv "^17,loop.c,13$"
assert_contains "merged: return 1 4 + 2" ab.csv "^6,loop.c,6$"
