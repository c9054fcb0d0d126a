#!/usr/bin/env python3
"""mkxlat.py -- write a .perfinst.xlat section body (one XLAT chunk, layout in
include/perfinst-format.h) for the runtime's loader-stage tests.

    mkxlat.py OUT LINE_SIZE [--bad-crc] [--pad] ITEM...
    ITEM = addr,length,site,counter,unit_id,directives,threshold  (ints, 0x ok;
           counter -1 means PI_NONE)
--pad puts an 8-byte zero word (chunk padding) before the chunk."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.dont_write_bytecode = True
from pifmt import XLAT, chunk_header, pad8


def main():
    out, line = sys.argv[1], int(sys.argv[2], 0)
    args = sys.argv[3:]
    bad_crc = '--bad-crc' in args
    pad = '--pad' in args
    items = sorted(tuple(int(v, 0) for v in a.split(',')) for a in args if not a.startswith('--'))
    pairs = []
    for idx, (addr, length, *_) in enumerate(items):
        for b in range(addr // line, (addr + max(length, 1) - 1) // line + 1):
            pairs.append((b, idx))
    pairs.sort()
    blocks, refs = [], []
    for b, idx in pairs:
        if not blocks or blocks[-1][0] != b:
            blocks.append([b, len(refs), 0, 0])
        blocks[-1][2] += 1
        blocks[-1][3] |= items[idx][5]
        refs.append(idx)
    lo = items[0][0]
    hi = max(a + n for a, n, *_ in items)
    body = struct.pack('<6I2Q', line, len(items), len(blocks), len(refs), 1, 0, lo, hi)
    for addr, length, site, counter, unit, directives, threshold in items:
        body += struct.pack('<QQIIIIQ', addr, unit, length, site, counter & 0xffffffff,
                            directives, threshold)
    for b, first, n, flags in blocks:
        body += struct.pack('<QIIII', b, first, n, flags, 0)
    body = pad8(body + struct.pack('<%dI' % len(refs), *refs))
    hdr = chunk_header(XLAT, 16 + len(body), crc_xor=1 if bad_crc else 0)
    with open(out, 'wb') as f:
        f.write((b'\0' * 8 if pad else b'') + hdr + body)


if __name__ == '__main__':
    main()
