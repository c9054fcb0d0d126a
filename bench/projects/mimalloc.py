# bench/projects/mimalloc.py N SEED: an allocation-heavy job for the mimalloc
# recipe (bench/projects/mimalloc.sh), run by python3 with PYTHONMALLOC=malloc:
# N strings of a linear congruential sequence kept in lists under N/4 keys,
# each list trimmed to 8; prints the number of keys and two length sums.
import sys
n = int(sys.argv[1]); seed = int(sys.argv[2])
x = seed; d = {}; tot = 0
for i in range(n):
    x = (x * 1103515245 + 12345) & 0x7fffffff
    k = "k%d" % (x % (n // 4 + 1))
    l = d.setdefault(k, [])
    l.append(str(x) * (1 + x % 7))
    if len(l) > 8: tot += len(l.pop(0))
print(len(d), tot, sum(len(v) for v in d.values()))
