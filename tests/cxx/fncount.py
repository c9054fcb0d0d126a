#!/usr/bin/env python3
"""fncount.py REPORT.json NAME... — for each NAME (a linkage name), the sum
of the entries of the function rows that name it, over all units; or
"uninstrumented" when a row says the kept copy was not instrumented.  A row
names NAME when any of its string members is NAME or NAME demangled
(c++filt), so the check holds whichever member carries which spelling."""
import json, subprocess, sys

rep = json.load(open(sys.argv[1]))
names = sys.argv[2:]
demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                           text=True, check=True).stdout.split("\n")
for name, dem in zip(names, demangled):
    rows = [r for r in rep["functions"]
            if any(isinstance(v, str) and v in (name, dem) for v in r.values())]
    if not rows:
        print(f"{name} none")
    elif any(r.get("instrumented") is False for r in rows):
        print(f"{name} uninstrumented")
    else:
        print(f"{name} {sum(r['entries'] or 0 for r in rows)}")
