#!/usr/bin/env python3
"""pngstat.py PNG — is a screenshot blank?  Decodes an 8-bit RGB or RGBA,
non-interlaced PNG (what Chromium writes) with zlib alone, and prints
"WxH, N colours, P% not background" (the background is the most common
colour).  Exits 1 when the image is blank: fewer than 8 colours or under
2 % of the pixels differ from the background."""
import struct, sys, zlib
from collections import Counter

data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit(f'{sys.argv[1]}: not a PNG')
pos, idat, hdr = 8, b'', None
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        hdr = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = hdr
if depth != 8 or ctype not in (2, 6) or interlace:
    sys.exit(f'{sys.argv[1]}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})')
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours = Counter()
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    if f == 1:
        for i in range(bpp, stride):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif f == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, prev))
    elif f == 3:
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
    elif f == 4:
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    # every 4th row and column is enough to judge blankness
    if y % 4 == 0:
        colours.update(bytes(line[x:x + 3]) for x in range(0, stride, 4 * bpp))
    prev = line
total = sum(colours.values())
bg, nbg = colours.most_common(1)[0]
share = 100.0 * (total - nbg) / total
print(f'{w}x{h}, {len(colours)} colours, {share:.1f}% not background')
sys.exit(0 if len(colours) >= 8 and share >= 2 else 1)
