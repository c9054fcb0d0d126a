# A function too big for one feedback line (64 KiB): its branch-profile is
# written in chunks (first= says where each starts), every line stays under
# the limit, the chunks cover every block once, and the file reads back
# (pmopt plan --check parses it with common/pifeedback).  A fixture with
# hand-made metadata (tests/pmopt/pigen.py): 4000 blocks, each branching to
# the next two, counts of ten digits.
. "$PERFINST_TOP/tests/lib.sh"
F=$T/pmopt
n=4000
{
    echo '#include "markers.h"'
    echo 'int big(int x) {'
    for ((i = 0; i < n; i++)); do echo "PI_S($i); x += $i; PI_E($i);"; done
    echo 'return x; }'
    echo 'int main(void) { return big(0) & 1; }'
} > big.c
python3 - "$n" > big.json <<'PY'
import json, sys
n = int(sys.argv[1])
sites = []
for i in range(n):
    s = {"marker": i}
    succ = [j for j in (i + 1, i + 2) if j < n]
    if succ:
        s["succ"] = succ
    sites.append(s)
print(json.dumps({"unit_id": "0xd0d0d0d000000004", "source": "big.c",
                  "producer": "pigen fixture", "functions": [{"name": "big", "sites": sites}]}))
PY
cp "$F/markers.h" .
gcc -S -g -O0 big.c -o big.s
python3 "$F/pigen.py" meta big.json big.c >> big.s
gcc -c big.s -o big.o
gcc big.o -o big
counts=$(python3 -c "print(','.join(str(4000000000 + i) for i in range($n)))")
python3 "$F/pigen.py" trace -o big.pit --prog big --unit "0xd0d0d0d000000004=$counts"
"$PMOPT" plan -o big.fb ./big big.pit > plan.out
chunks=$(grep -c '^[0-9]* branch-profile fn=big ' big.fb)
[ "$chunks" -ge 2 ] || fail "expected several chunks, got $chunks"
ok "$chunks chunks"
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' big.fb)
[ "$longest" -lt 65536 ] || fail "a line of $longest bytes"
ok "longest line $longest bytes"
# the chunks' first= and number of counts tile 0..n
grep '^[0-9]* branch-profile fn=big ' big.fb | tr ' ' '\n' | awk -F= '
    $1 == "first" { f = $2 } $1 == "counts" { print f, split($2, a, ",") }' > tiles
awk -v n="$n" '{ if ($1 != next_) { print "gap at " $1; exit 1 } next_ = $1 + $2 } END { if (next_ != n) { print "ends at " next_; exit 1 } }' tiles ||
    fail "the chunks do not tile the blocks"
ok "the chunks tile blocks 0..$n"
"$PMOPT" plan --check=big.fb ./big > check.out
assert_contains "the file reads back and matches" check.out "1 of 1 function profiles match"
