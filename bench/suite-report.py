#!/usr/bin/env python3
"""bench/suite-report.py — the tables of bench/suite.sh from its work directory.

    bench/suite-report.py --work DIR --variants "O2 pgo bolt ..." --pads "0 1024 ..."
                          [--counted "O2 bolt ..."] [--counts i1|cg] [--no-timing] [--nice N] PROGRAMS

PROGRAMS has one line per program, "PROGRAM NAME TRAIN S_TRAIN S_CG S_TIME
TEST..." (S_TIME: the timing scale, DEFAULT[,WL=SCALE...] where a test
workload's is not the program's), "PADS NAME PAD..." for a program whose
shifts are not --pads, and "BASEPADS NAME PAD..." for a program whose O2
and pgo are counted at other shifts than its own (bench/suite.sh
--baseline-pads).  --counted: the
variants counted (default all of --variants; it must hold O2); the others
are listed as not measured, never as 0.  Read from DIR/NAME/COUNTS/ (--counts:
i1, bench/i1sim's counts, the default; cg, one cachegrind run a layout):
VARIANT-WL-PAD.txt ("IREFS I1MISSES", the layout shifted by PAD bytes); from
DIR/NAME/cg/: VARIANT-WL-taken.txt (taken branches); DIR/NAME/times-WL.txt (paired rounds, bench/paired.py's format).
Printed (Markdown): per program a table of every (test workload, variant) —
I1 misses as the mean over the shifts, × O2 and × BOLT (with a bootstrap 95 %
interval: the shifts resampled with replacement, the variant's and BOLT's
counts of a shift together, the ratio of the two sums; when the shifts are
every layout P+N at every redraw @M, the layouts and the redraws are
resampled each on its own and every drawn layout is taken at every drawn
redraw, so that the interval holds the noise of the few redraws as well as
that of the layouts, which a resample of the counts one by one would not),
the median over the
shifts × BOLT's median (a mean is often one or two bad shifts), the range over the
shifts, instructions and taken branches × O2, user CPU time × O2 and × BOLT
(median of the per-round ratios, bootstrap 95 % interval) — then per variant
the geometric mean over the program's pairs (× BOLT with its interval: each
pair's layouts resampled as above, the geometric mean of the resampled
ratios) and the worst pair; last the same over every pair of every program,
and the issue's targets pair by pair (the loop's I1 misses and CPU time at
most BOLT's, and the pairs whose interval lies above 1, over BOLT beyond the
layout noise; the relink's misses at most the rebuild's); and for every
other variant of ours (`--extra`), its I1 misses × the rebuild's, pair by
pair and as the geometric mean, with the same intervals, and the pairs it
raises by more than 10 % or beyond the noise (docs/layout.md's rule).
The intervals take the layouts as a sample of the layout noise; a fixed
seed per program (the CRC-32 of its name: its workloads resample the same
layouts, other programs independently) prints the same interval for the
same counts.  When the variants' means are over different shifts,
each program's heading says which variant's mean is over which.
"""
import math
import os
import zlib
import statistics
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paired  # noqa: E402  (median, interval, percentiles)


def die(msg):
    sys.stderr.write("suite-report: %s\n" % msg)
    sys.exit(1)


def read_words(path):
    try:
        with open(path) as f:
            return f.read().split()
    except OSError:
        return None


def geo(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt(x, d=3):
    return "—" if x is None else "%.*f" % (d, x)


def read_times(path):
    """variant -> {round: user}, and the comment lines"""
    runs, notes = {}, []
    try:
        with open(path) as f:
            for line in f:
                w = line.split()
                if not w:
                    continue
                if w[0].startswith("#"):
                    if w[:2] != ["#", "variants"]:
                        notes.append(line.strip("# \n"))
                    continue
                runs.setdefault(w[1], {})[int(w[0])] = float(w[3])
    except OSError:
        return None, []
    return runs, notes


def cpu_ratio(runs, v, base):
    """median of the per-round user CPU ratios v/base and its interval"""
    if not runs or v not in runs or base not in runs:
        return None
    common = sorted(set(runs[v]) & set(runs[base]))
    r = [runs[v][k] / runs[base][k] for k in common if runs[base][k] > 0]
    if not r:
        return None
    lo, hi = paired.interval(r, random.Random(1), 10000)
    return (paired.median(r), lo, hi)


def fmt_ci(c):
    return "—" if c is None else "%.3f [%.3f–%.3f]" % c


RESAMPLES = 2000


def crossed(pads):
    """the shifts as a grid: (the layouts P+N, the redraws M, each shift's
    (layout, redraw) indices) when PADS holds every layout at every redraw
    once (a shift without @M at redraw 0), else None"""
    cells = [(p.partition("@")[0], p.partition("@")[2] or "0") for p in pads]
    lays = list(dict.fromkeys(c[0] for c in cells))
    reds = list(dict.fromkeys(c[1] for c in cells))
    if len(set(cells)) != len(cells) or len(cells) != len(lays) * len(reds):
        return None
    return lays, reds, [(lays.index(c[0]), reds.index(c[1])) for c in cells]


def ratio_draws(a, b, rng, pads=None):
    """sum(a) / sum(b) over RESAMPLES resamples, with replacement, a shift's
    two counts together (a[k] and b[k]: the same shift); PADS (the shifts
    of a and b) a grid of layouts × redraws of more than one redraw: the
    layouts and the redraws resampled each on its own, every drawn layout
    at every drawn redraw (crossed(): the redraws are few, and a resample
    of the counts one by one would take them as many); None when the two
    were not counted at the same shifts"""
    if a is None or b is None or len(a) != len(b) or not a:
        return None
    grid = crossed(pads) if pads is not None and len(pads) == len(a) else None
    if grid is not None and len(grid[1]) > 1:
        nl, nr = len(grid[0]), len(grid[1])
        at = {ij: k for k, ij in enumerate(grid[2])}
    else:
        # one redraw, or not a grid: the shifts one by one
        nl, nr = len(a), 1
        at = {(k, 0): k for k in range(nl)}
    out = []
    for _ in range(RESAMPLES):
        ls = [rng.randrange(nl) for _ in range(nl)]
        rs = [rng.randrange(nr) for _ in range(nr)] if nr > 1 else [0]
        sa = sb = 0
        for i in ls:
            for j in rs:
                k = at[(i, j)]
                sa += a[k]
                sb += b[k]
        out.append(sa / sb if sb else float("inf"))
    return out


def above_one(draws):
    """the interval of the draws lies above 1: a rise beyond the layout noise"""
    return draws is not None and paired.percentiles(draws)[0] > 1.0


def geo_draws(rows):
    """the geometric mean over pairs of each resample's ratios (rows: the
    pairs' draws, each as long as the others); None when a pair has none"""
    if not rows or any(r is None for r in rows):
        return None
    out = []
    for k in range(RESAMPLES):
        xs = [r[k] for r in rows]
        out.append(0.0 if any(x <= 0 for x in xs) else geo(xs))
    return out


def fmt_iv(x, draws):
    """"X [LOW–HIGH]", or X alone without draws"""
    if x is None:
        return "—"
    if draws is None:
        return fmt(x)
    lo, hi = paired.percentiles(draws)
    return "%.3f [%.3f–%.3f]" % (x, lo, hi)


def main(argv):
    work, variants, pads, timing, nice, progfile, counted = None, None, None, True, "10", None, None
    counts = "i1"
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--work", "--variants", "--pads", "--nice", "--counted", "--counts"):
            if i + 1 >= len(argv):
                die("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--work":
                work = v
            elif a == "--variants":
                variants = v.split()
            elif a == "--pads":
                pads = v.split()
            elif a == "--counted":
                counted = v.split()
            elif a == "--counts":
                if v not in ("i1", "cg"):
                    die("--counts: i1 or cg, not %s" % v)
                counts = v
            else:
                nice = v
            i += 2
        elif a == "--no-timing":
            timing = False
            i += 1
        else:
            progfile = a
            i += 1
    if not (work and variants and pads and progfile):
        die("usage: suite-report.py --work DIR --variants LIST --pads LIST PROGRAMS")
    counted = variants if counted is None else counted
    for v in counted:
        if v not in variants:
            die("--counted: %s is not one of --variants (%s)" % (v, " ".join(variants)))
    if "O2" not in counted:
        die("--counted: O2 must be counted (every × O2 ratio is its)")
    progs, ppads, bpads = [], {}, {}
    with open(progfile) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "PROGRAM":
                progs.append((w[1], w[2], w[3], w[4], w[5], w[6:]))
            elif w and w[0] == "PADS":  # one program's own shifts
                ppads[w[1]] = w[2:]
            elif w and w[0] == "BASEPADS":  # one program's O2 and pgo shifts
                bpads[w[1]] = w[2:]
    allpads = pads
    ours = [v for v in variants if v not in ("O2", "pgo", "bolt")]
    # the variants of --extra: each against the rebuild, by the rule
    extras = [v for v in ours if v not in ("rebuild", "relink") and not v.endswith("+relink")]
    # v -> [(pair name, i1 ×O2, i1 ×bolt, ir ×O2, taken ×O2, cpu ×O2, cpu ×bolt, i1,
    #        median ×bolt's, ×bolt's draws, i1 ×rebuild, ×rebuild's draws)]
    allpairs = {v: [] for v in variants}
    built = {v: [] for v in variants}  # v -> [(pair, mean as built, mean redrawn)]
    loads = []
    for name, train, s_train, s_cg, s_time, tests in progs:
        pads = ppads.get(name, allpads)
        vpads = {v: (bpads.get(name, pads) if v in ("O2", "pgo") else pads) for v in variants}
        over, note = shifts_text(pads, vpads, variants, counted)
        print("### %s: trained on `%s` (scale %s), measured on %s" %
              (name, train, s_train, ", ".join("`%s`" % t for t in tests)))
        print()
        print("%s at scale %s: I1 misses the mean over the layout shifted by %s "
              "(instructions: unshifted); taken branches: the program's own jmp and taken jcc "
              "(callgrind, bench/taken-branches.py)%s." %
              ("bench/i1sim (cachegrind's I1, every layout in one run)" if counts == "i1"
               else "cachegrind, one run a layout,", s_cg, over,
               "; user CPU time at scale %s, paired rounds (median of the per-round ratios, "
               "bootstrap 95 %% interval), under `nice -n %s`" % (scales_text(s_time), nice) if timing else "") + note)
        print()
        print("| workload | variant | I1 misses | × O2 | × BOLT | median × BOLT | shifts × O2 | "
              "instructions × O2 | taken × O2 | user CPU × O2 | user CPU × BOLT |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for wl in tests:
            m = {}
            for v in variants:
                i1s, ir = [], None
                for p in vpads[v] if v in counted else []:
                    w = read_words(os.path.join(work, name, counts, "%s-%s-%s.txt" % (v, wl, p)))
                    if w and len(w) == 2:
                        i1s.append(int(w[1]))
                        if p == "0":
                            ir = int(w[0])
                tb = read_words(os.path.join(work, name, "cg", "%s-%s-taken.txt" % (v, wl)))
                full = v in counted and len(i1s) == len(vpads[v])
                m[v] = (sum(i1s) / len(i1s) if full else None,
                        (min(i1s), max(i1s)) if i1s else None, ir, int(tb[0]) if tb else None,
                        statistics.median(i1s) if full else None, i1s if full else None)
            runs, notes = read_times(os.path.join(work, name, "times-%s.txt" % wl)) if timing else (None, [])
            if notes:
                loads.append("%s/%s: %s" % (name, wl, "; ".join(notes)))
            o2, bo = m["O2"], m.get("bolt")

            def rel(x, y):
                return x / y if x is not None and y else None

            def draws(v, base):
                """v's and base's counts resampled together: only where the
                two were counted at the same shifts.  One seed per program:
                its workloads resample the same layouts (at a layout they
                run the same programs), other programs' independently"""
                if base not in m or vpads[v] != vpads[base]:
                    return None
                return ratio_draws(m[v][5], m[base][5], random.Random(zlib.crc32(name.encode())),
                                   vpads[v])
            for v in variants:
                i1s = m[v][5]
                b = [c for c, p in zip(i1s or [], vpads[v]) if "@" not in p]
                r = [c for c, p in zip(i1s or [], vpads[v]) if "@" in p]
                if b and r:
                    built[v].append(("%s/%s" % (name, wl), sum(b) / len(b), sum(r) / len(r)))
            for v in variants:
                i1, rng, ir, tb, med, _ = m[v]
                if v not in counted:
                    print("| %s | %s | not measured |%s" % (wl, v, " — |" * 8))
                    allpairs[v].append(("%s/%s" % (name, wl),) + (None,) * 11)
                    continue
                c_o2, c_bo = cpu_ratio(runs, v, "O2"), cpu_ratio(runs, v, "bolt")
                d_bo = draws(v, "bolt") if v != "bolt" else None
                d_rb = draws(v, "rebuild") if v in extras else None
                print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    wl, v, "—" if i1 is None else "%.0f" % i1, fmt(rel(i1, o2[0])),
                    fmt_iv(rel(i1, bo[0] if bo else None), d_bo), fmt(rel(med, bo[4] if bo else None)),
                    "—" if rng is None or not o2[0] else "%.3f–%.3f" % (rng[0] / o2[0], rng[1] / o2[0]),
                    fmt(rel(ir, o2[2])), fmt(rel(tb, o2[3])),
                    fmt_ci(c_o2) if v != "O2" else "1", fmt_ci(c_bo) if v != "bolt" else "1"))
                allpairs[v].append(("%s/%s" % (name, wl), rel(i1, o2[0]), rel(i1, bo[0] if bo else None),
                                    rel(ir, o2[2]), rel(tb, o2[3]), c_o2[0] if c_o2 else None,
                                    c_bo[0] if c_bo else None, i1, rel(med, bo[4] if bo else None),
                                    d_bo, rel(i1, m["rebuild"][0] if "rebuild" in m else None), d_rb))
        print()
        summary([(v, [x for x in allpairs[v] if x[0].startswith(name + "/")]) for v in variants],
                "%s, %d pairs" % (name, len(tests)), counted)
    print("### All programs: %d pairs" % len(allpairs["O2"]))
    print()
    summary([(v, allpairs[v]) for v in variants], "every pair", counted)
    targets(allpairs, ours, counted, extras)
    as_built(built, ours)
    if loads:
        print("Load average around the timing rounds: " + "; ".join(loads) + ".")
        print()


def scales_text(s_time):
    """"40,sort=10,coro=160" -> "40 (sort: 10, coro: 160)": the timing scale
    of the program and of the test workloads that have their own."""
    parts = s_time.split(",")
    own = [p.split("=", 1) for p in parts[1:]]
    return parts[0] + (" (%s)" % ", ".join("%s: %s" % (w, v) for w, v in own) if own else "")


def shifts_text(pads, vpads, variants, counted):
    """(the shifts the means are over, a note to the heading): "0, 1024
    bytes" when every counted variant's are the program's, else which
    variant's mean is over which"""
    sets = []   # [(shifts, [variant...])] in the variants' order
    for v in variants:
        if v not in counted:
            continue
        for ps, vs in sets:
            if ps == vpads[v]:
                vs.append(v)
                break
        else:
            sets.append((vpads[v], [v]))
    note = ""
    if len(sets) > 1 or sets[0][0] != pads:
        over = "; ".join("%s bytes for %s" % (", ".join(ps), ", ".join(vs)) for ps, vs in sets)
        note += (" The variants' means are over different shifts: × O2, × BOLT and the median "
                 "× BOLT compare them as they are.")
    else:
        over = "%s bytes" % ", ".join(pads)
    missing = [v for v in variants if v not in counted]
    if missing:
        note += " Not measured (`--variants`): %s." % ", ".join(missing)
    return over, note


def summary(rows, what, counted):
    print("| variant (%s) | I1 × O2 geo mean | worst | I1 × BOLT geo mean | worst | median × BOLT geo mean | "
          "worst | instructions × O2 | taken × O2 | CPU × O2 geo mean | CPU × BOLT geo mean | worst |" % what)
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for v, ps in rows:
        def worst(k):
            c = [(x[k], x[0]) for x in ps if x[k] is not None]
            return "—" if not c else "%.3f (%s)" % max(c)
        if v not in counted:
            print("| %s | not measured |%s" % (v, " — |" * 10))
            continue
        g_bo = geo(x[2] for x in ps)
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            v, fmt(geo(x[1] for x in ps)), worst(1),
            fmt_iv(g_bo, geo_draws([x[9] for x in ps]) if g_bo else None) if v != "bolt" else "1",
            worst(2) if v != "bolt" else "—", fmt(geo(x[8] for x in ps)) if v != "bolt" else "1",
            worst(8) if v != "bolt" else "—", fmt(geo(x[3] for x in ps)), fmt(geo(x[4] for x in ps)),
            fmt(geo(x[5] for x in ps)), fmt(geo(x[6] for x in ps)) if v != "bolt" else "1",
            worst(6) if v != "bolt" else "—"))
    print()


def targets(allpairs, ours, counted, extras):
    """the issue's targets, pair by pair, for each loop variant"""
    for v in ours:
        ps = allpairs[v]
        n = len(ps)
        if v not in counted:
            print("- %s: not measured" % v)
            continue
        i1 = [x for x in ps if x[2] is not None]
        ok = [x for x in i1 if x[2] <= 1.0]
        cpu = [x for x in ps if x[6] is not None]
        cok = [x for x in cpu if x[6] <= 1.0]
        if "bolt" in counted:
            line = "- %s: I1 misses ≤ BOLT's on %d of %d pairs" % (v, len(ok), n)
        else:
            line = "- %s: BOLT not measured" % v
        bad = [x[0] for x in i1 if x[2] > 1.0]
        if bad:
            line += " (not on %s)" % ", ".join(bad)
            sure = [x[0] for x in i1 if above_one(x[9])]
            if any(x[9] is not None for x in i1):
                line += "; over BOLT beyond the layout noise (the interval above 1) on %d%s" % (
                    len(sure), " (%s)" % ", ".join(sure) if sure else "")
        if cpu:
            line += "; user CPU time ≤ BOLT's (median ratio) on %d of %d" % (len(cok), len(cpu))
        if v.endswith("relink"):
            base = "rebuild" if v == "relink" else v[: -len("+relink")]
            if base not in allpairs:
                base = "rebuild"    # an order of its own for the same rebuild
            if base in allpairs and base not in counted:
                line += "; %s not measured" % base
            elif base in allpairs:
                worse = [a[0] for a, b in zip(ps, allpairs[base])
                         if a[7] is not None and b[7] is not None and a[7] > b[7]]
                line += "; misses above %s's on %d of %d%s" % (
                    base, len(worse), n, " (%s)" % ", ".join(worse) if worse else "")
        print(line)
        if v in extras:
            print(against_rebuild(v, ps, "rebuild" in counted))
    print()


def as_built(built, ours):
    """each loop variant against BOLT as built (the mean over the layouts
    P+N without a redraw: the layout shifts the issue names) and redrawn
    (the mean over the redraws @M), and what the redraws do to each
    build's own misses: only where BOLT and the variant have both"""
    bo = {p: (b, r) for p, b, r in built.get("bolt", [])}
    vs = [v for v in ours if any(p in bo for p, _, _ in built[v])]
    if not vs:
        return
    print("As built and redrawn: I1 misses × BOLT's over the layouts without a redraw "
          "(as built: the program and its hot code shifted, each build's arrangement as linked) "
          "and over the redraws; redrawn ÷ as built: each build's mean over the redraws "
          "over its mean as built.")
    print()
    print("| pair | BOLT redrawn ÷ as built |%s" % "".join(
        " %s as built × BOLT | %s redrawn × BOLT | %s redrawn ÷ as built |" % (v, v, v) for v in vs))
    print("|%s" % (" --- |" * (2 + 3 * len(vs))))
    cols = {v: {p: (b / bo[p][0], r / bo[p][1], r / b) for p, b, r in built[v] if p in bo and b and bo[p][0]
                and bo[p][1]} for v in vs}
    for p, (b, r) in bo.items():
        print("| %s | %s |%s" % (p, fmt(r / b if b else None), "".join(
            " %s | %s | %s |" % tuple(fmt(x) for x in cols[v][p]) if p in cols[v] else " — | — | — |"
            for v in vs)))
    print("| **geometric mean** | %s |%s" % (fmt(geo(r / b for b, r in bo.values() if b)), "".join(
        " %s | %s | %s |" % tuple(fmt(geo(x[k] for x in cols[v].values())) for k in range(3)) for v in vs)))
    print()
    for v in vs:
        over = [p for p, x in cols[v].items() if x[0] > 1.0]
        print("- %s as built: I1 misses ≤ BOLT's on %d of %d pairs%s" % (
            v, len(cols[v]) - len(over), len(cols[v]), " (not on %s)" % ", ".join(over) if over else ""))
    print()


def against_rebuild(v, ps, counted):
    """an --extra variant against the rebuild, as docs/layout.md's rule
    reads it: the geometric mean (the rule asks for more than 3 % lower)
    and the pairs raised by more than 10 %, and which of them and which
    others rise beyond the layout noise"""
    if not counted:
        return "- %s × rebuild: the rebuild not measured" % v
    r = [x for x in ps if x[10] is not None]
    if not r:
        return "- %s × rebuild: not measured" % v
    g = geo(x[10] for x in r)
    line = "- %s × rebuild: I1 misses geometric mean %s over %d pairs" % (
        v, fmt_iv(g, geo_draws([x[11] for x in r]) if g else None), len(r))
    over = ["%s %.3f" % (x[0], x[10]) for x in r if x[10] > 1.10]
    sure = [x[0] for x in r if above_one(x[11])]
    line += "; over 1.10× on %d%s" % (len(over), " (%s)" % ", ".join(over) if over else "")
    line += "; above the rebuild beyond the layout noise on %d%s" % (
        len(sure), " (%s)" % ", ".join(sure) if sure else "")
    return line


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
