"""check-messages.py REPORT [PLAN] — the messages of `pmopt report
--sharing` (and of the plan made from the same trace) agree with each
other (issue 19): one verdict per object; one figure per object, the one
the plan writes as reloads=; a HIDDEN verdict only where the prediction
at this run's placement is nil; no object called safe that is also called
falsely shared; byte ranges, never runs of single bytes; each allocation
stack printed once; each `at` line of an entry once.  Exits 1 naming
the first contradiction."""
import re
import sys
from urllib.parse import unquote

rep = open(sys.argv[1]).read().splitlines()
problems = []

# the Objects section: "  NAME (KIND, N bytes, at +K of its line this run): VERDICT[; ...]"
objline = re.compile(r"^  (\S.*?) \((global|heap|local|mapping|memory|[a-z ]+), (\d+) bytes, at \+(\d+) of its line this run\): (.*)$")
objs = {}
in_objs = False
cur = None
for l in rep:
    if l.startswith("Objects:"):
        in_objs = True
        continue
    if not in_objs:
        continue
    m = objline.match(l)
    if m:
        name, off, rest = m.group(1), int(m.group(4)), m.group(5)
        if name in objs:
            problems.append("object %s has two verdicts" % name)
        verdict = rest.split(";")[0]
        fig = re.search(r"; false reloads: (\d+)", rest)
        # (HIDDEN: none at this run's placement, the plan's reloads=0)
        cur = objs[name] = {"off": off, "verdict": verdict,
                            "figure": int(fig.group(1)) if fig else 0 if verdict.startswith("HIDDEN") else None}
        if verdict.startswith("FALSE") and fig is None:
            problems.append("object %s: FALSE sharing without its figure" % name)
        continue
    m = re.match(r"^    line placements: (.*)$", l)
    if m and cur is not None:
        cur["line"] = {int(k): int(v) for k, v in re.findall(r"\+(\d+):(\d+)", m.group(1))}

for name, o in objs.items():
    if o["verdict"].startswith("HIDDEN") and "line" in o and o["line"].get(o["off"], 0):
        problems.append("object %s: HIDDEN (none at this run's placement) beside a prediction of %d there"
                        % (name, o["line"][o["off"]]))
    if o["verdict"].startswith(("FALSE", "HIDDEN")):
        for l in rep:
            if (name + " ") in l and ("safe at every placement" in l or "no false sharing at any placement" in l):
                problems.append("object %s is falsely shared and called safe: %s" % (name, l.strip()))

# byte lists: two neighbouring single bytes in one list ("heap+0xc00, heap+0xc01")
single = re.compile(r"(?:(\w+)\+)?0x([0-9a-f]+)(?![.\w])")
for l in rep:
    for lst in re.findall(r"\[([^\]]*)\]", l):
        items = [x.strip() for x in lst.split(",")]
        for a, b in zip(items, items[1:]):
            ma, mb = re.fullmatch(r"(\w+)\+0x([0-9a-f]+)", a), re.fullmatch(r"(\w+)\+0x([0-9a-f]+)", b)
            if ma and mb and ma.group(1) == mb.group(1) and int(mb.group(2), 16) == int(ma.group(2), 16) + 1:
                problems.append("a list of single bytes, not a range: [%s]" % lst)
                break

# allocation stacks, once each
stacks = [l.strip() for l in rep if l.startswith("    allocated at:")]
for s in set(stacks):
    if stacks.count(s) > 1:
        problems.append("allocation stack printed %d times: %s" % (stacks.count(s), s))

# each entry's `at` lines, once
entry = []
for l in rep + ["#end"]:
    if l.startswith("#") or not l.strip():
        for s in set(entry):
            if entry.count(s) > 1:
                problems.append("an `at` line twice in one entry: %s" % s)
        entry = []
    elif l.startswith("    at "):
        entry.append(re.sub(r": \d+ accesses.*", "", l.strip()))

# the plan's figures are the report's
if len(sys.argv) > 2:
    figs = {o["figure"] for o in objs.values() if o["figure"] is not None}
    for l in open(sys.argv[2]):
        m = re.match(r"^(\d+) (\S+) .*reloads=(\d+)", l)
        if m and int(m.group(3)) not in figs:
            problems.append("recommendation %s (%s): reloads=%s, a figure the report does not print (%s)"
                            % (m.group(1), m.group(2), m.group(3), sorted(figs)))
        if m:
            why = unquote(re.search(r"why=(\S*)", l).group(1)) if "why=" in l else ""
            for name, o in objs.items():
                if o["figure"] is not None and name in why and int(m.group(3)) != o["figure"]:
                    problems.append("recommendation %s names %s with reloads=%s, the report %d"
                                    % (m.group(1), name, m.group(3), o["figure"]))

if problems:
    sys.exit("%s: %s" % (sys.argv[1], "; ".join(problems[:5])))
print("%s: %d objects, messages agree" % (sys.argv[1], len(objs)))
