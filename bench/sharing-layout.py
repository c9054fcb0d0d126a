#!/usr/bin/env python3
"""bench/sharing-layout.py — the repaired build against the hand fix where
time can go without a different algorithm (bench/sharing.sh --layout,
docs/sharing.md "Repair"): the hot function's code and where it lies.

    bench/sharing-layout.py FUNC HAND AUTO

For each of the two programs: FUNC's address; its instructions with the
addresses of globals and branch targets left out (so that the same code at
another address compares equal); its loops -- every backward branch, the
bytes from its target to the branch's end -- and how many 32-byte fetch
blocks and 64-byte lines each spans (a loop that fits one block in one
program and straddles two in the other is the kind of difference code
placement makes).  Prints one Markdown table row:

    | FUNC at HAND / AUTO | instructions: identical or N differ | loops (hand → auto) |

FUNC is a symbol name (a C++ static function: its mangled name, e.g.
_ZL6workeril).  Exits 1 when FUNC is not in a program.
"""
import re
import subprocess
import sys


def func(binary, name):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True,
                         check=True).stdout
    body, on = [], False
    for line in out.splitlines():
        if line.endswith("<%s>:" % name):
            on = True
            continue
        if on and not line.strip():
            break
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", line) if on else None
        if m:
            body.append((int(m.group(1), 16), m.group(2)))
    if not body:
        sys.stderr.write("sharing-layout: %s: no function %s\n" % (binary, name))
        sys.exit(1)
    return body


def normalised(body):
    """instructions without the addresses that move with the code"""
    out = []
    for _, ins in body:
        ins = re.sub(r"\s+#.*", "", ins)
        ins = re.sub(r"-?0x[0-9a-f]+\(%rip\)", "X(%rip)", ins)
        ins = re.sub(r"\b[0-9a-f]+ <([^>+]*)(\+0x[0-9a-f]+)?>", r"<\1\2>", ins)
        out.append(ins.strip())
    return out


def loops(body):
    res = []
    for i, (a, ins) in enumerate(body):
        m = re.match(r"j\w+\s+([0-9a-f]+) <", ins)
        if m and int(m.group(1), 16) <= a:
            t = int(m.group(1), 16)
            end = body[i + 1][0] if i + 1 < len(body) else a + 2
            res.append((t - body[0][0], end - t, (end - 1) // 32 - t // 32 + 1, (end - 1) // 64 - t // 64 + 1))
    return res


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: sharing-layout.py FUNC HAND AUTO\n")
        sys.exit(2)
    name, hand, auto = sys.argv[1:]
    h, a = func(hand, name), func(auto, name)
    nh, na = normalised(h), normalised(a)
    if nh == na:
        same = "identical (%d)" % len(nh)
    else:
        diff = sum(1 for x, y in zip(nh, na) if x != y) + abs(len(nh) - len(na))
        same = "**%d of %d differ**" % (diff, max(len(nh), len(na)))
    lh, la = loops(h), loops(a)
    worse = []
    for (off, size, b32, b64), (_, _, c32, c64) in zip(lh, la):
        mark = " **worse**" if (c32, c64) > (b32, b64) else " better" if (c32, c64) < (b32, b64) else ""
        worse.append("+%d, %d B: %d×32 %d×64 → %d×32 %d×64%s" % (off, size, b32, b64, c32, c64, mark))
    print("| %s at 0x%x / 0x%x (%+d) | %s | %s |" % (name, h[0][0], a[0][0], a[0][0] - h[0][0], same,
                                                  "; ".join(worse) if worse else "none"))


if __name__ == "__main__":
    main()
