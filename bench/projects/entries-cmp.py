#!/usr/bin/env python3
"""entries-cmp.py GCOV PI [SPOT]: function counts compared, gcov's
(gcov-entries.py's "NAME COUNT" lines) against perfinst's ("NAME ENTRIES
INLINED" lines: pmopt report --by=function's linkage, entries and inlined,
pi-entries.py's or bench/projects.sh's); each side's lines of one name
added up, a perfinst row named F.part.N (F's ipa-split rest, F's front
inlined into every caller) taken for gcov's F, whose entries it holds
(libuv's uv__signal_stop).  Every function both count is compared: it matches when
perfinst's entries equal gcov's, or its entries less those of its inlined
bodies (the early inliner of a --coverage build inlines otherwise than
-O2's, ipa-split being off).  Prints "MATCHED BOTH OWN SPOT PI GCOV" (OWN:
how many matched the second way; SPOT's two counts, - where one has none)
and on stderr up to 20 functions that differ."""
import re, sys

g, p = {}, {}       # gcov: name -> count; perfinst: name -> [entries, inlined]
for l in open(sys.argv[1]):
    k, v = l.rsplit(None, 1)
    g[k] = g.get(k, 0) + int(v)
for l in open(sys.argv[2]):
    k, e, i = l.rsplit(None, 2)
    t = p.setdefault(re.sub(r"\.part\.[0-9]+$", "", k), [0, 0])
    t[0] += int(e)
    t[1] += int(i)
spot = sys.argv[3] if len(sys.argv) > 3 else "-"
both = sorted(set(g) & set(p))
whole = [k for k in both if g[k] == p[k][0]]
own = [k for k in both if g[k] != p[k][0] and g[k] == p[k][0] - p[k][1]]
diff = [k for k in both if g[k] not in (p[k][0], p[k][0] - p[k][1])]
print("%d %d %d %s %s %s" % (len(whole) + len(own), len(both), len(own), spot,
                             p[spot][0] if spot in p else "-", g.get(spot, "-")))
for k in diff[:20]:
    print("differs: %s perfinst %d (%d inlined) gcov %d" % (k, p[k][0], p[k][1], g[k]), file=sys.stderr)
