#!/usr/bin/env python3
"""jump-hunks.py DIFF: t-clean-final.sh's check of `diff F.COUNT-LESS-UPDATES F`
(objdump instructions, branch targets in the function written <self>): every
hunk only removes jumps (a jump to a jump or to the next instruction, gone
from f) and adds, for some of them, a return block (at most four
instructions without a jump or a call, then ret).  One line a hunk
("hunk REMOVED BLOCKS"), and "BAD ..." for a hunk that is not so."""
import re
import sys

for h in re.split(r'^(?=\d)', open(sys.argv[1]).read(), flags=re.M):
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
    if any(not re.match(r'^j[a-z]* +<self>$', l) for l in old):
        print('BAD removed: ' + '; '.join(old))
    elif cur or len(blocks) > len(old) or any(
            len(b) > 5 or any(x.startswith(('j', 'call')) for x in b) for b in blocks):
        print('BAD added: ' + '; '.join(new))
    else:
        print('hunk', len(old), len(blocks))
