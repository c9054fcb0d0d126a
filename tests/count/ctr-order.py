#!/usr/bin/env python3
"""ctr-order.py META FUNC FIRST LAST: FUNC's counters (of `pmopt dump-meta`'s
sites and arcs, one unit) as two lines: those of blocks on source lines
FIRST..LAST (an arc's when both its ends are), then the others, each sorted."""
import re, sys

meta, func, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
fn = None
lo = hi = -1
arcs = []   # (src, dst, counter) of FUNC
sites = {}  # site -> (line, counter or None)
for l in open(meta):
    m = re.match(r"  function \d+ (\S+) .*: sites (\d+)\.\.(\d+),", l)
    if m:
        fn = m.group(1)
        if fn == func:
            lo, hi = int(m.group(2)), int(m.group(3))
        continue
    m = re.match(r"    arc \d+: (\S+) -> (\S+), .*counter (\d+)", l)
    if m and fn == func:
        arcs.append((m.group(1), m.group(2), int(m.group(3))))
        continue
    m = re.match(r"  site (\d+): block, [^,]*:(\d+):\d+, .*counter (\d+|-)", l)
    if m:
        sites[int(m.group(1))] = (int(m.group(2)), None if m.group(3) == "-" else int(m.group(3)))
inside = lambda line: first <= line <= last
hot, other = [], []
for s in range(lo, hi + 1):
    if s in sites and sites[s][1] is not None:
        (hot if inside(sites[s][0]) else other).append(sites[s][1])
for a, b, c in arcs:
    ends = [sites[int(x)][0] if x.isdigit() and int(x) in sites else 0 for x in (a, b)]
    (hot if all(inside(e) for e in ends) else other).append(c)
print(" ".join(map(str, sorted(hot))))
print(" ".join(map(str, sorted(other))))
