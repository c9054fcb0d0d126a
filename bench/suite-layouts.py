#!/usr/bin/env python3
"""bench/suite-layouts.py — how many layouts and redraws a mean needs:
bench/suite.sh's counts of two variants (e.g. the rebuild against BOLT)
over a lattice of layouts at one or more redraws of the cold code, and over
its nested subsets and random subsets.

    bench/suite-layouts.py --work DIR [--variant rebuild] [--against bolt]
                           [--draws 2000] [--seed 1] PROGRAM:WL,WL...=SHIFT,SHIFT... ...

Each PROGRAM:WL...=SHIFTS names a program's test workloads and the shifts it
was counted at (bench/suite.sh --show-layouts, in its order): layouts P or
P+N, each at redraws @M (none: M = 0).  The layouts, in the order they first
occur, form a lattice whose first n/2, n/4 ... of every second, fourth ...
layout are the nested sub-lattices that bench/suite.sh --layouts n/2,
n/4 ... count; the redraws likewise (every second of the list, ...), and
every layout must be counted at every redraw.  Read from
DIR/PROGRAM/COUNTS/VARIANT-WL-SHIFT.txt ("IREFS I1MISSES"; --counts: i1,
bench/i1sim's, the default, or cg, cachegrind's).  Printed
(Markdown): per pair the ratio of the two variants' mean I1 misses over
the nested designs (m layouts × r redraws, from 4 layouts up) and over
all; the geometric mean over the pairs, the worst pair and the pairs at or
under 1 likewise; with two redraws or more, the two disjoint halves of the
whole design (the even and the odd redraws of the list at every layout);
then for random subsets of m counts (drawn without replacement from each
program's counted layouts × redraws, one subset per program and draw) the
5th and 95th percentiles of each pair's ratio and of the geometric mean,
and how many draws put the pair on the other side of 1.000 than all counts
do.  With two layouts or more at two redraws or more, last the noise by
its source: per pair the standard deviations of the log of the ratio
between layouts (sdL), between redraws (sdR) and of the rest (sdE, each
layout's draw at each redraw), from the two-way analysis of variance
with random effects (a component whose mean square falls under the
rest's is 0); and for every split of N counts (the largest program's)
into L layouts × R redraws, powers of two, the standard deviation of
the log of the geometric mean over the pairs the components predict,
sqrt(sum(sdL²/L + sdR²/R + sdE²/(L·R))) / pairs: the split it is least
at is the design that draws the most from a suite of N counts.
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
    ap.add_argument("--counts", choices=("i1", "cg"), default="i1",
                    help="the counts' directory: i1 (bench/i1sim) or cg (cachegrind)")
    ap.add_argument("specs", nargs="+", metavar="PROGRAM:WL,...=SHIFT,...")
    o = ap.parse_args(argv)
    work, var, ref, draws, seed, specs = o.work, o.variant, o.against, o.draws, o.seed, o.specs
    progs = []   # (program, [wl], [cell], {(wl, variant): [misses per cell]}, [layout], [redraw])
    for s in specs:
        if ":" not in s or "=" not in s:
            die("%s: expected PROGRAM:WL,WL...=SHIFT,SHIFT..." % s)
        p, rest = s.split(":", 1)
        wls, shifts = rest.split("=", 1)
        wls, shifts = wls.split(","), shifts.split(",")
        cells = []
        for sh in shifts:
            lay, _, m = sh.partition("@")
            cells.append((lay, m or "0"))
        lays = list(dict.fromkeys(c[0] for c in cells))
        rds = list(dict.fromkeys(c[1] for c in cells))
        n, r = len(lays), len(rds)
        if n & (n - 1):
            die("%s: %d layouts, not a power of two (a lattice and its halves)" % (p, n))
        if r & (r - 1):
            die("%s: %d redraws, not a power of two" % (p, r))
        if len(set(cells)) != n * r or len(cells) != n * r:
            die("%s: %d shifts, not each of the %d layouts at each of the %d redraws once" % (p, len(cells), n, r))
        c = {}
        for wl in wls:
            for v in (var, ref):
                xs = []
                for sh in shifts:
                    f = os.path.join(work, p, o.counts, "%s-%s-%s.txt" % (v, wl, sh))
                    try:
                        w = open(f).read().split()
                    except OSError:
                        die("%s: missing" % f)
                    if len(w) != 2:
                        die("%s: expected IREFS I1MISSES" % f)
                    xs.append(int(w[1]))
                c[(wl, v)] = xs
        progs.append((p, wls, cells, c, lays, rds))
    nmax = max(len(x[4]) for x in progs)
    rmax = max(len(x[5]) for x in progs)
    designs = [(m, q) for q in (1, 2, 4, 8, 16) if q <= rmax for m in (4, 8, 16, 32, 64) if m <= nmax]
    if not designs:
        designs = [(nmax, rmax)]
    pairs = [(p, wl) for p, wls, _, _, _, _ in progs for wl in wls]

    def ratio(c, wl, idx):
        a = sum(c[(wl, var)][k] for k in idx) / len(idx)
        b = sum(c[(wl, ref)][k] for k in idx) / len(idx)
        return a / b

    def design(cells, lays, rds, m, q, off=0):
        """the cells of every n/m-th layout at every r/q-th redraw (from off)"""
        ls = set(lays[::max(1, len(lays) // m)])
        rs = set(rds[off::max(1, len(rds) // q)])
        return [k for k, (lay, rd) in enumerate(cells) if lay in ls and rd in rs]

    def name(m, q):
        return "%d layouts" % m if rmax == 1 else "%d × %d" % (m, q)

    print("%s × %s, the ratio of the mean I1 misses over the nested designs "
          "(m layouts: every n/m-th of each program's lattice%s; a program "
          "counted at fewer stays at all of its own):" % (
              var, ref, "" if rmax == 1 else "; × r redraws: every R/r-th of its redraws"))
    print()
    print("| pair | " + " | ".join(name(m, q) for m, q in designs) + " |")
    print("| --- |" + " --- |" * len(designs))
    nested = {d: [] for d in designs}
    for p, wls, cells, c, lays, rds in progs:
        for wl in wls:
            row = []
            for m, q in designs:
                r = ratio(c, wl, design(cells, lays, rds, m, q))
                nested[(m, q)].append((r, "%s/%s" % (p, wl)))
                row.append("%.3f" % r)
            print("| %s/%s | %s |" % (p, wl, " | ".join(row)))
    print("| geometric mean | " + " | ".join("%.3f" % geo([r for r, _ in nested[d]]) for d in designs) + " |")
    print("| worst | " + " | ".join("%.3f (%s)" % max(nested[d]) for d in designs) + " |")
    print("| pairs ≤ 1 | " + " | ".join("%d of %d" % (sum(r <= 1 for r, _ in nested[d]), len(pairs))
                                        for d in designs) + " |")
    print()
    full = {}
    for p, wls, cells, c, lays, rds in progs:
        for wl in wls:
            full[(p, wl)] = ratio(c, wl, list(range(len(cells))))
    if rmax > 1:
        print("The two disjoint halves of all counts (every layout at the even and at the odd "
              "redraws of the list; a program at one redraw takes all of its counts in both):")
        print()
        print("| pair | all | even redraws | odd redraws |")
        print("| --- | --- | --- | --- |")
        hs = ([], [])
        for p, wls, cells, c, lays, rds in progs:
            for wl in wls:
                h = []
                for off in (0, 1):
                    idx = (design(cells, lays, rds, len(lays), len(rds) // 2, off)
                           if len(rds) > 1 else list(range(len(cells))))
                    h.append(ratio(c, wl, idx))
                    hs[off].append(h[-1])
                print("| %s/%s | %.3f | %.3f | %.3f |" % (p, wl, full[(p, wl)], h[0], h[1]))
        print("| geometric mean | %.3f | %.3f | %.3f |" % (geo(list(full.values())), geo(hs[0]), geo(hs[1])))
        print()
    rng = random.Random(seed)
    ntot = max(len(x[2]) for x in progs)
    rsizes = [m for m in (4, 8, 16, 32, 64) if m < ntot]
    print("Random subsets of m %s (%d draws; a program counted at m or fewer "
          "takes all of them): 5th–95th percentile of the ratio, and the share of draws on "
          "the other side of 1.000 than all %s:" % ("layouts" if rmax == 1 else "counts (layouts × redraws)",
                                                     draws, "layouts" if rmax == 1 else "counts"))
    print()
    print("| pair | all | " + " | ".join("m = %d | flips" % m for m in rsizes) + " |")
    print("| --- | --- |" + " --- | --- |" * len(rsizes))
    res = {m: {pr: [] for pr in pairs} for m in rsizes}
    gres = {m: [] for m in rsizes}
    for m in rsizes:
        for _ in range(draws):
            rs = []
            for p, wls, cells, c, _, _ in progs:
                n = len(cells)
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
    if rmax > 1 and nmax > 1:
        components(progs, var, ref, max(len(x[2]) for x in progs))


def anova2(d, nl, nr):
    """the random-effects components (var L, var R, var E) of d[l][r]"""
    g = sum(map(sum, d)) / (nl * nr)
    lm = [sum(row) / nr for row in d]
    rm = [sum(d[i][j] for i in range(nl)) / nl for j in range(nr)]
    msl = nr * sum((x - g) ** 2 for x in lm) / (nl - 1)
    msr = nl * sum((x - g) ** 2 for x in rm) / (nr - 1)
    mse = sum((d[i][j] - lm[i] - rm[j] + g) ** 2 for i in range(nl) for j in range(nr)) / ((nl - 1) * (nr - 1))
    return max(0.0, (msl - mse) / nr), max(0.0, (msr - mse) / nl), mse


def components(progs, var, ref, n):
    print("The noise by its source: the standard deviations of log(%s / %s) between "
          "layouts, between redraws and of the rest (two-way analysis of variance):" % (var, ref))
    print()
    print("| pair | layouts × redraws | sdL | sdR | sdE |")
    print("| --- | --- | --- | --- | --- |")
    comps = []
    for p, wls, cells, c, lays, rds in progs:
        if len(lays) < 2 or len(rds) < 2:
            continue
        at = {cell: k for k, cell in enumerate(cells)}
        for wl in wls:
            a, b = c[(wl, var)], c[(wl, ref)]
            if min(a) <= 0 or min(b) <= 0:
                print("| %s/%s | %d × %d | — | — | — |" % (p, wl, len(lays), len(rds)))
                continue
            d = [[math.log(a[at[(l, r)]] / b[at[(l, r)]]) for r in rds] for l in lays]
            v = anova2(d, len(lays), len(rds))
            comps.append(v)
            print("| %s/%s | %d × %d | %.3f | %.3f | %.3f |" % ((p, wl, len(lays), len(rds)) + tuple(x ** 0.5 for x in v)))
    print()
    if not comps:
        return
    splits = []
    lay = 1
    while lay <= n:
        if n % lay == 0:
            r = n // lay
            sd = math.sqrt(sum(vl / lay + vr / r + ve / (lay * r) for vl, vr, ve in comps)) / len(comps)
            splits.append((sd, lay, r))
        lay *= 2
    best = min(splits)
    print("The standard deviation of the log of the geometric mean over the %d pairs at %d counts "
          "split as layouts × redraws: %s; least at %d × %d" % (
              len(comps), n, ", ".join("%d × %d %.4f" % (l, r, sd) for sd, l, r in sorted(splits, key=lambda x: -x[1])),
              best[1], best[2]))
    print()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
