#!/usr/bin/env python3
"""check.py — independent checks of what perfinst-ld wrote (Python stdlib
only, straight from include/perfinst-format.h; it shares no code with the
C reader on purpose).

    check.py xlat PROG EXPECT.json... [--line-size N] [--units N]
        The XLAT chunk: header and CRC, items = the expected ranges that
        survived (addresses from nm), sorted; blocks sorted, each listing
        exactly the items overlapping its line, flags = OR of directives;
        a lookup of every byte of every item through the blocks finds it.
    check.py link PROG
        Prints the LINK chunk (level, flags, argv, env, cwd, output, inputs)
        one item a line, after checking each input's size, mtime and
        pi_hash64 against the file (an input that is gone: "gone").
    check.py sections PROG
        Prints "NAME TYPE FLAGS" of the perfinst sections.
    check.py dump PROG SECTION
        Writes the section's bytes to stdout.
"""
import json
import os
import struct
import subprocess
import sys
import zlib

MAGIC, VERSION, LINK_VERSION = 0x31544950, 2, 2
XLAT, LINK = 3, 4
NONE = 0xFFFFFFFF


def fail(msg):
    print("check.py: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def sections(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        fail("%s: not a 64-bit ELF file" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stro = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = data[stro + h[0]:data.index(b"\0", stro + h[0])].decode()
        out[name] = dict(type=h[1], flags=h[2], data=data[h[4]:h[4] + h[5]] if h[1] != 8 else b"")
    return out


def chunk(path, name, kind):
    secs = sections(path)
    if name not in secs:
        fail("%s: no %s section" % (path, name))
    d = secs[name]["data"]
    magic, version, k, size, crc = struct.unpack_from("<IHHII", d, 0)
    if magic != MAGIC or version != (LINK_VERSION if kind == LINK else VERSION) or k != kind:
        fail("%s: %s: header magic %#x version %d kind %d" % (path, name, magic, version, k))
    if crc != zlib.crc32(d[:12]) & 0xFFFFFFFF:
        fail("%s: %s: header CRC" % (path, name))
    if size != len(d) or size % 8:
        fail("%s: %s: chunk size %d, section %d bytes" % (path, name, size, len(d)))
    return d


def nm(path):
    out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = int(f[0], 16)
    return syms


def check_xlat(path, expects, line_size=64, units=None):
    d = chunk(path, ".perfinst.xlat", XLAT)
    ls, nitems, nblocks, nrefs, nunits, _, lo, hi = struct.unpack_from("<IIIIIIQQ", d, 16)
    if ls != line_size:
        fail("line size %d, expected %d" % (ls, line_size))
    if units is not None and nunits != units:
        fail("nunits %d, expected %d" % (nunits, units))
    o = 56
    items = [struct.unpack_from("<QQIIIIQ", d, o + 40 * i) for i in range(nitems)]
    o += 40 * nitems
    blocks = [struct.unpack_from("<QIIII", d, o + 24 * i) for i in range(nblocks)]
    o += 24 * nblocks
    refs = list(struct.unpack_from("<%dI" % nrefs, d, o))
    if len(d) != (o + 4 * nrefs + 7) // 8 * 8:
        fail("chunk size %d does not match its tables" % len(d))

    # items against the fixtures' ranges and nm
    syms = nm(path)
    want = []
    for e in expects:
        for r in e["ranges"]:
            if r["discarded"] or r["length"] == 0:
                continue
            if r["sym"] not in syms:
                continue  # its code is not in this link (gc'd, another copy kept)
            want.append((syms[r["sym"]], r["unit"], r["length"], r["site"],
                         r["counter"], r["directives"], r["threshold"]))
    want.sort()
    got = sorted(items)
    if got != want:
        fail("items differ:\n  got  %s\n  want %s" % (got, want))
    if items != sorted(items, key=lambda it: it[0]):
        fail("items not sorted by address")
    if items:
        if lo != min(it[0] for it in items) or hi != max(it[0] + it[2] for it in items):
            fail("span [%#x, %#x) wrong" % (lo, hi))

    # blocks: sorted, exact membership, flags
    nums = [b[0] for b in blocks]
    if nums != sorted(set(nums)):
        fail("blocks not strictly sorted: %s" % nums)
    expected_members = {}
    for i, it in enumerate(items):
        for b in range(it[0] // ls, (it[0] + it[2] - 1) // ls + 1):
            expected_members.setdefault(b, []).append(i)
    by_block = {}
    for b, first, n, flags, _ in blocks:
        members = refs[first:first + n]
        by_block[b] = members
        if members != expected_members.get(b):
            fail("block %#x lists %s, expected %s" % (b, members, expected_members.get(b)))
        f = 0
        for i in members:
            f |= items[i][5]
        if flags != f:
            fail("block %#x flags %#x, expected %#x" % (b, flags, f))
    if set(by_block) != set(expected_members):
        fail("blocks %s, expected %s" % (sorted(by_block), sorted(expected_members)))

    # a lookup of every byte of every item, as the runtime would do it
    import bisect
    for i, it in enumerate(items):
        for a in range(it[0], it[0] + it[2]):
            k = bisect.bisect_left(nums, a // ls)
            if k == len(nums) or nums[k] != a // ls:
                fail("lookup of %#x: no block" % a)
            hits = [j for j in by_block[nums[k]] if items[j][0] <= a < items[j][0] + items[j][2]]
            if i not in hits:
                fail("lookup of %#x: item %d not found" % (a, i))
    spanning = sum(1 for it in items if it[0] // ls != (it[0] + it[2] - 1) // ls)
    print("xlat ok: %d items (%d spanning lines), %d blocks, %d refs, %d units, line %d"
          % (nitems, spanning, nblocks, nrefs, nunits, ls))


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def check_link(path):
    d = chunk(path, ".perfinst.link", LINK)
    argc, argv, cwd, output, ninputs, ss, level, flags, nenv, env = \
        struct.unpack_from("<IIIIIIIIII", d, 16)
    o = 56
    inputs = [struct.unpack_from("<IIQqQ", d, o + 32 * i) for i in range(ninputs)]
    st = d[o + 32 * ninputs:o + 32 * ninputs + ss]
    if st[:1] != b"\0" or st[-1:] != b"\0":
        fail("strtab must start and end with NUL")

    def s(off):
        return st[off:st.index(b"\0", off)].decode()

    def strings(p, n):
        out = []
        for _ in range(n):
            out.append(s(p))
            p += len(out[-1]) + 1
        return out
    args = strings(argv, argc)
    print("level %d" % level)
    print("flags %s" % " ".join(f for b, f in ((1, "runtime"), (2, "static-runtime"))
                                if flags & b))
    print("cwd %s" % s(cwd))
    print("output %s" % s(output))
    for i, a in enumerate(args):
        print("argv[%d] %s" % (i, a))
    for e in strings(env, nenv):
        if "=" not in e:
            fail("environment string %r has no '='" % e)
        print("env %s" % e)
    for path_off, argi, size, mtime, h in inputs:
        p = s(path_off)
        if not os.path.isabs(p):
            fail("input path %s is not absolute" % p)
        arg = args[argi] if argi != NONE else "-"
        if not os.path.exists(p):
            print("input %s argi %d arg %s gone" % (p, argi, arg))
            continue
        content = open(p, "rb").read()
        if size != len(content):
            fail("input %s: size %d, file has %d" % (p, size, len(content)))
        if h != fnv1a(content):
            fail("input %s: hash %#x, file hashes to %#x" % (p, h, fnv1a(content)))
        if mtime != os.stat(p).st_mtime_ns:
            fail("input %s: mtime %d, file has %d" % (p, mtime, os.stat(p).st_mtime_ns))
        print("input %s argi %d arg %s" % (p, argi if argi != NONE else -1, arg))
    print("link ok: %d arguments, %d inputs, %d environment strings" % (argc, ninputs, nenv))


def main():
    cmd = sys.argv[1]
    if cmd == "xlat":
        args, line, units = [], 64, None
        it = iter(sys.argv[3:])
        for a in it:
            if a == "--line-size":
                line = int(next(it))
            elif a == "--units":
                units = int(next(it))
            else:
                args.append(json.load(open(a)))
        check_xlat(sys.argv[2], args, line, units)
    elif cmd == "link":
        check_link(sys.argv[2])
    elif cmd == "sections":
        for name, sec in sections(sys.argv[2]).items():
            if name.startswith(".perfinst"):
                print("%s type=%d flags=%#x" % (name, sec["type"], sec["flags"]))
    elif cmd == "dump":
        sys.stdout.buffer.write(sections(sys.argv[2])[sys.argv[3]]["data"])
    else:
        fail("unknown command %s" % cmd)


if __name__ == "__main__":
    main()
