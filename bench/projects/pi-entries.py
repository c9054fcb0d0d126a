#!/usr/bin/env python3
"""pi-entries.py PMOPT TREE PIT...: perfinst's function counts over the
traces, for entries-cmp.py: every module the traces name whose file is
under TREE and still there (a program or library of the build, not a
configure test deleted after its run) is reported over the traces that
name it (pmopt report --by=function --format=csv); one line per function
and module, "NAME ENTRIES INLINED".  Traces pmopt cannot read are counted
on stderr and left out."""
import collections, csv, io, os, re, subprocess, sys

pmopt, tree, pits = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3:]
mod_re = re.compile(r' MODULE .*path "(.*)"$')
traces = collections.defaultdict(list)      # module path -> traces naming it
bad = 0
for t in pits:
    # (a trace holds the program's arguments, in no particular encoding)
    r = subprocess.run([pmopt, "dump", t], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       encoding="utf-8", errors="surrogateescape")
    if r.returncode != 0:
        bad += 1
        continue
    for m in {x.group(1) for x in map(mod_re.search, r.stdout.splitlines()) if x}:
        if m.startswith(tree + "/") and os.path.isfile(m):
            traces[m].append(t)
if bad:
    print("pi-entries: %d unreadable traces left out" % bad, file=sys.stderr)
for m in sorted(traces):
    r = subprocess.run([pmopt, "report", "--format=csv", "--by=function", m] + traces[m],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8", errors="replace")
    if r.returncode != 0:
        print("pi-entries: pmopt report %s failed: %s" % (m, r.stderr.strip().splitlines()[-1:]), file=sys.stderr)
        continue
    for row in csv.DictReader(io.StringIO(r.stdout)):
        if row["entries"]:
            print(row["linkage"], row["entries"], row.get("inlined") or 0)
