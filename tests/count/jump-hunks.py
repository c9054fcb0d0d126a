#!/usr/bin/env python3
"""jump-hunks.py [--dead] DIFF: t-clean-final.sh's check of `diff
F.COUNT-LESS-UPDATES F` (objdump instructions, branch targets in the function
written <self>): every hunk only removes jumps (a jump to a jump or to the
next instruction, gone from f) and adds, for some of them, a return block (at
most four instructions without a jump or a call, then ret).  One line a hunk
("hunk REMOVED BLOCKS"), and "BAD ..." for a hunk that is not so.  --dead: a
hunk may also remove moves, adds, subtractions, leas and xors into a
register, tests and compares of registers and conditional jumps (the
counters' dead loads and adds, and store motion's flags that a counter
changed: finalcopy.cc finaldead): "dead N LINES" for one that
removes N of them (LINES, joined by "; ") and nothing else."""
import re
import sys

args = sys.argv[1:]
dead_ok = args[:1] == ['--dead']
if dead_ok:
    args = args[1:]
DEAD = re.compile(r'^((mov|add|sub|lea|inc|dec|xor|test|cmp)[a-z]* +([^ ]+,)?%[a-z0-9]+|j(?!mp)[a-z]+ +<self>)$')
for h in re.split(r'^(?=\d)', open(args[0]).read(), flags=re.M):
    if not h.strip():
        continue
    old = [l[2:] for l in h.splitlines() if l.startswith('< ')]
    new = [l[2:] for l in h.splitlines() if l.startswith('> ')]
    blocks, cur = [], []
    for l in new:
        cur.append(l)
        if l == 'ret':
            blocks.append(cur)
            cur = []
    if dead_ok and not new and old and all(DEAD.match(l) for l in old):
        print('dead', len(old), '; '.join(old))
    elif any(not re.match(r'^j[a-z]* +<self>$', l) for l in old):
        print('BAD removed: ' + '; '.join(old))
    elif cur or len(blocks) > len(old) or any(
            len(b) > 5 or any(x.startswith(('j', 'call')) for x in b) for b in blocks):
        print('BAD added: ' + '; '.join(new))
    else:
        print('hunk', len(old), len(blocks))
