#!/usr/bin/env python3
"""check-idle.py TREE MODE WAIT OUT: check `pmopt report --tree --what=idle`
of blocker.c.  MODE: both, to or from.  WAIT: sleep or cond (what the thread
blocks in; only printed).  OUT: blocker's output (the time it measured
blocked in each function).

  - the header has ticks, idle, busy, skipped, lost, and ticks = idle + busy;
  - block_long and block_short are leaves (base = cumulative) under worker;
  - to-idle: block_long : block_short = the ratio of the times blocked in
    them, measured by the program (about 3 : 1: 6 ms and 2 ms), within 25 %;
  - from-idle: 1 : 1 within 30 % (each wake-up after an idle tick gives one);
  - a mode's other count is 0; base counts add up to the header's totals.
"""
import re
import sys

text = open(sys.argv[1]).read()
mode, wait = sys.argv[2], sys.argv[3]
b = re.search(r"blocked_ms long=([0-9.]+) short=([0-9.]+)", open(sys.argv[4]).read())
want = float(b.group(1)) / float(b.group(2))
h = re.search(r"ticks (\d+), idle (\d+), busy (\d+), skipped (\d+), lost (\d+) .*"
              r"to-idle (\d+), from-idle (\d+);", text)
assert h, "no idle header"
ticks, idle, busy, skipped, lost, to_all, from_all = map(int, h.groups())
assert ticks == idle + busy, "ticks %d != idle %d + busy %d" % (ticks, idle, busy)
nodes = {}
sum_to = sum_from = 0
stack = []
for line in text.splitlines():
    m = re.match(r"^ *(\d+) +(\d+) +(\d+) +(\d+)  ( *)(\S+)", line)
    if not m:
        continue
    tb, tc, fb, fc = map(int, m.groups()[:4])
    depth = len(m.group(5)) // 2
    name = m.group(6)
    del stack[depth:]
    stack.append(name)
    sum_to += tb
    sum_from += fb
    if name in ("block_long", "block_short"):
        assert len(stack) >= 2 and stack[-2] == "worker", "%s not under worker: %s" % (name, stack)
        assert tb == tc and fb == fc, "%s is not a leaf" % name
        nodes[name] = (tb, fb)
assert sum_to == to_all and sum_from == from_all, "base counts do not add up"
lt, lf = nodes.get("block_long", (0, 0))
st, sf = nodes.get("block_short", (0, 0))
if mode in ("both", "to"):
    assert st > 0, "no to-idle samples in block_short"
    r = lt / st
    assert 0.75 * want <= r <= 1.25 * want, \
        "to-idle block_long:block_short = %d:%d = %.2f, expected %.2f +-25%%" % (lt, st, r, want)
    print("ok: %s: to-idle block_long:block_short = %d:%d = %.2f (time blocked: %.2f +-25%%)"
          % (wait, lt, st, r, want))
else:
    assert to_all == 0, "to-idle samples in mode from"
if mode in ("both", "from"):
    assert sf > 0, "no from-idle samples in block_short"
    r = lf / sf
    assert 0.7 <= r <= 1.3, "from-idle block_long:block_short = %d:%d = %.2f, expected 1 +-30%%" % (lf, sf, r)
    print("ok: %s: from-idle block_long:block_short = %d:%d = %.2f (1 +-30%%)" % (wait, lf, sf, r))
else:
    assert from_all == 0, "from-idle samples in mode to"
print("ok: header ticks %d = idle %d + busy %d, skipped %d, lost %d" % (ticks, idle, busy, skipped, lost))
