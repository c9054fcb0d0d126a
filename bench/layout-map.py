#!/usr/bin/env python3
"""bench/layout-map.py — the layouts of one program as address deltas, for
bench/i1sim (docs/layout.md "Counting many layouts in one run").

    bench/layout-map.py BASE LABEL=PROG [LABEL=PROG ...] > LAYOUTS

BASE is the program the simulation runs; each PROG is the same program linked
at another layout (the same functions, moved).  Every function symbol of BASE
(STT_FUNC, nonzero size) is matched in each PROG by name, size and rank among
the symbols of that name and size; its delta there is its address in PROG
less its address in BASE.  The code between two functions of an executable
section takes the delta of the function before it, a section's code before
its first function the delta of the section itself (matched by name).  Runs
of code with the same deltas in every layout make one region of the output
(bench/i1sim/i1sim.c's format).  A delta that is not a multiple of the cache
line, a function of BASE that a PROG lacks, or an executable section it
lacks is an error naming the program: that layout cannot be simulated from
BASE's run (count it with cachegrind).
"""
import struct
import sys

LINE = 64
SHF_EXECINSTR = 0x4
SHT_SYMTAB = 2
STT_FUNC = 2


def die(msg):
    sys.exit(f"layout-map: {msg}")


def read_elf(path):
    """(exec sections {name: (addr, size)}, functions [(addr, size, name)])"""
    try:
        with open(path, 'rb') as f:
            b = f.read()
    except OSError as e:
        die(f"{path}: {e.strerror}")
    if b[:4] != b'\x7fELF' or b[4] != 2 or b[5] != 1:
        die(f"{path}: not a 64-bit little-endian ELF file")
    try:
        shoff, = struct.unpack_from('<Q', b, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
        sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
        stro = sh[shstrndx][4]

        def name(off, base):
            e = b.index(b'\0', base + off)
            return b[base + off:e].decode('utf-8', 'replace')
        secs, funcs = {}, []
        for s in sh:
            nm = name(s[0], stro)
            if s[2] & SHF_EXECINSTR and s[3]:
                secs[nm] = (s[3], s[5])
        for s in sh:
            if s[1] != SHT_SYMTAB:
                continue
            strtab = sh[s[6]][4]
            for i in range(s[5] // 24):
                st_name, st_info, _, st_shndx, st_value, st_size = \
                    struct.unpack_from('<IBBHQQ', b, s[4] + i * 24)
                if st_info & 0xf == STT_FUNC and st_size and st_value and 0 < st_shndx < 0xff00:
                    funcs.append((st_value, st_size, name(st_name, strtab)))
    except (struct.error, ValueError, IndexError):
        die(f"{path}: a truncated or corrupt ELF file")
    if not funcs:
        die(f"{path}: no function symbols (stripped?)")
    return secs, sorted(set(funcs))


def keyed(funcs):
    """{(name, size, rank): addr}"""
    seen, out = {}, {}
    for a, s, n in funcs:
        r = seen.get((n, s), 0)
        seen[(n, s)] = r + 1
        out[(n, s, r)] = a
    return out


def main(argv):
    if len(argv) < 2 or argv[0] in ('-h', '--help'):
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    base = argv[0]
    layouts = []
    for a in argv[1:]:
        if '=' not in a:
            die(f"{a}: expected LABEL=PROG")
        layouts.append(a.split('=', 1))
    bsecs, bfuncs = read_elf(base)
    bkeys = keyed(bfuncs)
    # per layout: section deltas and function deltas
    secd, fund = [], []
    for label, prog in layouts:
        secs, funcs = read_elf(prog)
        k = keyed(funcs)
        d = {}
        for key, a in bkeys.items():
            if key not in k:
                die(f"{prog}: no function {key[0]} of {key[1]} bytes as in {base}")
            d[key] = k[key] - a
        sd = {}
        for nm, (a, _) in bsecs.items():
            if nm not in secs:
                die(f"{prog}: no section {nm} as in {base}")
            sd[nm] = secs[nm][0] - a
        secd.append(sd)
        fund.append(d)
    # base's code cut at every function start and section boundary
    cuts = []   # (addr, end, deltas)
    for nm, (sa, ss) in sorted(bsecs.items(), key=lambda x: x[1][0]):
        inside = sorted((a, key[1], key) for key, a in bkeys.items() if sa <= a < sa + ss)
        cur = tuple(sd[nm] for sd in secd)
        at = sa
        for a, s, key in inside:
            if a > at:
                cuts.append((at, a, cur))
            cur = tuple(fd[key] for fd in fund)
            end = min(a + s, sa + ss)
            if end > max(a, at):
                cuts.append((max(a, at), end, cur))
            at = max(at, end)
        if at < sa + ss:
            cuts.append((at, sa + ss, cur))
    regions = []
    for lo, hi, d in cuts:
        for i, x in enumerate(d):
            if x % LINE:
                die(f"{layouts[i][1]}: code at {lo:#x} of {base} moves {x} bytes, not a multiple of {LINE}")
        if regions and regions[-1][1] == lo and regions[-1][2] == d:
            regions[-1][1] = hi
        else:
            regions.append([lo, hi, d])
    out = ["i1sim-layouts 1", f"layouts {len(layouts)}"]
    out += [f"name {i} {label}" for i, (label, _) in enumerate(layouts)]
    out += [f"region {lo:x} {hi:x} " + ' '.join(str(x) for x in d) for lo, hi, d in regions]
    sys.stdout.write('\n'.join(out) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
