#!/usr/bin/env python3
"""bench/suite-layouts.py — how many layouts a mean needs: bench/suite.sh's
counts of two variants (e.g. the rebuild against BOLT) over a lattice of
layouts and over its nested sub-lattices and random subsets.

    bench/suite-layouts.py --work DIR [--variant rebuild] [--against bolt]
                           [--draws 2000] [--seed 1] PROGRAM:WL,WL...=SHIFT,SHIFT... ...

Each PROGRAM:WL...=SHIFTS names a program's test workloads and the shifts it
was counted at (bench/suite.sh --pads, in the lattice's order: the first
n/2, n/4 ... of every second, fourth ... shift are the nested sub-lattices
that bench/suite.sh --layouts n/2, n/4 ... count).  Read from
DIR/PROGRAM/cg/VARIANT-WL-SHIFT.txt ("IREFS I1MISSES").  Printed
(Markdown): per pair the ratio of the two variants' mean I1 misses over
the sub-lattices of 4, 8, ... layouts and over all; the geometric mean over
the pairs and the worst pair likewise; then for random subsets of m layouts
(drawn without replacement from each program's counted shifts, one subset
per program and draw) the 5th and 95th percentiles of each pair's ratio and
of the geometric mean, and how many draws put the pair on the other side of
1.000 than all layouts do.
"""
import argparse
import math
import os
import random
import sys


def die(msg):
    sys.stderr.write("suite-layouts: %s\n" % msg)
    sys.exit(1)


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv):
    ap = argparse.ArgumentParser(prog="suite-layouts.py")
    ap.add_argument("--work", required=True)
    ap.add_argument("--variant", default="rebuild")
    ap.add_argument("--against", default="bolt")
    ap.add_argument("--draws", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("specs", nargs="+", metavar="PROGRAM:WL,...=SHIFT,...")
    o = ap.parse_args(argv)
    work, var, ref, draws, seed, specs = o.work, o.variant, o.against, o.draws, o.seed, o.specs
    progs = []   # (program, [wl], [shift], {(wl, variant): [misses per shift]})
    for s in specs:
        if ":" not in s or "=" not in s:
            die("%s: expected PROGRAM:WL,WL...=SHIFT,SHIFT..." % s)
        p, rest = s.split(":", 1)
        wls, shifts = rest.split("=", 1)
        wls, shifts = wls.split(","), shifts.split(",")
        n = len(shifts)
        if n & (n - 1):
            die("%s: %d shifts, not a power of two (a lattice and its halves)" % (p, n))
        c = {}
        for wl in wls:
            for v in (var, ref):
                xs = []
                for sh in shifts:
                    f = os.path.join(work, p, "cg", "%s-%s-%s.txt" % (v, wl, sh))
                    try:
                        w = open(f).read().split()
                    except OSError:
                        die("%s: missing" % f)
                    if len(w) != 2:
                        die("%s: expected IREFS I1MISSES" % f)
                    xs.append(int(w[1]))
                c[(wl, v)] = xs
        progs.append((p, wls, shifts, c))
    nmax = max(len(x[2]) for x in progs)
    sizes = [m for m in (4, 8, 16, 32, 64) if m <= nmax]
    pairs = [(p, wl) for p, wls, _, _ in progs for wl in wls]

    def ratio(c, wl, idx):
        a = sum(c[(wl, var)][k] for k in idx) / len(idx)
        b = sum(c[(wl, ref)][k] for k in idx) / len(idx)
        return a / b

    print("%s × %s, the ratio of the mean I1 misses over the nested sub-lattices "
          "(4, 8, ... layouts: every n/m-th shift of each program's lattice; a program "
          "counted at fewer layouts stays at all of its own):" % (var, ref))
    print()
    print("| pair | " + " | ".join("%d layouts" % m for m in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    nested = {m: [] for m in sizes}
    for p, wls, shifts, c in progs:
        n = len(shifts)
        for wl in wls:
            row = []
            for m in sizes:
                idx = list(range(0, n, max(1, n // m)))
                r = ratio(c, wl, idx)
                nested[m].append((r, "%s/%s" % (p, wl)))
                row.append("%.3f" % r)
            print("| %s/%s | %s |" % (p, wl, " | ".join(row)))
    print("| geometric mean | " + " | ".join("%.3f" % geo([r for r, _ in nested[m]]) for m in sizes) + " |")
    print("| worst | " + " | ".join("%.3f (%s)" % max(nested[m]) for m in sizes) + " |")
    print("| pairs ≤ 1 | " + " | ".join("%d of %d" % (sum(r <= 1 for r, _ in nested[m]), len(pairs))
                                        for m in sizes) + " |")
    print()
    full = {}
    for p, wls, shifts, c in progs:
        for wl in wls:
            full[(p, wl)] = ratio(c, wl, list(range(len(shifts))))
    rng = random.Random(seed)
    rsizes = [m for m in sizes if m < nmax]
    print("Random subsets of m layouts (%d draws; a program counted at m layouts or fewer "
          "takes all of them): 5th–95th percentile of the ratio, and the share of draws on "
          "the other side of 1.000 than all layouts:" % draws)
    print()
    print("| pair | all | " + " | ".join("m = %d | flips" % m for m in rsizes) + " |")
    print("| --- | --- |" + " --- | --- |" * len(rsizes))
    res = {m: {pr: [] for pr in pairs} for m in rsizes}
    gres = {m: [] for m in rsizes}
    for m in rsizes:
        for _ in range(draws):
            rs = []
            for p, wls, shifts, c in progs:
                n = len(shifts)
                idx = rng.sample(range(n), m) if m < n else list(range(n))
                for wl in wls:
                    r = ratio(c, wl, idx)
                    res[m][(p, wl)].append(r)
                    rs.append(r)
            gres[m].append(geo(rs))
    for pr in pairs:
        f = full[pr]
        cells = []
        for m in rsizes:
            xs = res[m][pr]
            flips = sum((x <= 1) != (f <= 1) for x in xs) / len(xs)
            cells.append("%.3f–%.3f | %.0f %%" % (pct(xs, 0.05), pct(xs, 0.95), 100 * flips))
        print("| %s/%s | %.3f | %s |" % (pr[0], pr[1], f, " | ".join(cells)))
    g = geo(list(full.values()))
    print("| geometric mean | %.3f | %s |" % (g, " | ".join(
        "%.3f–%.3f | %.0f %%" % (pct(gres[m], 0.05), pct(gres[m], 0.95),
                                 100 * sum((x <= 1) != (g <= 1) for x in gres[m]) / draws)
        for m in rsizes)))
    print()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
