#!/usr/bin/env python3
"""check-counts.py [--all] PMOPT PROG SOURCE TRACE...

Compares `pmopt report --by=line --format=csv` with the `// expect-count: N`
(or `none`) comments of SOURCE.  With --all (a build with all=count) an
`expect-count-all: N` on the same line takes precedence.  Prints one line per expectation and exits 1
on the first mismatch list."""
import csv, io, os, re, subprocess, sys

args = sys.argv[1:]
all_count = args[0] == "--all"
if all_count:
    args = args[1:]
pmopt, prog, source, traces = args[0], args[1], args[2], args[3:]
out = subprocess.run([pmopt, "report", prog, *traces, "--by=line", "--format=csv"],
                     check=True, capture_output=True, text=True).stdout
counts = {}
for row in csv.DictReader(io.StringIO(out)):
    if os.path.basename(row["file"]) == os.path.basename(source):
        counts[int(row["line"])] = int(row["count"])
bad = 0
n = 0
for lineno, text in enumerate(open(source), 1):
    m = all_count and re.search(r"expect-count-all: (\d+|none)", text)
    m = m or re.search(r"expect-count: (\d+|none)", text)
    if not m:
        continue
    n += 1
    want = None if m.group(1) == "none" else int(m.group(1))
    got = counts.get(lineno)
    status = "ok" if got == want else "MISMATCH"
    if got != want:
        bad += 1
    print(f"{status}: {os.path.basename(source)}:{lineno}: expected {m.group(1)}, got {got if got is not None else 'none'}")
print(f"{n - bad} of {n} line counts exact")
sys.exit(1 if bad or n == 0 else 0)
