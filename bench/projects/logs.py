#!/usr/bin/env python3
"""logs.py LINES SEED — a log-like text corpus for bench/projects/pcre2.sh
and gawk.sh: timestamped lines with levels, users, e-mail addresses, ids, paths and
durations, some doubled words, some words in Greek, Cyrillic and accented
Latin (UTF-8); deterministic for a seed (corpus.py's xorshift)."""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import xorshift  # noqa: E402

n = int(sys.argv[1])
rnd = xorshift(int(sys.argv[2]) * 2654435761 % 2**32)

levels = ["INFO"] * 12 + ["DEBUG"] * 5 + ["WARN", "warning", "ERROR"]
users = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
words = ["the", "a", "an", "request", "cache", "miss", "hit", "open", "close", "read", "write",
         "socket", "timeout", "retry", "index", "page", "lock", "commit", "rollback", "query",
         "Straße", "café", "naïve", "λόγος", "αλφα", "данные", "сервер", "Ärger", "über"]
out = sys.stdout
for i in range(n):
    w = [words[rnd(len(words))] for _ in range(3 + rnd(6))]
    if rnd(9) == 0:
        k = rnd(len(w))
        w.insert(k, w[k])                       # a doubled word: (\w+) \1
    u = users[rnd(len(users))]
    line = "2024-%02d-%02d %02d:%02d:%02d [%s] user %s %s id=%d path=/%s/%s/%d.txt took %dms" % (
        1 + rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60), levels[rnd(len(levels))], u,
        " ".join(w), rnd(1000000), users[rnd(len(users))], words[rnd(20)], rnd(1000), rnd(2000))
    if rnd(4) == 0:
        line += " mail %s.%s@%s.example.org" % (u, users[rnd(len(users))], words[rnd(20)])
    out.write(line + "\n")
