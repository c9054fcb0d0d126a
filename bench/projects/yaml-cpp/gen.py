# bench/projects/yaml-cpp/gen.py KB SEED — about KB KiB of YAML documents,
# each after a line "#@@ N" (the drive program splits there and loads each
# alone): block maps and sequences nested a few levels, flow collections,
# anchors and aliases, plain, single- and double-quoted scalars (escapes,
# UTF-8), literal and folded blocks, integers (decimal, hex, octal),
# floats, booleans, nulls, tags, comments; one document in 16 malformed
# (an unclosed flow, a bad indentation, an unknown alias, a tab indent, an
# unterminated quote), which the parser rejects with an exception;
# deterministic for KB and SEED
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift, vocabulary  # noqa: E402
kb = int(sys.argv[1])
rnd = xorshift(int(sys.argv[2]))
words = vocabulary(rnd, 500)
keys = words[:50]
anchors = []
def plain():
    return " ".join(words[rnd(500)] for _ in range(1 + rnd(4)))
def scalar():
    k = rnd(16)
    if k < 4: return plain()
    if k == 4: return "'" + plain() + "''s'"
    if k == 5: return '"' + plain() + ["\\n", "\\t", "\\u00e9", "\\x41", "\\\"", "é", "\\U0001F600"][rnd(7)] + '"'
    if k < 8: return str(rnd(100000) - 5000)
    if k == 8: return "0x%X" % rnd(1 << 30)
    if k == 9: return "%d.%02d" % (rnd(1000), rnd(100))
    if k == 10: return ["true", "false", "yes", "no", "on", "off", "True", "FALSE"][rnd(8)]
    if k == 11: return ["~", "null", "Null", ""][rnd(4)]
    if k == 12: return "%d.%de%d" % (rnd(10), rnd(1000), rnd(30) - 15)
    if k == 13: return "!!str " + str(rnd(1000))
    if k == 14: return "0o%o" % rnd(4096)
    return "-" + str(rnd(1000)) + ".5"
def flow(depth):
    if depth > 2 or rnd(2):
        return "[" + ", ".join(scalar() if rnd(4) else flow(depth + 1) for _ in range(rnd(5))) + "]"
    ks = []
    for _ in range(rnd(4)):
        kk = keys[rnd(50)]
        if kk not in ks: ks.append(kk)
    return "{" + ", ".join(kk + ": " + (scalar() if rnd(4) else flow(depth + 1)) for kk in ks) + "}"
def value(depth, ind, out):
    """a value after "key:" or "- " at indentation IND, appended to OUT (lines)"""
    k = rnd(14 if depth < 4 else 8)
    pad = "  " * ind
    if k < 5:
        out[-1] += " " + scalar()
    elif k == 5:
        out[-1] += " " + flow(0)
    elif k == 6 and anchors:
        out[-1] += " *" + anchors[rnd(len(anchors))]
    elif k == 7:
        out[-1] += " " + ["|", ">", "|-", ">+"][rnd(4)]
        for _ in range(1 + rnd(4)):
            out.append(pad + "  " + plain())
    elif k < 11:
        a = None
        if rnd(6) == 0:
            a = "a%d_%d" % (len(anchors), rnd(40))     # a name of its own
            out[-1] += " &" + a
        mapping(depth + 1, ind + 1, out)
        if a: anchors.append(a)      # after its node: no alias inside it (a cycle)
    else:
        sequence(depth + 1, ind + 1, out)
def mapping(depth, ind, out):
    ks = []
    for _ in range(1 + rnd(6)):
        kk = keys[rnd(50)]
        if kk not in ks: ks.append(kk)
    for kk in ks:
        if rnd(30) == 0:
            out.append("  " * ind + "# " + plain())
        out.append("  " * ind + kk + ":")
        value(depth, ind, out)
def sequence(depth, ind, out):
    for _ in range(1 + rnd(5)):
        out.append("  " * ind + "-")
        value(depth, ind, out)
bad = ["key: [a, b, c\nother: 1", "a:\n  b: 1\n c: 2", "x: *nowhere\n", "a:\n\t- 1\n", "s: \"unterminated\nt: 1",
       "- a\nb: c", "{a: 1, b: [2, 3}", "k: v\n  - w"]
o, n, doc = sys.stdout, 0, 0
while n < kb * 1024:
    del anchors[:]
    lines = ["#@@ %d" % doc]
    if rnd(16) == 0:
        lines.append(bad[rnd(len(bad))])
    else:
        lines.append("%YAML 1.2\n---" if rnd(10) == 0 else "---")
        if rnd(3):
            mapping(0, 0, lines)
        else:
            sequence(0, 0, lines)
    t = "\n".join(lines) + "\n"
    o.write(t)
    n += len(t)
    doc += 1
