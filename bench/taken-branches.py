#!/usr/bin/env python3
"""bench/taken-branches.py — taken branches of a program's own code, counted
from a callgrind profile (docs/layout.md "Taken branches under callgrind").

    valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes \\
        --callgrind-out-file=cg.out ./prog ARGS
    bench/taken-branches.py [--by-function] PROG cg.out

Prints one line

    taken branches N (conditional C, unconditional U; into a function's first
    instruction E; O other arcs left out)

and with --by-function the count per function after it ("N FUNCTION",
largest first; FUNCTION is the symbol objdump shows the jump instruction
under: callgrind's own fn= is the function of the call context, which stays
`f.cold` while code of f runs after a jump back from its cold part).

A taken branch is an execution of a jmp or a jcc (or loop/jrcxz) of PROG
that went to its target: every unconditional jump, direct or indirect, and
every conditional jump taken.  Calls and returns are not branches here.
Three things make callgrind's own totals blind to layout, and this reader
undoes them:

- without --dump-instr=yes callgrind merges jumps per source line, and in
  code without line information (SQLite at -O2) every jump within a
  function goes from line 0 to line 0 and is dropped: only the profile's
  positions per instruction keep them;
- a jump to the first instruction of a function (a tail call, or a jump
  into a `.cold` part, which has its own symbol) is recorded as a call
  (calls=), not as a jump: the record is counted when its source
  instruction is a jump;
- a rep-prefixed string instruction is a loop to itself under VEX and is
  recorded as a jump: not counted, its instruction is no jump.

So every arc record (jump=, jcnd=, calls=) is kept or dropped by what
objdump says the instruction at its source address is.  Only arcs whose
source lies in PROG are counted (the layout under test; libc's are the
same in every variant).  "Other arcs" are PROG's arc records whose source
is no jump: calls into other functions' entries, returns, rep loops.  The reader follows callgrind's format: positions
"instr [line]", name compression "(id) name", relative positions "+N",
"-N", "*" (an arc's target position is relative to the last position but
does not change it; the line after an arc record holds its source
position).
"""
import os
import re
import subprocess
import sys

PREFIXES = {"bnd", "notrack", "ds", "cs", "rex", "rex.w", "data16", "addr32"}
LOOPS = {"loop", "loope", "loopne", "loopz", "loopnz"}


def die(msg):
    sys.stderr.write("taken-branches: %s\n" % msg)
    sys.exit(1)


def jump_kinds(prog):
    """{address: ('cond' | 'uncond', function)} for every jump instruction of
    PROG, the function being the symbol objdump names the code after."""
    try:
        out = subprocess.run(["objdump", "-d", "-w", "--no-show-raw-insn", prog],
                             check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s: objdump failed: %s" % (prog, e))
    kinds = {}
    line_re = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
    sym_re = re.compile(r"^[0-9a-f]+ <(.*)>:$")
    sym = "?"
    for line in out.splitlines():
        m = sym_re.match(line)
        if m:
            sym = m.group(1)
            continue
        m = line_re.match(line)
        if not m:
            continue
        words = m.group(2).split()
        while words and words[0] in PREFIXES:
            words = words[1:]
        if not words:
            continue
        op = words[0]
        if op == "jmp" or op.startswith("jmp"):       # jmp, jmpq
            kinds[int(m.group(1), 16)] = ("uncond", sym)
        elif op.startswith("j") or op in LOOPS:       # jcc, jrcxz, loop
            kinds[int(m.group(1), 16)] = ("cond", sym)
    if not kinds:
        die("%s: objdump found no jump instruction" % prog)
    return kinds


def file_addresses(prog, targets):
    """A function from callgrind's positions to PROG's addresses.  Valgrind
    subtracts one load bias per object; in a program with more than one
    executable segment at unusual addresses (BOLT's output: the new .text at
    0x400000 beside the old one) it can miss a segment (its code is then
    object "???", at run-time addresses) or be off by a constant.  The calls' targets are functions' entries: per executable
    section, the offset most of its functions' entries show (position −
    symbol address) is taken back."""
    try:
        syms = subprocess.run(["nm", "--defined-only", prog], check=True, capture_output=True,
                              text=True).stdout
        secs = subprocess.run(["readelf", "-SW", prog], check=True, capture_output=True,
                              text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return lambda a: a
    addr = {}
    for line in syms.splitlines():
        w = line.split()
        if len(w) == 3 and w[1] in "TtWw":
            addr.setdefault(w[2], int(w[0], 16))
    ranges = []                # executable sections: (start, end)
    for m in re.finditer(r"\]\s+\S+\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*X\S*)",
                         secs):
        a, n = int(m.group(1), 16), int(m.group(2), 16)
        if n:
            ranges.append((a, a + n))
    votes = {}                 # section -> {offset: calls}
    for name, pos in targets:
        a = addr.get(name)
        if a is None:
            continue
        for r in ranges:
            if r[0] <= a < r[1]:
                v = votes.setdefault(r, {})
                v[pos - a] = v.get(pos - a, 0) + 1
    off = {r: max(v.items(), key=lambda x: (x[1], -abs(x[0])))[0] for r, v in votes.items()}
    if not any(off.values()):
        return lambda a: a

    def to_file(p):
        for r, d in off.items():
            if r[0] <= p - d < r[1]:
                return p - d
        return p
    return to_file


def same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def read_callgrind(f):
    """The records of a callgrind profile (the one reader of the format for
    the bench scripts; bench/hot-footprint.py uses it too), names and
    positions uncompressed, as tuples:
      ("positions", [NAME...]), ("events", [NAME...]);
      ("cost", OB, POSITION, [COST...]): a line of self cost;
      ("arc", KIND, COUNT, TARGET, OB, CALLEE_OB, CALLEE, SOURCE): a calls=,
        jump= or jcnd= record (COUNT: the calls, or the jumps taken) with
        the position of the line after it, its source; CALLEE and
        CALLEE_OB (the caller's object when cob= is not given) of a call.
    POSITION, TARGET and SOURCE are the first position (the instruction's
    address with --dump-instr=yes)."""
    npos = 1
    names = {}                 # (kind, id) -> name
    ob = cob = cfn = None
    last = [0, 0]
    pending = None             # the arc whose source line comes next

    def name_of(kind, val):
        m = re.match(r"^\((\d+)\)(?:\s+(.*))?$", val)
        if not m:
            return val
        key = (kind, m.group(1))
        if m.group(2) is not None:
            names[key] = m.group(2)
        return names.get(key, val)

    def parse_pos(fields, update):
        vals = []
        for i in range(npos):
            s = fields[i] if i < len(fields) else "*"
            if s == "*":
                v = last[i]
            elif s[0] in "+-":
                v = last[i] + int(s, 0)
            else:
                v = int(s, 0)
            vals.append(v)
        if update:
            last[:npos] = vals
        return vals

    for raw in f:
        line = raw.rstrip("\n")
        if not line or line[0] == "#":
            continue
        if line.startswith("positions:"):
            p = line.split()[1:]
            npos = max(1, len(p))
            last = [0] * max(2, npos)
            yield ("positions", p)
            continue
        if line.startswith("events:"):
            yield ("events", line.split()[1:])
            continue
        c = line[0]
        if c.isalpha() and "=" in line.split()[0]:
            key, _, val = line.partition("=")
            if key == "ob":
                ob = name_of("ob", val)
            elif key == "cob":
                cob = name_of("ob", val)
            elif key == "fn":
                name_of("fn", val)
                cob = cfn = None
            elif key == "cfn":
                cfn = name_of("fn", val)
            elif key == "jfn":
                name_of("fn", val)
            elif key in ("fl", "fi", "fe", "cfi", "cfl", "jfi"):
                name_of("fl", val)
            elif key in ("calls", "jump", "jcnd"):
                words = val.split()
                count = int(words[0].split("/")[0])
                pending = (key, count, parse_pos(words[1:], False)[0], cob or ob, cfn)
            continue
        if c in "0123456789+-*":
            fields = line.split()
            addr = parse_pos(fields, True)[0]
            if pending is not None:
                key, count, target, callee_ob, callee = pending
                pending = None
                yield ("arc", key, count, target, ob, callee_ob, callee, addr)
            else:
                yield ("cost", ob, addr, fields[npos:])


def main(argv):
    by_function = False
    args = []
    for a in argv:
        if a == "--by-function":
            by_function = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            die("unknown option %s" % a)
        else:
            args.append(a)
    if len(args) != 2:
        die("usage: taken-branches.py [--by-function] PROG CALLGRIND_OUT")
    prog, data = args
    kinds = jump_kinds(prog)
    try:
        f = open(data, encoding="utf-8", errors="replace")
    except OSError as e:
        die("%s: %s" % (data, e.strerror))
    ob_is_prog = {}            # object name -> bool
    arcs = []                  # (kind, count, source position) of PROG's arc records
    targets = []               # (object, callee, position of its entry) of calls
    total = {"cond": 0, "uncond": 0}
    entry = 0
    other = 0
    per_fn = {}
    seen_header = False
    any_arcs = False
    for rec in read_callgrind(f):
        if rec[0] == "positions":
            if not rec[1] or rec[1][0] != "instr":
                die("%s: positions are '%s', not per instruction: run callgrind with "
                    "--dump-instr=yes" % (data, " ".join(rec[1])))
            seen_header = True
        elif rec[0] == "arc":
            _, key, count, target, ob, callee_ob, callee, addr = rec
            if key == "calls" and callee is not None:
                targets.append((callee_ob, callee, target))
            if key != "calls":
                any_arcs = True     # calls= appear without --collect-jumps too
            if ob not in ob_is_prog:
                ob_is_prog[ob] = ob is not None and same_file(ob, prog)
            if not (ob_is_prog[ob] or ob == "???") or count == 0:
                continue
            arcs.append((ob, key, count, addr))
    f.close()
    # arcs of code valgrind could not name ("???": a segment it did not map
    # to the file) count only once calls into PROG's functions there say
    # where it is
    to_file = {o: file_addresses(prog, [(n, t) for x, n, t in targets if x == o])
               if ob_is_prog[o] or any(x == o for x, n, t in targets) else (lambda a: None)
               for o in set(a[0] for a in arcs)}
    for ob, key, count, addr in arcs:
        insn = kinds.get(to_file[ob](addr))
        if insn is None and not ob_is_prog[ob]:
            continue        # unknown code that is not PROG's
        if insn is None:    # a call, a return, a rep-prefixed instruction
            other += count
            continue
        kind, name = insn
        total[kind] += count
        if key == "calls":
            entry += count
        per_fn[name] = per_fn.get(name, 0) + count
    if not seen_header:
        die("%s: not a callgrind profile (no positions: line)" % data)
    if not any_arcs:
        die("%s: no jump records: run callgrind with --collect-jumps=yes" % data)
    if not any(ob_is_prog.values()):
        die("%s: no code of %s in the profile" % (data, prog))
    n = total["cond"] + total["uncond"]
    print("taken branches %d (conditional %d, unconditional %d; into a function's "
          "first instruction %d; %d other arcs left out)"
          % (n, total["cond"], total["uncond"], entry, other))
    if by_function:
        for name, k in sorted(per_fn.items(), key=lambda x: (-x[1], x[0])):
            print("%d %s" % (k, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
