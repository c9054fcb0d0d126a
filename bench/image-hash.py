#!/usr/bin/env python3
"""bench/image-hash.py PROG: a hash of what an ELF64 program loads and runs.

Hashed: the ELF header up to e_phoff (not e_shoff and the section-header
fields after it), every program header, and every PT_LOAD segment's file
bytes.  Not hashed: the section headers, their names and whatever no
PT_LOAD covers (.comment, .symtab, debug sections).  Two programs with the
same hash put the same bytes at the same addresses and start at the same
entry, so a deterministic count of one (cachegrind, run from a directory
of the same path length) is the other's: bench/suite.sh takes the count of
a relink that kept the rebuild's layout this way.
"""
import hashlib
import struct
import sys


def image_hash(path):
    with open(path, "rb") as f:
        d = f.read()
    if len(d) < 64 or d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    phoff, = struct.unpack_from("<Q", d, 32)
    phentsize, phnum = struct.unpack_from("<HH", d, 54)
    if phentsize != 56 or phoff + phnum * phentsize > len(d):
        raise ValueError("program headers out of the file")
    h = hashlib.sha256(d[:40])            # e_ident .. e_phoff, not e_shoff
    for i in range(phnum):
        ph = d[phoff + i * phentsize:phoff + (i + 1) * phentsize]
        h.update(ph)
        t, _, off, _, _, fsz, _, _ = struct.unpack("<IIQQQQQQ", ph)
        if t == 1:                        # PT_LOAD: its bytes but the ELF header's
            if off + fsz > len(d):
                raise ValueError("a PT_LOAD segment ends past the file")
            h.update(d[max(off, 64):off + fsz])
    return h.hexdigest()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench/image-hash.py PROG")
    try:
        print(image_hash(sys.argv[1]))
    except (OSError, ValueError, struct.error) as e:
        sys.exit("image-hash.py: %s: %s" % (sys.argv[1], e))


if __name__ == "__main__":
    main()
