#!/usr/bin/env python3
"""The taken branches of is_prime (tests/relink/dynstats.c) under is_prime(i)
for i = 0 .. N-1, from the trip counts and the machine code (t-dynstats.sh).

usage: dynstats-model.py N META OBJDUMP
  META     `pmopt dump-meta PROG` (the sites and their code ranges)
  OBJDUMP  `objdump -d --no-show-raw-insn PROG`

Walks each call's path of source blocks (is_prime's control flow, written
out below) over the machine code: from the copy (code range) that runs, the
next block is reached either by falling through (the range's end, through
code without a site, to a range of that block) or by the range's final
jump (through code without a site likewise).  An edge falls through when
the copy it reaches starts where the running copy ends (up to 15 bytes of
padding, as docs/layout.md) and was reached without the jump; everything
else is a taken branch.  Prints: executed-edges taken copies-of-the-loop-test
back-edge-jumps executed-instructions (each copy's, as the plugin counted
them in the CODE chunk, per run)."""
import re
import sys

N = int(sys.argv[1])
meta = open(sys.argv[2]).read().splitlines()
dis = open(sys.argv[3]).read().splitlines()

# sites by source position, ranges (start, end, site)
site_at = {}
for l in meta:
    m = re.match(r'\s+site (\d+): block, \S*dynstats\.c:(\d+:\d+),', l)
    if m:
        site_at[m.group(2)] = int(m.group(1))
ranges = []
for l in meta:
    m = re.match(r'\s+0x([0-9a-f]+)\s+\S+\s+(\d+)\s+\S+\s+(\d+)\s+is_prime\s+\S+\s+(\d+)\s', l)
    if m:
        a = int(m.group(1), 16)
        ranges.append((a, a + int(m.group(2)), int(m.group(3)), int(m.group(4))))
TEST, RET0A, INIT, MOD, RET0B, INC, LOOP, RET1, EXIT = (site_at[k] for k in (
    '14:8', '15:16', '16:14', '17:15', '18:20', '16:34', '16:23', '19:12', '20:1'))

# the machine code of is_prime: address -> (next address, mnemonic, target)
insn = {}
order = []
inside = False
for l in dis:
    if re.match(r'^[0-9a-f]+ <is_prime>:', l):
        inside = True
        continue
    if inside and not l.strip():
        break
    m = re.match(r'\s+([0-9a-f]+):\s+(\S+)\s*([0-9a-f]*)', l)
    if inside and m:
        a = int(m.group(1), 16)
        tgt = int(m.group(3), 16) if m.group(2).startswith('j') and m.group(3) else None
        insn[a] = [None, m.group(2), tgt]
        order.append(a)
for a, b in zip(order, order[1:]):
    insn[a][0] = b

def starts(addr):
    return [r for r in ranges if r[0] == addr]

def reach(addr, site, seen=()):
    """The range of `site` that control starting at addr reaches before any
    other site's code, and whether a jump was taken on the way."""
    if addr in seen or addr not in insn:
        return None
    at = starts(addr)
    if at:
        r = [x for x in at if x[2] == site]
        return (r[0], False) if r else None
    nxt, mn, tgt = insn[addr]
    if mn.startswith('ret'):
        return None
    if mn == 'jmp':
        got = reach(tgt, site, seen + (addr,))
        return (got[0], True) if got else None
    if mn.startswith('j'):  # conditional, in code without a site: either way
        got = reach(tgt, site, seen + (addr,))
        if got:
            return (got[0], True)
    return reach(nxt, site, seen + (addr,))

def step(cur, site):
    """From range cur to a range of site: (range, fell through)."""
    last = max(a for a in insn if cur[0] <= a < cur[1]) if cur[1] > cur[0] else None
    if last is not None and insn[last][1].startswith('j'):
        got = reach(insn[last][2], site)
        if got:
            return got[0], False
        if insn[last][1] == 'jmp':
            sys.exit('no way from %#x to site %d' % (cur[0], site))
    # falling through: the range must start where cur ends (padding only)
    got = reach(cur[1], site)
    if not got:
        sys.exit('no way from %#x to site %d' % (cur[0], site))
    return got[0], not got[1] and 0 <= got[0][0] - cur[1] <= 15

def path(n):
    p = [TEST]
    if n < 2:
        return p + [RET0A, EXIT]
    p.append(INIT)
    d = 2
    while True:
        p.append(LOOP)
        if d * d > n:
            return p + [RET1, EXIT]
        p.append(MOD)
        if n % d == 0:
            return p + [RET0B, EXIT]
        p.append(INC)
        d += 1

edges = taken = back = insns = 0
entry = [r for r in ranges if r[2] == TEST]
assert len(entry) == 1, 'the entry block has one copy'
for n in range(N):
    p = path(n)
    cur = entry[0]
    insns += cur[3]
    for s in p[1:]:
        nxt, ft = step(cur, s)
        edges += 1
        taken += not ft
        if cur[2] == LOOP and s == MOD and nxt[0] < cur[0]:
            back += 1
        cur = nxt
        insns += cur[3]
print(edges, taken, sum(r[2] == LOOP for r in ranges), back, insns)
