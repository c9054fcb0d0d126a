# bench/projects/jsoncpp/gen.py KB SEED — about KB KiB of JSON: one array of
# records (objects nested a few levels, arrays, strings with escapes and
# UTF-8, integers of every width, doubles, booleans, nulls, a few comments),
# deterministic for KB and SEED
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift, vocabulary  # noqa: E402
kb = int(sys.argv[1])
rnd = xorshift(int(sys.argv[2]))
words = vocabulary(rnd, 600)
keys = words[:60]
esc = ['\\n', '\\t', '\\"', '\\\\', '\\/', '\\u00e9', '\\u4e2d', '\\ud83d\\ude00', 'é', 'ß', '€']
def string():
    s = " ".join(words[rnd(600)] for _ in range(1 + rnd(6)))
    if rnd(5) == 0:
        i = rnd(len(s) + 1)
        s = s[:i] + esc[rnd(len(esc))] + s[i:]
    return '"' + s + '"'
def number():
    k = rnd(8)
    if k == 0: return str(rnd(10))
    if k == 1: return str(-rnd(100000))
    if k == 2: return str(rnd(0x7fffffff) * 4294967296 + rnd(0xffffffff))   # 63 bits
    if k == 3: return "%d.%03d" % (rnd(1000), rnd(1000))
    if k == 4: return "%d.%de%s%d" % (rnd(10), rnd(100000), "-+"[rnd(2)], rnd(300))
    if k == 5: return "-%d.%d" % (rnd(100), rnd(1000000))
    return str(rnd(1000000))
def value(depth, ind):
    k = rnd(12 if depth < 4 else 7)
    if k < 3: return string()
    if k < 5: return number()
    if k == 5: return ["true", "false", "null"][rnd(3)]
    if k == 6: return number() if rnd(2) else string()
    if k < 9: return array(depth + 1, ind)
    return obj(depth + 1, ind)
def array(depth, ind):
    n = rnd(7)
    if n == 0: return "[]"
    pad = "\n" + "  " * (ind + 1)
    return "[" + ",".join(pad + value(depth, ind + 1) for _ in range(n)) + "\n" + "  " * ind + "]"
def obj(depth, ind):
    n = rnd(8)
    if n == 0: return "{}"
    pad = "\n" + "  " * (ind + 1)
    ks = []
    for _ in range(n):
        kk = keys[rnd(60)]
        if kk not in ks: ks.append(kk)
    items = []
    for kk in ks:
        c = "// %s\n%s" % (words[rnd(600)], "  " * (ind + 1)) if rnd(40) == 0 else ""
        items.append(pad + c + '"' + kk + '": ' + value(depth, ind + 1))
    return "{" + ",".join(items) + "\n" + "  " * ind + "}"
out, n = sys.stdout, 0
out.write("/* generated: %d KiB, seed %s */\n[" % (kb, sys.argv[2]))
first = True
while n < kb * 1024:
    r = ("" if first else ",") + "\n  " + obj(0, 1)
    first = False
    out.write(r)
    n += len(r.encode())
out.write("\n]\n")
