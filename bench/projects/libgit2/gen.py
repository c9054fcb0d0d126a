#!/usr/bin/env python3
# bench/projects/libgit2/gen.py FILES COMMITS SEED — a git fast-import
# stream on stdout (bench/projects/libgit2.sh's test repository): FILES
# files of 40 to 120 lines in 24 folders, then COMMITS commits each
# editing a few lines of 1 to 12 files (some files far more often than
# others: blame has long histories to follow), adding a file now and then
# and deleting one; fixed dates and names, so the same ids every run.
import random, sys

files, commits, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
words = ("alpha beta gamma delta struct return while if buffer index commit tree blob object "
         "refs pack static int char void merge rebase status diff blame hunk line").split()
out = sys.stdout.buffer

def line():
    return " ".join(rng.choice(words) for _ in range(rng.randint(2, 10)))

def path(i):
    return "lib/m%02d/unit%05d.c" % (i % 24, i)

content = {}
for i in range(files):
    content[path(i)] = [line() for _ in range(rng.randint(40, 120))]

def blob(lines):
    data = ("\n".join(lines) + "\n").encode()
    out.write(b"data %d\n" % len(data))
    out.write(data)

def commit(n, changed, deleted):
    msg = ("change %d: %d files" % (n, len(changed))).encode()
    t = 1600000000 + n * 3600
    out.write(b"commit refs/heads/master\n")
    out.write(b"author A U Thor <author@example.com> %d +0000\n" % t)
    out.write(b"committer A U Thor <author@example.com> %d +0000\n" % t)
    out.write(b"data %d\n%s\n" % (len(msg), msg))
    for p in changed:
        out.write(b"M 100644 inline %s\n" % p.encode())
        blob(content[p])
    for p in deleted:
        out.write(b"D %s\n" % p.encode())

commit(0, sorted(content), [])
hot = [path(i) for i in rng.sample(range(files), max(1, files // 50))]
nxt = files
for n in range(1, commits):
    k = rng.randint(1, 12)
    changed = set()
    for _ in range(k):
        p = rng.choice(hot) if rng.random() < 0.4 else rng.choice(sorted(content)) if n % 16 == 0 else path(rng.randrange(nxt))
        if p not in content:
            continue
        c = content[p]
        for _ in range(rng.randint(1, 4)):
            j = rng.randrange(len(c))
            op = rng.random()
            if op < 0.5:
                c[j] = line()
            elif op < 0.8:
                c.insert(j, line())
            elif len(c) > 10:
                del c[j]
        changed.add(p)
    deleted = []
    if n % 25 == 0:
        p = path(nxt)
        nxt += 1
        content[p] = [line() for _ in range(rng.randint(40, 120))]
        changed.add(p)
    if n % 40 == 0:
        victims = sorted(p for p in content if p not in hot)
        if victims:
            v = rng.choice(victims)
            del content[v]
            changed.discard(v)
            deleted.append(v)
    commit(n, sorted(changed), deleted)
out.write(b"done\n")
