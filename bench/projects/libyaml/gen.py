# bench/projects/libyaml/gen.py N SEED — a YAML stream of N records (block
# and flow collections, plain, quoted, literal and folded scalars, anchors
# and aliases, several documents), deterministic for N and SEED
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift, vocabulary  # noqa: E402
n = int(sys.argv[1])
rnd = xorshift(int(sys.argv[2]))
words = ["alpha", "beta", "gamma", "delta", "kappa", "omega", "sigma", "theta", "zeta", "rho"]
def w(k=3):
    return " ".join(words[rnd(10)] for _ in range(1 + rnd(k)))
out = sys.stdout
for d in range(1 + n // 500):
    out.write("--- # part %d\ndefaults: &def%d\n  retries: %d\n  timeout: %d.%d\n  verbose: %s\n" %
              (d, d, rnd(9), rnd(60), rnd(10), ["true", "false", "~"][rnd(3)]))
    out.write("records:\n")
    for i in range(500 if n > 500 * (d + 1) else n - 500 * d):
        out.write("  - id: %d\n    name: \"%s \\t%d\"\n    <<: *def%d\n" % (500 * d + i, w(), rnd(1000), d))
        out.write("    tags: [%s]\n" % ", ".join("'%s'" % words[rnd(10)] for _ in range(rnd(5))))
        out.write("    pos: {x: %d, y: -%d, z: 0x%x}\n" % (rnd(999), rnd(999), rnd(65535)))
        k = rnd(4)
        if k == 0:
            out.write("    note: |\n" + "".join("      %s\n" % w(6) for _ in range(1 + rnd(3))))
        elif k == 1:
            out.write("    note: >-\n" + "".join("      %s\n" % w(6) for _ in range(1 + rnd(3))))
        elif k == 2:
            out.write("    note: '%s, it''s %d'\n" % (w(4), rnd(100)))
        else:
            out.write("    items:\n" + "".join("      - [%d, %s, %s]\n" % (rnd(50), words[rnd(10)], w(2)) for _ in range(1 + rnd(4))))
out.write("...\n")
