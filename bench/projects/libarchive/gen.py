#!/usr/bin/env python3
"""bench/projects/libarchive/gen.py DIR FILES SEED — a tree for the
libarchive recipe's archives (bench/projects/libarchive.sh): FILES regular
files in directories up to four deep, text (words, compressible), binary
(random bytes, incompressible), runs of zeros and empty files, a few
symbolic links, hard links and empty directories, modes varied, every
time set to a fixed date.  ASCII names (no locale's conversion in play).
Deterministic for a SEED; DIR is made (it must not exist)."""
import os
import random
import sys

WORDS = ("archive entry header block stream format reader writer filter "
         "compress inflate deflate buffer offset length checksum sparse link "
         "directory symlink owner group mode time size name path data").split()


def main():
    top, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    os.makedirs(top)
    dirs = [top]
    for i in range(max(3, n // 12)):
        parent = rng.choice([d for d in dirs if d.count(os.sep) - top.count(os.sep) < 4])
        d = os.path.join(parent, "%s%02d" % (rng.choice(WORDS), i))
        os.mkdir(d)
        dirs.append(d)
    files = []
    for i in range(n):
        d = rng.choice(dirs)
        kind = rng.random()
        name = "%s_%s%d" % (rng.choice(WORDS), rng.choice(WORDS), i)
        if kind < 0.5:
            lines = rng.randrange(1, 400)
            body = "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randrange(3, 14)))
                             for _ in range(lines)).encode() + b"\n"
            name += ".txt"
        elif kind < 0.75:
            body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 40000)))
            name += ".bin"
        elif kind < 0.9:
            body = b"\0" * rng.randrange(1, 200000) + b"end"
            name += ".dat"
        else:
            body = b""
        if rng.random() < 0.05:
            name = "long_" + "x" * rng.randrange(40, 80) + name
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(body)
        os.chmod(p, rng.choice((0o644, 0o600, 0o755, 0o444)))
        files.append(p)
    for i in range(max(1, n // 40)):
        t = rng.choice(files)
        d = rng.choice(dirs)
        os.symlink(os.path.relpath(t, d), os.path.join(d, "sym%d" % i))
        os.link(t, os.path.join(rng.choice(dirs), "hard%d" % i))
    for i in range(max(1, n // 60)):
        os.mkdir(os.path.join(rng.choice(dirs), "empty%d" % i))
    for root, ds, fs in os.walk(top, topdown=False):
        for x in fs + ds:
            os.utime(os.path.join(root, x), (1600000000, 1600000000 + rng.randrange(86400)), follow_symlinks=False)
    os.utime(top, (1600000000, 1600000000))


main()
