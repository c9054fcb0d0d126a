#!/usr/bin/env python3
"""bench/hot-footprint.py — the instruction-cache footprint of one run, from a
callgrind profile per instruction with the suite's cache geometry:

    valgrind --tool=callgrind --dump-instr=yes --cache-sim=yes \\
        --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \\
        --callgrind-out-file=cg.out ./prog ARGS
    bench/hot-footprint.py [--cover 0.99,0.999] [--sets] [--lines] [--object NAME] PROG cg.out

(--object NAME: the name the profile gives PROG, the path it ran as, when
PROG is a copy; by default the profile's object that is PROG's file.)

What it prints, for PROG's own code and for the rest of the process (libc,
ld.so: the same bytes in every variant):

- instructions executed (Ir) and I1 misses (callgrind's I1mr);
- lines: the distinct 64-byte lines executed, and how many of the hottest
  lines hold each --cover share of the process's executions (the hot
  footprint: the L1i holds 512 lines, 8 a set);
- PROG's touched lines byte by byte: bytes of instructions executed, bytes
  of nops not executed (alignment padding), bytes of other instructions not
  executed (cold code sharing a hot line), bytes of no instruction;
- sets: with the hot lines of PROG and of the rest at the last --cover
  share, the sets holding more than 8 (8-way) and the lines over 8 in them,
  and the share of I1 misses falling in those sets (with --sets, the hot
  lines and misses of every set); then PROG's hot lines alone per set, and
  the lines over 8 with the rest's hot lines at each of the 64 offsets of
  PROG against the rest (the program moved whole, as the suite's P does:
  its mean is what the shifts draw from PROG's internal arrangement);
  with --lines, every line of PROG's the run touched: its address, set,
  executions and misses (of instructions starting in it), its bytes of
  executed instructions, nops, other instructions and no instruction, and
  the symbol it starts under.

Sets are the addresses' bits 6-11 (4096 bytes of sets): a PIE's and a
shared library's load bias is a multiple of the page size, so PROG's file
addresses and libc's offsets give the run's sets.  Positions of code that
valgrind names "???" (a segment of BOLT's output it did not map to the
file) are run-time addresses; they are mapped back to PROG's file as
bench/taken-branches.py does, by calls into its functions' entries.
"""
import bisect
import importlib.util
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("taken_branches", os.path.join(here, "taken-branches.py"))
tb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tb)

NOPS = re.compile(r"^(?:(?:data16|cs|ds|rex\.?w?)\s+)*(?:nop[wl]?|xchg\s+%ax,%ax|fnop)\b")


def die(msg):
    sys.stderr.write("hot-footprint: %s\n" % msg)
    sys.exit(1)


def insns(prog):
    """{address: (size, is_nop)} of every instruction objdump shows in PROG,
    and {address: symbol} of the symbols objdump shows code under."""
    try:
        out = subprocess.run(["objdump", "-d", "-w", prog], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s: objdump failed: %s" % (prog, e))
    res = {}
    syms = {}
    line_re = re.compile(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$")
    sym_re = re.compile(r"^([0-9a-f]+) <(.*)>:$")
    last = None
    for line in out.splitlines():
        m = sym_re.match(line)
        if m:
            syms[int(m.group(1), 16)] = m.group(2)
            continue
        m = line_re.match(line)
        if not m:
            continue
        a = int(m.group(1), 16)
        n = len(m.group(2).split())
        text = m.group(3).strip()
        if not text and last is not None and last[0] + last[1] == a:
            # objdump's continuation line of a long instruction's bytes
            res[last[0]] = (res[last[0]][0] + n, res[last[0]][1])
            last = (last[0], last[1] + n)
            continue
        res[a] = (n, bool(NOPS.match(text)) or text.startswith("int3"))
        last = (a, n)
    if not res:
        die("%s: objdump found no instruction" % prog)
    return res, syms


def parse(data):
    """{(ob, position): [Ir, I1mr]} of self costs; the call targets per ob."""
    costs = {}
    targets = []
    events = None
    try:
        f = open(data, encoding="utf-8", errors="replace")
    except OSError as e:
        die("%s: %s" % (data, e.strerror))
    with f:
        for rec in tb.read_callgrind(f):
            if rec[0] == "positions":
                if not rec[1] or rec[1][0] != "instr":
                    die("%s: positions are not per instruction (--dump-instr=yes)" % data)
            elif rec[0] == "events":
                events = rec[1]
            elif rec[0] == "arc":
                _, key, _, target, _, callee_ob, callee, _ = rec
                if key == "calls" and callee is not None:
                    targets.append((callee_ob, callee, target))
            else:
                _, ob, a, vals = rec
                if events is None:
                    die("%s: no events line" % data)
                ir = int(vals[0]) if vals else 0
                i1 = int(vals[events.index("I1mr")]) if "I1mr" in events and len(vals) > events.index("I1mr") else 0
                e = costs.get((ob, a))
                if e is None:
                    costs[(ob, a)] = [ir, i1]
                else:
                    e[0] += ir
                    e[1] += i1
    if events is None or "I1mr" not in events:
        die("%s: no I1mr event (--cache-sim=yes)" % data)
    return costs, targets


def main(argv):
    cover = [0.99, 0.999]
    show_sets = show_lines = False
    object_name = None
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--cover":
            cover = [float(x) for x in argv[i + 1].split(",")]
            i += 2
            continue
        if a == "--object":
            object_name = argv[i + 1]
            i += 2
            continue
        if a == "--sets":
            show_sets = True
        elif a == "--lines":
            show_lines = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            die("unknown option %s" % a)
        else:
            args.append(a)
        i += 1
    if len(args) != 2:
        die("usage: hot-footprint.py [--cover A,B] [--sets] [--lines] [--object NAME] PROG CALLGRIND_OUT")
    prog, data = args
    if not os.path.isfile(data):
        die("%s: no such file" % data)
    ins, syms = insns(prog)
    costs, targets = parse(data)
    obs = set(o for o, a in costs)
    is_prog = {o: o is not None and (o == object_name if object_name else tb.same_file(o, prog))
               for o in obs}
    to_file = {}
    for o in obs:
        if is_prog[o] or o == "???":
            to_file[o] = tb.file_addresses(prog, [(n, t) for x, n, t in targets if x == o])
    # PROG's instructions executed: file address -> [Ir, I1mr]; the rest by (ob, position)
    pcost = {}
    other = {}
    unmapped = [0, 0]
    for (o, a), (ir, mr) in costs.items():
        if o in to_file:
            fa = to_file[o](a)
            if fa in ins:
                e = pcost.setdefault(fa, [0, 0])
                e[0] += ir
                e[1] += mr
                continue
            if is_prog[o]:
                unmapped[0] += ir
                unmapped[1] += mr
                continue
        e = other.setdefault((o, a), [0, 0])
        e[0] += ir
        e[1] += mr
    if not pcost:
        die("no instruction of %s in %s" % (prog, data))
    # lines: (group, line address) -> [Ir, I1mr]; an instruction's executions
    # count in the line of its first byte, its misses there too
    lines = {}
    for a, (ir, mr) in pcost.items():
        e = lines.setdefault(("prog", a >> 6), [0, 0])
        e[0] += ir
        e[1] += mr
    for (o, a), (ir, mr) in other.items():
        e = lines.setdefault((o, a >> 6), [0, 0])
        e[0] += ir
        e[1] += mr
    tot_ir = sum(v[0] for v in lines.values())
    tot_mr = sum(v[1] for v in lines.values())
    p_ir = sum(v[0] for v in pcost.values())
    p_mr = sum(v[1] for v in pcost.values())
    print("process: Ir %d, I1 misses %d; %s: Ir %d (%.1f %%), I1 misses %d (%.1f %%)%s"
          % (tot_ir, tot_mr, os.path.basename(prog), p_ir, 100.0 * p_ir / max(tot_ir, 1), p_mr,
             100.0 * p_mr / max(tot_mr, 1),
             "; unmapped Ir %d, I1 misses %d" % tuple(unmapped) if unmapped[0] else ""))
    # PROG's touched lines, byte by byte (an executed instruction's bytes in
    # every line it spans)
    touched = set()
    for a in pcost:
        n = ins[a][0]
        for ln in range(a >> 6, ((a + n - 1) >> 6) + 1):
            touched.add(ln)
    # the instructions that overlap touched lines: per line, bytes of
    # instructions executed, of nops not executed, of other instructions
    # not executed
    starts = sorted(ins)
    sym_at = sorted(syms)
    per_line = {}
    for ln in touched:
        lo, hi = ln << 6, (ln + 1) << 6
        v = [0, 0, 0]
        k = bisect.bisect_left(starts, lo - 16)
        while k < len(starts) and starts[k] < hi:
            a = starts[k]
            n, isnop = ins[a]
            ov = min(a + n, hi) - max(a, lo)
            if ov > 0:
                v[0 if a in pcost and pcost[a][0] > 0 else 1 if isnop else 2] += ov
            k += 1
        per_line[ln] = v
    exe = sum(v[0] for v in per_line.values())
    nop = sum(v[1] for v in per_line.values())
    cold = sum(v[2] for v in per_line.values())
    nb = 64 * len(touched)
    print("%s lines touched %d (%d bytes): executed instructions %d bytes (%.1f %%), nops %d (%.1f %%), "
          "other instructions not executed %d (%.1f %%), no instruction %d (%.1f %%)"
          % (os.path.basename(prog), len(touched), nb, exe, 100.0 * exe / nb, nop, 100.0 * nop / nb,
             cold, 100.0 * cold / nb, nb - exe - nop - cold, 100.0 * (nb - exe - nop - cold) / nb))
    other_lines = sum(1 for g, _ in lines if g != "prog")
    print("rest of the process: lines touched %d" % other_lines)
    ranked = sorted(lines.items(), key=lambda x: -x[1][0])
    hot = None
    for c in cover:
        acc = 0
        n = np_ = 0
        for (g, ln), (ir, mr) in ranked:
            if acc >= c * tot_ir:
                break
            acc += ir
            n += 1
            np_ += g == "prog"
        print("hot lines holding %.1f %% of Ir: %d (%s %d, the rest %d)"
              % (100 * c, n, os.path.basename(prog), np_, n - np_))
        hot = ranked[:n]
    sets = {}
    for (g, ln), (ir, mr) in hot:
        s = sets.setdefault(ln & 63, [0, 0, 0])
        s[0 if g == "prog" else 1] += 1
    miss_set = {}
    for (g, ln), (ir, mr) in lines.items():
        miss_set[ln & 63] = miss_set.get(ln & 63, 0) + mr
    over = [s for s, v in sets.items() if v[0] + v[1] > 8]
    excess = sum(sets[s][0] + sets[s][1] - 8 for s in over)
    mo = sum(miss_set.get(s, 0) for s in over)
    print("sets with more than 8 hot lines (at %.1f %%): %d of 64, %d lines over 8, max %d; "
          "I1 misses in them %d (%.1f %%)"
          % (100 * cover[-1], len(over), excess, max((v[0] + v[1] for v in sets.values()), default=0),
             mo, 100.0 * mo / max(tot_mr, 1)))
    # the program moved whole against the rest of the process (the suite's
    # P, in lines): the lines over 8 at each of the 64 offsets
    ph = [ln & 63 for (g, ln), _ in hot if g == "prog"]
    rh = [0] * 64
    for (g, ln), _ in hot:
        if g != "prog":
            rh[ln & 63] += 1
    rot = []
    for k in range(64):
        c = rh[:]
        for s in ph:
            c[(s + k) & 63] += 1
        rot.append(sum(max(0, x - 8) for x in c))
    own = [0] * 64
    for s in ph:
        own[s] += 1
    print("%s's hot lines alone: %d sets over 8, %d lines over 8; with the rest, over the 64 "
          "offsets of %s against it: lines over 8 mean %.1f (min %d, max %d)"
          % (os.path.basename(prog), sum(1 for x in own if x > 8), sum(max(0, x - 8) for x in own),
             os.path.basename(prog), sum(rot) / 64.0, min(rot), max(rot)))
    if show_lines:
        print("line set Ir I1mr executed nops not-executed none symbol")
        for ln in sorted(touched):
            ir = mr = 0
            e = lines.get(("prog", ln))
            if e:
                ir, mr = e
            v = per_line[ln]
            k = bisect.bisect_right(sym_at, ln << 6) - 1
            print("0x%x %d %d %d %d %d %d %d %s" % (ln << 6, ln & 63, ir, mr, v[0], v[1], v[2],
                                                   64 - sum(v), syms[sym_at[k]] if k >= 0 else "?"))
    if show_sets:
        print("set prog-hot rest-hot misses")
        for s in range(64):
            v = sets.get(s, [0, 0, 0])
            print("%2d %3d %3d %d" % (s, v[0], v[1], miss_set.get(s, 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
