# bench/projects/xz/gen.py KB SEED — about KB KiB of text lines (words of a
# fixed vocabulary, numbers, a few long repeats), deterministic for KB and SEED
import sys
kb, x = int(sys.argv[1]), int(sys.argv[2]) or 1
def rnd(k):
    global x
    x ^= (x << 13) & 0xffffffff; x ^= x >> 17; x ^= (x << 5) & 0xffffffff
    return x % k
letters = "etaoinshrdlucmfwypvbgkqjxz"
words = ["".join(letters[rnd(rnd(26) + 1)] for _ in range(2 + rnd(8))) for _ in range(4000)]
out, n, lines = sys.stdout, 0, []
while n < kb * 1024:
    if lines and rnd(10) == 0:
        l = lines[rnd(len(lines))]
    else:
        l = " ".join(words[rnd(4000)] if rnd(8) else str(rnd(100000)) for _ in range(4 + rnd(10)))
        lines = (lines + [l])[-500:]
    out.write(l + "\n")
    n += len(l) + 1
