#!/usr/bin/env python3
"""pngstat.py PNG — is a screenshot blank?  Decodes it (tests/common/png.py)
and prints "WxH, N colours, P% not background" (the background is the most
common colour).  Exits 1 when the image is blank: fewer than 8 colours or
under 2 % of the pixels differ from the background."""
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from png import read_png  # noqa: E402

try:
    w, h, bpp, rows = read_png(sys.argv[1])
except ValueError as e:
    sys.exit(str(e))
colours = Counter()
# every 4th row and column is enough to judge blankness
for y in range(0, h, 4):
    line = rows[y]
    colours.update(bytes(line[x:x + 3]) for x in range(0, w * bpp, 4 * bpp))
total = sum(colours.values())
bg, nbg = colours.most_common(1)[0]
share = 100.0 * (total - nbg) / total
print(f'{w}x{h}, {len(colours)} colours, {share:.1f}% not background')
sys.exit(0 if len(colours) >= 8 and share >= 2 else 1)
