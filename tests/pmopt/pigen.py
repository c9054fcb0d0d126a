#!/usr/bin/env python3
"""pigen.py — fixtures for the pmopt tests: perfinst metadata as assembly
(exactly what the plugin emits) and hand-made traces (*.pit).  Stdlib only;
zlib.crc32 is pi_crc32.

  pigen.py meta SPEC.json SOURCE.c [--corrupt=KIND]   > meta.s
      UNIT and CODE chunks for SOURCE.c's markers.  Append to the output of
      `gcc -S -g -O0 SOURCE.c`: the CODE ranges are `.quad .Lpi_sN` so the
      assembler emits R_X86_64_64 relocations that ld resolves.
      KIND: magic, version, crc, truncate, stroff, kind, handler, mark, via
      (bad chunk magic, version 7, hdr_crc, size past the section's end,
      string offset out of range, unknown chunk kind, a site's handler offset
      out of range, an unknown line mark, a call's-line mark with no line).
  pigen.py trace -o OUT --prog PROG --unit ID=C0,C1,... [options]
      a trace whose module 0 is PROG (its build-id and path), with the
      indicators' records if asked (--sitestat, --event, --tracereg,
      --watch; they follow the COUNTS records in the order given).
  pigen.py buildid FILE          the NT_GNU_BUILD_ID of an ELF file, in hex
  pigen.py offsets TRACE         "index offset type size" per record (no checks)
  pigen.py poke FILE OFFSET XOR  flip bits of one byte
  pigen.py lines SOURCE.c        "marker line" for every PI_S(n) marker

Markers in the C source (tests/pmopt/markers.h): PI_S(n) and PI_E(n) put
the labels .Lpi_sN and .Lpi_eN into the code; a site's range is [sN, eN)
and its line is the line of PI_S(n).
"""
import argparse
import json
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.dont_write_bytecode = True
from pifmt import (CODE, LINK_VERSION, PI_NONE, UNIT, XLAT, Strtab, asm_bytes, chunk_header, crc, link_chunk, pad8,
                   trace_record, unit_body)

DIRECTIVES = ["count", "types", "trap", "threshold", "cycles", "trace_start",
              "trace_stop", "region_begin", "region_end", "callret", "watch",
              "sharing", "sample", "emit", "dormant", "blocking"]
REC = {"PROCESS": 1, "MODULE": 2, "COUNTS": 3, "SIGNAL": 4, "END": 5,
       "SITESTAT": 6, "EVENT": 7, "TRACEREG": 8, "WATCH": 9}
STAT_KINDS = {"trap": 1, "threshold": 2, "cycles": 3, "trace": 4, "watch": 5}
SITE_KINDS = {"block": 1, "data": 2}
BIAS = [0x555555554000, 0x7f0000000000]   # load bias of module 0 (PROG) and of the libraries


def directive_bits(names):
    bits = 0
    for n in names or []:
        bits |= 1 << DIRECTIVES.index(n)
    return bits


def marker_lines(src):
    lines = {}
    with open(src) as f:
        for no, text in enumerate(f, 1):
            for m in re.finditer(r"\bPI_S\((\d+)\)", text):
                lines[int(m.group(1))] = no
    return lines


def func_line(src, name):
    with open(src) as f:
        for no, text in enumerate(f, 1):
            if re.match(r"^[A-Za-z_].*\b%s\s*\(" % re.escape(name), text) and not text.rstrip().endswith(";"):
                return no
    return 0


def cmd_meta(a):
    spec = json.load(open(a.spec))
    src = a.source
    mlines = marker_lines(src)
    unit_id = int(str(spec["unit_id"]), 0)
    code_unit = int(str(spec.get("code_unit_id", spec["unit_id"])), 0)  # ranges naming another unit
    file = spec.get("file", src.split("/")[-1])
    st = Strtab()
    source = st.add(spec.get("source", file))
    producer = st.add(spec.get("producer", "pigen fixture"))
    funcs, sites, succs = [], [], []
    ranges = []          # per function: list of (marker, site index)
    ncounters = 0
    for f in spec["functions"]:
        first = len(sites)
        frs = []
        for s in f["sites"]:
            idx = len(sites)
            markers = s.get("markers", [s["marker"]] if "marker" in s else [])
            if "line" in s:
                line = s["line"]
            elif "line_of" in s:
                line = mlines[s["line_of"]]
            else:
                line = mlines[markers[0]]
            if "counter" in s:
                counter = PI_NONE if s["counter"] is None else s["counter"]
            elif s.get("kind") == "data":       # data sites (watch) have no counter
                counter = PI_NONE
            else:
                counter = ncounters
            if counter != PI_NONE:
                ncounters = max(ncounters, counter + 1)
            sites.append(dict(func=len(funcs), counter=counter, file=st.add(s.get("file", file)),
                              line=line, column=s.get("column", 5),
                              kind=SITE_KINDS[s.get("kind", "block")],
                              directives=directive_bits(s.get("directives", f.get("directives", ["count"]))),
                              bb=s.get("bb", idx - first + 2), succ=s.get("succ", []),
                              region=st.add(s.get("region", "")), threshold=s.get("threshold", 0),
                              arg=s.get("arg", 0), handler=st.add(s.get("handler", ""))))
            for mk in markers:
                frs.append((mk, idx))
            for sym, length in s.get("extra_ranges", []):   # [symbol, length]: for error tests
                frs.append(((sym, length), idx))
        funcs.append(dict(name=st.add(f["name"]), file=st.add(file),
                          line=f.get("line", func_line(src, f["name"])), first_site=first,
                          nsites=len(sites) - first,
                          directives=directive_bits(f.get("directives", ["count"])),
                          cfg=f.get("cfg", 0x1234 + len(funcs))))
        ranges.append(frs)
    # successors: site indices relative to the function's first site in the spec
    for s in sites:
        f = funcs[s["func"]]
        s["succ_first"] = len(succs)
        for t in s["succ"]:
            succs.append(f["first_site"] + t)
        s["nsucc"] = len(s["succ"])
    corrupt = a.corrupt
    if corrupt == "stroff":
        source = len(st.data) + 5
    if corrupt == "handler":
        sites[-1]["handler"] = len(st.data) + 3
    lines = ()
    if corrupt in ("mark", "via"):    # the last site's lines: a line, then a bad mark
        lines = ((st.add(file), 7), (0, 9 if corrupt == "mark" else 3))
        sites[-1]["line_first"], sites[-1]["nlines"] = 0, len(lines)

    body = unit_body(unit_id, ncounters, st, source, producer, funcs, sites, succs, lines=lines)
    size = len(pad8(body)) + 16
    bad = {"magic": dict(magic=0xDEADBEEF), "version": dict(version=7),
           "crc": dict(crc_xor=0xFFFFFFFF)}.get(corrupt, {})
    unit_kind = 9 if corrupt == "kind" else UNIT
    declared = size + 64 if corrupt == "truncate" else size
    unit_chunk = chunk_header(unit_kind, declared, **bad) + pad8(body)

    # CODE chunks may go to their own sections (spec "code_section": e.g.
    # '.perfinst,"o",@progbits,.text,unique,1'), as the plugin does for
    # link-order or COMDAT functions; the UNIT chunk stays in plain .perfinst.
    code_sec = spec.get("code_section")
    out = []
    if not code_sec:
        out += ['\t.pushsection .perfinst,"",@progbits', "\t.balign 8"]
    for fi, frs in enumerate(ranges):
        if not frs:
            continue
        n = len(frs)
        if code_sec:
            out += ["\t.pushsection " + code_sec.replace("@N", str(fi + 1)), "\t.balign 8"]
        out.append("\t# CODE chunk: function %d, %d ranges" % (fi, n))
        out += asm_bytes(chunk_header(CODE, 24 + 40 * n))
        out.append("\t.long %d, 0" % n)
        for mk, idx in frs:
            if isinstance(mk, tuple):
                out.append("\t.quad %s" % mk[0])
                out.append("\t.quad 0x%x" % code_unit)
                out.append("\t.long %d, %d" % (idx, mk[1]))
            else:
                out.append("\t.quad .Lpi_s%d" % mk)
                out.append("\t.quad 0x%x" % code_unit)
                out.append("\t.long %d, .Lpi_e%d - .Lpi_s%d" % (idx, mk, mk))
            # ninsns and per-type counts: made-up but distinct per site
            out.append("\t.short %d, %d, %d, %d, %d, %d, %d, %d" %
                       (3 + idx, idx % 2, 1 if idx % 3 == 0 else 0, 0, 1, 1, 0, 0))
        if spec.get("pad"):
            out.append("\t.quad 0\t# zero padding between chunks")
        if code_sec:
            out.append("\t.popsection")
    if code_sec:
        out += ['\t.pushsection .perfinst,"",@progbits', "\t.balign 8"]
    out.append("\t# UNIT chunk 0x%x" % unit_id)
    out += asm_bytes(unit_chunk)
    out.append("\t.popsection")
    if "xlat_nunits" in spec:
        out += xlat_asm(spec, unit_id, ranges, sites)
    if "link_argv" in spec:
        out += link_asm(spec)
    out.append('\t.section .note.GNU-stack,"",@progbits')
    print("\n".join(out))


def xlat_asm(spec, unit_id, ranges, sites):
    """An XLAT chunk whose items are this unit's ranges (in marker order,
    which is address order at -O0) and no blocks: what perfinst-ld writes,
    minus the per-line table that only the linker can compute."""
    items = [(mk, idx) for frs in ranges for mk, idx in frs if not isinstance(mk, tuple)]
    n = len(items)
    out = ['\t.pushsection .perfinst.xlat,"",@progbits', "\t.balign 8"]
    out += asm_bytes(chunk_header(XLAT, 16 + 40 + 40 * n))
    out += ["\t.long 64, %d, 0, 0, %d, 0" % (n, spec["xlat_nunits"]),
            "\t.quad .Lpi_s%d, .Lpi_e%d" % (items[0][0], items[-1][0])]
    for mk, idx in items:
        s = sites[idx]
        out += ["\t.quad .Lpi_s%d, 0x%x" % (mk, unit_id),
                "\t.long .Lpi_e%d - .Lpi_s%d, %d, %d, %d" % (mk, mk, idx, s["counter"], s["directives"]),
                "\t.quad %d" % s["threshold"]]
    out.append("\t.popsection")
    return out


def link_asm(spec):
    """A LINK chunk (pifmt.link_chunk; link_version 1 for the old gcc-level
    recipe): argv, cwd, output and one input per argv entry ending in .o."""
    argv = spec["link_argv"]
    inputs = [("/work/" + a, i, 1000 + k, 1700000000123456789, 0x1111 * (k + 1))
              for k, (i, a) in enumerate((i, a) for i, a in enumerate(argv) if a.endswith(".o"))]
    chunk = link_chunk(argv, spec.get("link_cwd", "/work"), argv[argv.index("-o") + 1], inputs,
                       spec.get("link_env", ()), version=spec.get("link_version", LINK_VERSION))
    out = ['\t.pushsection .perfinst.link,"",@progbits', "\t.balign 8"]
    out += asm_bytes(chunk)
    out.append("\t.popsection")
    return out


def elf_build_id(path):
    d = open(path, "rb").read()
    if d[:4] != b"\x7fELF" or d[4] != 2:
        raise SystemExit("%s: not a 64-bit ELF file" % path)
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", d, 0x3A)
    for i in range(shnum):
        sh = struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
        if sh[1] != 7:  # SHT_NOTE
            continue
        off, end = sh[4], sh[4] + sh[5]
        while off + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", d, off)
            name = d[off + 12:off + 12 + namesz]
            doff = off + 12 + ((namesz + 3) & ~3)
            if ntype == 3 and name == b"GNU\0":
                return d[doff:doff + descsz]
            off = doff + ((descsz + 3) & ~3)
    return b""


def record(rtype, payload, bad_crc=False):
    return trace_record(rtype, pad8(payload), bad_crc)


def parse_unit_arg(s):
    uid, _, counts = s.partition("=")
    return int(uid, 0), [int(x) for x in counts.split(",") if x != ""]


def cmd_trace(a):
    import os
    flags = 0
    for f in a.flags or []:
        flags |= {"merged": 1, "mode_off": 2, "partial": 8}[f]
    # a pid of its own per file name: pmopt merge refuses one run given twice
    pid = a.pid if a.pid is not None else 4242 + crc(os.path.basename(a.o).encode()) % 1000000
    hdr = a.magic.encode()[:8].ljust(8, b"\0") + struct.pack("<HHIQQQI", a.version, 48, flags,
                                                             pid, 1, 1700000000000000000, 64)
    hdr += struct.pack("<I", crc(hdr) ^ (0xFFFFFFFF if a.bad_hdr_crc else 0))
    recs = []
    argv = a.argv.split(",") if a.argv else [a.prog]
    recs.append(record(REC["PROCESS"], struct.pack("<QII", 1700000000500000000, 1, len(argv)) +
                       b"".join(x.encode() + b"\0" for x in argv)))
    mods = []
    if a.prog:
        bid = bytes.fromhex(a.build_id) if a.build_id is not None else elf_build_id(a.prog)
        mods.append((os.path.abspath(a.prog), bid))
    for lib in a.lib or []:
        path, _, hexid = lib.partition(":")
        mods.append((path, bytes.fromhex(hexid)))
    for i, (path, bid) in enumerate(mods):
        p = path.encode() + b"\0"
        recs.append(record(REC["MODULE"], struct.pack("<II", i, len(bid)) + bid.ljust(32, b"\0") +
                           struct.pack("<QII", BIAS[0] if i == 0 else BIAS[1], len(p), 0) + p))
    for u in a.unit or []:
        uid, counts = parse_unit_arg(u)
        recs.append(record(REC["COUNTS"], struct.pack("<QII", uid, 0, len(counts)) +
                           struct.pack("<%dQ" % len(counts), *counts)))
    for u in a.lib_unit or []:
        uid, counts = parse_unit_arg(u)
        recs.append(record(REC["COUNTS"], struct.pack("<QII", uid, 1, len(counts)) +
                           struct.pack("<%dQ" % len(counts), *counts)))
    for kind, spec in a.ind or []:
        recs.append(indicator_record(kind, spec))
    if a.signal:
        recs.append(record(REC["SIGNAL"], struct.pack("<iiQ", a.signal, 1, 0)))
    if not a.no_end:
        recs.append(record(REC["END"], struct.pack("<II", len(recs), 0)))
    if a.bad_rec_crc is not None:
        i = a.bad_rec_crc
        r = recs[i]
        recs[i] = r[:16] + bytes([r[16] ^ 0xFF]) + r[17:]
    with open(a.o, "wb") as f:
        f.write(hdr + b"".join(recs))


def frame_addr(f):
    """p+OFF: module 0 (PROG) at OFF; l+OFF: the first library; mN+OFF: OFF in
    module N as a merged trace's watched word says it (N + 1 in bits 56..63);
    else an address."""
    if f.startswith("p+"):
        return BIAS[0] + int(f[2:], 0)
    if f.startswith("l+"):
        return BIAS[1] + int(f[2:], 0)
    m = re.match(r"m(\d+)\+(.*)$", f)
    if m:
        return (int(m.group(1)) + 1) << 56 | int(m.group(2), 0)
    return int(f, 0)


def indicator_record(kind, spec):
    """sitestat UNIT:SITE:KIND:COUNT:EXECS:SUM:MIN:MAX
    event UNIT:SITE:KIND:VALUE:TID:F0,F1,...   (frames: see frame_addr)
    tracereg START_UNIT:START_SITE:UNIT=C0,C1,...
    watch GRAN:ADDR=READS/WRITES,...   (addresses: see frame_addr)"""
    if kind == "sitestat":
        u, site, k, *vals = spec.split(":")
        k = STAT_KINDS.get(k) or int(k, 0)
        return record(REC["SITESTAT"], struct.pack("<QII5Q", int(u, 0), int(site), k,
                                                   *[int(v, 0) for v in vals]))
    if kind == "event":
        u, site, k, value, tid, frames = spec.split(":")
        k = STAT_KINDS.get(k) or int(k, 0)
        fr = [frame_addr(f) for f in frames.split(",") if f]
        return record(REC["EVENT"], struct.pack("<QIIQII", int(u, 0), int(site), k, int(value, 0),
                                                int(tid), len(fr)) + struct.pack("<%dQ" % len(fr), *fr))
    if kind == "watch":
        gran, _, words = spec.partition(":")
        ws = []
        for w in words.split(","):
            if not w:
                continue
            addr, _, rw = w.partition("=")
            r, _, wr = rw.partition("/")
            ws.append(struct.pack("<QQQ", frame_addr(addr), int(r, 0), int(wr, 0)))
        return record(REC["WATCH"], struct.pack("<II", int(gran, 0), len(ws)) + b"".join(ws))
    su, ss, rest = spec.split(":")
    uid, counts = parse_unit_arg(rest)
    return record(REC["TRACEREG"], struct.pack("<QIIQ", int(su, 0), int(ss), len(counts), uid) +
                  struct.pack("<%dQ" % len(counts), *counts))


class IndAction(argparse.Action):
    """--sitestat/--event/--tracereg/--watch, kept in the order given."""
    def __call__(self, parser, ns, value, option=None):
        lst = getattr(ns, "ind") or []
        lst.append((self.dest, value))
        setattr(ns, "ind", lst)


def cmd_offsets(a):
    d = open(a.trace, "rb").read()
    off, i = 48, 0
    while off + 16 <= len(d):
        t, size, _, _ = struct.unpack_from("<IIII", d, off)
        print(i, off, t, size)
        off += 16 + size
        i += 1
    print("end", off)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("meta")
    m.add_argument("spec")
    m.add_argument("source")
    m.add_argument("--corrupt", choices=["magic", "version", "crc", "truncate", "stroff", "kind",
                                         "handler", "mark", "via"])
    t = sub.add_parser("trace")
    t.add_argument("-o", required=True)
    t.add_argument("--prog")
    t.add_argument("--build-id", help="hex, instead of PROG's")
    t.add_argument("--unit", action="append", help="ID=C0,C1,... for module 0")
    t.add_argument("--lib", action="append", help="PATH:BUILDIDHEX, modules 1...")
    t.add_argument("--lib-unit", action="append", help="ID=C0,... for module 1")
    t.add_argument("--flags", action="append", choices=["merged", "mode_off", "partial"])
    t.add_argument("--pid", type=int, help="default: one per output file name")
    t.add_argument("--argv")
    t.add_argument("--signal", type=int)
    t.set_defaults(ind=None)
    t.add_argument("--sitestat", action=IndAction, help="UNIT:SITE:KIND:COUNT:EXECS:SUM:MIN:MAX")
    t.add_argument("--event", action=IndAction, help="UNIT:SITE:KIND:VALUE:TID:F0,F1,...")
    t.add_argument("--tracereg", action=IndAction, help="START_UNIT:START_SITE:UNIT=C0,C1,...")
    t.add_argument("--watch", action=IndAction, help="GRAN:ADDR=READS/WRITES,...")
    t.add_argument("--no-end", action="store_true")
    t.add_argument("--version", type=int, default=1)
    t.add_argument("--magic", default="PERFINST")
    t.add_argument("--bad-hdr-crc", action="store_true")
    t.add_argument("--bad-rec-crc", type=int, help="corrupt the payload of record N")
    b = sub.add_parser("buildid")
    b.add_argument("file")
    o = sub.add_parser("offsets")
    o.add_argument("trace")
    k = sub.add_parser("poke")
    k.add_argument("file")
    k.add_argument("offset", type=lambda s: int(s, 0))
    k.add_argument("xor", type=lambda s: int(s, 0))
    ln = sub.add_parser("lines")
    ln.add_argument("source")
    a = p.parse_args()
    if a.cmd == "meta":
        cmd_meta(a)
    elif a.cmd == "trace":
        cmd_trace(a)
    elif a.cmd == "buildid":
        print(elf_build_id(a.file).hex())
    elif a.cmd == "offsets":
        cmd_offsets(a)
    elif a.cmd == "poke":
        with open(a.file, "r+b") as f:
            f.seek(a.offset)
            v = f.read(1)[0]
            f.seek(a.offset)
            f.write(bytes([v ^ a.xor]))
    elif a.cmd == "lines":
        for k_, v in sorted(marker_lines(a.source).items()):
            print(k_, v)


if __name__ == "__main__":
    main()
