#!/usr/bin/env python3
"""gen.py KB SEED MIX: a JSON document of about KB kilobytes for
bench/projects/jsonc.sh's workload, deterministic for its seed.  MIX
train: objects of string-keyed records (a vocabulary of keys), short
strings with escapes and UTF-8, small integers, booleans and nulls,
shallow arrays; test: number-heavy records (doubles, 64-bit integers),
deeper nesting, longer strings, wider arrays."""
import json, random, sys

kb, seed, mix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
r = random.Random(seed)
words = ["id", "name", "type", "value", "tags", "count", "items", "meta", "x", "y", "z", "flag", "owner",
         "created", "updated", "path", "size", "kind", "ref", "note", "état", "größe", "k\"q", "tab\t"]

def text(n):
    s = "".join(r.choice("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789") for _ in range(n))
    if r.random() < 0.2:
        s += r.choice(["\n", "\\", "\"", "é", "漢字", "\u0001", "/"])
    return s

def value(depth):
    t = r.random()
    if mix == "train":
        if depth < 3 and t < 0.15:
            return {r.choice(words) + str(r.randrange(6)): value(depth + 1) for _ in range(r.randrange(1, 6))}
        if depth < 3 and t < 0.25:
            return [value(depth + 1) for _ in range(r.randrange(0, 5))]
        if t < 0.55:
            return text(r.randrange(1, 16))
        if t < 0.8:
            return r.randrange(-1000, 1000)
        if t < 0.9:
            return r.random() < 0.5
        return None
    if depth < 6 and t < 0.12:
        return {r.choice(words) + str(r.randrange(20)): value(depth + 1) for _ in range(r.randrange(1, 4))}
    if depth < 6 and t < 0.3:
        return [value(depth + 1) for _ in range(r.randrange(0, 12))]
    if t < 0.45:
        return text(r.randrange(10, 80))
    if t < 0.7:
        return round(r.uniform(-1e6, 1e6), r.randrange(0, 9))
    if t < 0.9:
        return r.randrange(-2**62, 2**62)
    return r.random() < 0.5

recs, size = [], 0
while size < kb * 1024:
    rec = {"seq": len(recs), "data": value(0), "label": text(8)}
    size += len(json.dumps(rec))
    recs.append(rec)
json.dump({"records": recs, "n": len(recs)}, sys.stdout, ensure_ascii=(mix == "test"))
