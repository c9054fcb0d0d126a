#!/usr/bin/env python3
"""gcov-entries.py TREE: for every .gcda under TREE, gcov's function counts
(gcov --json-format --stdout: a function's execution_count is the count of
its entry block); one line per function, "NAME COUNT", NAME gcov's (the
linkage name), counts of one name in several units added (an inline
function of a header, like `pmopt report`'s one row per function)."""
import gzip, json, os, subprocess, sys

counts = {}
for d, _, files in os.walk(os.path.abspath(sys.argv[1])):   # (gcov runs in d: a relative TREE found nothing)
    for f in files:
        if not f.endswith(".gcda"):
            continue
        gcno = os.path.join(d, f[:-5] + ".gcno")
        if not os.path.exists(gcno):
            continue
        r = subprocess.run(["gcov", "--json-format", "--stdout", gcno], cwd=d,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for line in r.stdout.splitlines():
            line = line.strip()
            if not line.startswith(b"{"):
                continue
            doc = json.loads(line)
            for src in doc.get("files", []):
                for fn in src.get("functions", []):
                    counts[fn["name"]] = counts.get(fn["name"], 0) + fn["execution_count"]
for k in sorted(counts):
    print(k, counts[k])
