#!/usr/bin/env python3
"""bench/projects/dav1d/gen.py W H FRAMES SEED [BITS] > OUT.y4m — a synthetic
4:2:0 video (YUV4MPEG2) for aomenc to encode, the dav1d recipe's streams:
moving gradients, a few bouncing textured boxes, some noise and a scene cut
half-way (the seed picks the shapes and motion); BITS 8 (default) or 10
(written as 16-bit little-endian samples, C420p10).  Deterministic."""
import random
import sys


def main():
    w, h, n, seed = (int(a) for a in sys.argv[1:5])
    bits = int(sys.argv[5]) if len(sys.argv) > 5 else 8
    rng = random.Random(seed)
    out = sys.stdout.buffer
    cs = "C420jpeg" if bits == 8 else "C420p10 XYSCSS=420P10"
    out.write(b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 %s\n" % (w, h, cs.encode()))
    maxv = (1 << bits) - 1
    boxes = []
    for _ in range(4 + seed % 3):
        boxes.append([rng.randrange(w), rng.randrange(h), rng.randrange(w // 8, w // 3),
                      rng.randrange(h // 8, h // 3), rng.choice((-5, -3, 2, 4, 6)),
                      rng.choice((-4, -2, 3, 5)), rng.randrange(256), rng.randrange(1, 7)])
    noise = [rng.randrange(-6, 7) for _ in range(4099)]
    cw, ch = w // 2, h // 2
    for f in range(n):
        cut = f >= n // 2
        y = bytearray(w * h)
        for r in range(h):
            base = (r * 3 + f * (5 if cut else 2)) & 255
            row = bytes(((base + (c * (7 if cut else 1) >> 2) + noise[(r * w + c + f * 31) % 4099]) & 255)
                        for c in range(w))
            y[r * w:(r + 1) * w] = row
        for b in boxes:
            b[0] = (b[0] + b[4]) % w
            b[1] = (b[1] + b[5]) % h
            x0, y0, bw, bh, _, _, v, t = b
            for r in range(y0, min(h, y0 + bh)):
                o = r * w
                x1 = min(w, x0 + bw)
                y[o + x0:o + x1] = bytes(((v + ((c ^ r) & t) * 16) & 255) for c in range(x0, x1))
        u = bytes(((128 + (c - cw // 2) // 4 + f) & 255) for r in range(ch) for c in range(cw))
        v = bytes(((128 + (r - ch // 2) // 3 - f) & 255) for r in range(ch) for c in range(cw))
        out.write(b"FRAME\n")
        if bits == 8:
            out.write(bytes(y)); out.write(u); out.write(v)
        else:
            for plane in (y, u, v):
                out.write(b"".join((min(maxv, s << 2)).to_bytes(2, "little") for s in plane))


main()
