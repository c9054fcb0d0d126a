#!/usr/bin/env python3
"""bench/paired.py — paired wall and CPU time statistics of interleaved runs
(docs/layout.md "Benchmark": "Paired wall time").

    bench/paired.py [--base NAME]... [--seed N] [--resamples N] TIMES

TIMES holds one line per run, "ROUND VARIANT WALL USER" (seconds; what
bench/lib.sh's time_rounds writes; a line "# variants V..." gives the order
of the table's rows, other lines starting with # are comments), the variants of a round run one after
the other in rotated order.  Noise on the shared machines moves every
program by 5-7 % from one run to the next, and much of it is shared by the
runs of one round (load from others comes and goes slowly), so a variant is
compared with a base round by round: for each round the ratio of the
variant's time to the base's time in the same round, then the median of
those ratios over the rounds, with a bootstrap 95 % interval (the rounds
resampled with replacement --resamples times (10000), the median of each
resample, the 2.5th and 97.5th percentiles; a fixed --seed (1), so the same
data print the same interval).  Bases: each --base (default O2 and bolt;
a base absent from TIMES is left out).  Printed: a Markdown table, per
variant the median wall and user CPU time over its runs and, per base and
for wall and user, "RATIO [LOW-HIGH]"; an interval that does not contain
1.000 is a difference the rounds agree on.
"""
import random
import sys


def die(msg):
    sys.stderr.write("paired: %s\n" % msg)
    sys.exit(1)


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def percentiles(values):
    """the 2.5th and 97.5th percentiles of a bootstrap's resampled values"""
    s = sorted(values)
    return s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1) + 0.999999)]


def interval(ratios, rng, resamples):
    n = len(ratios)
    return percentiles(median([ratios[rng.randrange(n)] for _ in range(n)])
                       for _ in range(resamples))


def main(argv):
    bases, seed, resamples, path = [], 1, 10000, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--base", "--seed", "--resamples"):
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--base":
                bases.append(v)
            else:
                try:
                    n = int(v)
                except ValueError:
                    die("%s: not a number: %s" % (a, v))
                if a == "--seed":
                    seed = n
                elif n < 100:
                    die("--resamples: at least 100")
                else:
                    resamples = n
            i += 2
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            die("unknown option %s" % a)
        else:
            if path is not None:
                die("one TIMES file")
            path = a
            i += 1
    if path is None:
        die("usage: paired.py [--base NAME]... [--seed N] [--resamples N] TIMES")
    bases = bases or ["O2", "bolt"]
    runs = {}          # variant -> {round: (wall, user)}
    order = []
    try:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                w = line.split()
                if w[:2] == ["#", "variants"]:
                    for v in w[2:]:
                        if v not in runs:
                            runs[v] = {}
                            order.append(v)
                    continue
                if not w or w[0].startswith("#"):
                    continue
                if len(w) != 4:
                    die("%s:%d: expected ROUND VARIANT WALL USER" % (path, lineno))
                try:
                    r, wall, user = int(w[0]), float(w[2]), float(w[3])
                except ValueError:
                    die("%s:%d: bad number in '%s'" % (path, lineno, line.strip()))
                if wall <= 0 or user < 0:
                    die("%s:%d: times must be positive" % (path, lineno))
                if w[1] not in runs:
                    runs[w[1]] = {}
                    order.append(w[1])
                if r in runs[w[1]]:
                    die("%s:%d: %s twice in round %d" % (path, lineno, w[1], r))
                runs[w[1]][r] = (wall, user)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    if not any(runs.values()):
        die("%s: no runs" % path)
    bases = [b for b in bases if b in runs]
    head = "| variant | rounds | wall | user CPU |"
    rule = "| --- | --- | --- | --- |"
    for b in bases:
        head += " wall × %s [95%% CI] | user × %s [95%% CI] |" % (b, b)
        rule += " --- | --- |"
    print(head)
    print(rule)
    for v in order:
        rv = runs[v]
        if not rv:
            continue
        row = "| %s | %d | %.3f s | %.3f s |" % (
            v, len(rv), median([t[0] for t in rv.values()]), median([t[1] for t in rv.values()]))
        for b in bases:
            rb = runs[b]
            common = sorted(set(rv) & set(rb))
            for k in (0, 1):
                if v == b:
                    row += " 1 |"
                    continue
                ratios = [rv[r][k] / rb[r][k] for r in common if rb[r][k] > 0]
                if not ratios:
                    row += " — |"
                    continue
                # one generator per cell, seeded alike: a cell does not
                # depend on which other cells were printed
                lo, hi = interval(ratios, random.Random(seed), resamples)
                row += " %.3f [%.3f–%.3f] |" % (median(ratios), lo, hi)
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
