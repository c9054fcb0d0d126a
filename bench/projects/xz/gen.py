# bench/projects/xz/gen.py KB SEED — about KB KiB of text lines (words of a
# fixed vocabulary, numbers, a few long repeats), deterministic for KB and SEED
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus import xorshift, vocabulary  # noqa: E402
kb = int(sys.argv[1])
rnd = xorshift(int(sys.argv[2]))
words = vocabulary(rnd, 4000)
out, n, lines = sys.stdout, 0, []
while n < kb * 1024:
    if lines and rnd(10) == 0:
        l = lines[rnd(len(lines))]
    else:
        l = " ".join(words[rnd(4000)] if rnd(8) else str(rnd(100000)) for _ in range(4 + rnd(10)))
        lines = (lines + [l])[-500:]
    out.write(l + "\n")
    n += len(l) + 1
