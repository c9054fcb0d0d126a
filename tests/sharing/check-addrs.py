"""check-addrs.py FILE — the layout of a repaired program (t-repair.sh,
t-verdict.sh): FILE holds lines "addr T<k> FIRST LAST" (hex), each thread's
written data; each FIRST must start a line and no two threads' data may
share a line.  Exits 1 with the reason otherwise."""
import sys

lines = {}
for l in open(sys.argv[1]):
    w = l.split()
    if not w or w[0] != "addr":
        continue
    lo, hi = int(w[2], 16), int(w[3], 16)
    if lo % 64:
        sys.exit("%s starts at +%d of its line" % (w[1], lo % 64))
    lines[w[1]] = set(range(lo // 64, hi // 64 + 1))
ts = sorted(lines)
if len(ts) < 2:
    sys.exit("fewer than two threads")
for i in range(len(ts)):
    for j in range(i + 1, len(ts)):
        if lines[ts[i]] & lines[ts[j]]:
            sys.exit("%s and %s share line(s) %s" % (ts[i], ts[j], sorted(lines[ts[i]] & lines[ts[j]])))
