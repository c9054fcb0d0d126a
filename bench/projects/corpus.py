# bench/projects/corpus.py — what the projects' corpus generators share
# (bench/projects/*/gen.py, logs.py): one xorshift32 source, so that a corpus is the
# same for the same seed on every machine, and a vocabulary drawn from it.
# A generator imports it by its folder:
#   sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LETTERS = "etaoinshrdlucmfwypvbgkqjxz"


def xorshift(seed):
    """rnd(k): the next number below k (seed 0 is 1)"""
    x = seed or 1

    def rnd(k):
        nonlocal x
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        x ^= (x << 5) & 0xffffffff
        return x % k
    return rnd


def vocabulary(rnd, n):
    """n words of 2 to 9 letters, the frequent letters likelier"""
    return ["".join(LETTERS[rnd(rnd(26) + 1)] for _ in range(2 + rnd(8))) for _ in range(n)]
