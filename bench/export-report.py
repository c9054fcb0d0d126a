#!/usr/bin/env python3
"""export-report.py ROWS CMDLINE REPS LOAD_START LOAD_END TREE_HEADER — the
table of bench/export.sh from its rows ("TRACE FORMAT CPU_S BYTES", format
report-json: pmopt report's CPU time and the trace's size), as markdown."""
import collections
import math
import sys
import time

rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
cmd, reps, l0, l1, head = sys.argv[2:7]
by = collections.OrderedDict()
for label, fmt, t, size in rows:
    by.setdefault(label, {})[fmt] = (float(t), int(size))
fmts = [f for f in ["pprof", "callgrind", "lcov", "gcovr", "speedscope", "chrome", "flamegraph", "folded"]
        if any(f in v for v in by.values())]


def sz(n):
    return "%.1f MB" % (n / 1e6) if n >= 1e6 else "%.1f kB" % (n / 1e3)


print("## %s — pmopt export: time and size of each format (`%s`)" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), cmd))
print()
print("CPU time (user + sys, median of %s runs) and output size of `pmopt export --FORMAT OUT PROG TRACE`," % reps)
print("one format per run, beside `pmopt report --format=json` on the same trace (its size column: the trace's).")
if any(k != "stacks" for k in by):
    print("Programs built -O2 -g with all=count, one trace per workload at the small scale (bench/workloads.sh).")
if "stacks" in by:
    print("`stacks`: SQLite's sort mix at scale 1 with PERFINST_SAMPLE=wall:50us — %s." % head.strip())
print("Load average %s at the start, %s at the end, on 2 CPUs: the times are CPU time under that load." % (l0, l1))
print()
print("| trace | report (s) | trace size | " + " | ".join("%s (s) | size" % f for f in fmts) + " |")
print("| --- | ---: | ---: | " + " | ".join("---: | ---:" for f in fmts) + " |")
for label, v in by.items():
    r = v["report-json"]
    cells = ["%.3f | %s" % (v[f][0], sz(v[f][1])) if f in v else "— | —" for f in fmts]
    print("| %s | %.3f | %s | %s |" % (label, r[0], sz(r[1]), " | ".join(cells)))
for name, group in (("count traces", [v for k, v in by.items() if k != "stacks"]),
                    ("stack profile", [v for k, v in by.items() if k == "stacks"])):
    if not group:
        continue
    print()
    print("Export time / report time over the %d %s (reading PROG, its DWARF and the trace is common to both):" % (len(group), name))
    for f in fmts:
        rs = [v[f][0] / v["report-json"][0] for v in group if f in v and v["report-json"][0] > 0]
        if rs:
            g = math.exp(sum(math.log(x) for x in rs) / len(rs))
            print("- %s: geometric mean %.2fx, worst %.2fx" % (f, g, max(rs)))
