#!/usr/bin/env python3
"""ocr.py PNG NAME... — does a screenshot show these names?

The screenshot (tests/common/png.py decodes it) is made black on white
(dark pixels, luminance under 110, black: speedscope draws dark frame
names on pastel bars) and read by tesseract (Debian tesseract-ocr, sparse
text: --psm 11).  Prints the words read that are NAMEs, and exits 1 when
a NAME is not among them."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from png import read_png  # noqa: E402

png, names = sys.argv[1], sys.argv[2:]
w, h, bpp, rows = read_png(png)
out = bytearray()
for line in rows:
    out += bytes(0 if (3 * line[x] + 6 * line[x + 1] + line[x + 2]) // 10 < 110 else 255
                 for x in range(0, w * bpp, bpp))
with tempfile.NamedTemporaryFile(suffix='.pgm', dir='.', delete=False) as f:
    f.write(b'P5 %d %d 255\n' % (w, h) + bytes(out))
try:
    text = subprocess.run(['tesseract', f.name, '-', '--psm', '11'], capture_output=True,
                          text=True, check=True).stdout
finally:
    os.unlink(f.name)
words = set(re.findall(r'[A-Za-z_][A-Za-z0-9_:.]*', text))
missing = [n for n in names if n not in words]
print('read:', ' '.join(n for n in names if n in words))
if missing:
    print('missing:', ' '.join(missing))
    sys.exit(1)
