#!/bin/bash
# offmode-breakdown.sh — where the instructions of an all=count build run
# with PERFINST_MODE=off go, beside gcc -O2, on the SQLite workload.
#
#   bench/offmode-breakdown.sh [--small S] [--top N] [O2_PROG PI_PROG]
#
#   --small S   workload size under callgrind (default 0.1)
#   --top N     functions listed per table (default 25)
#   O2_PROG PI_PROG  the two programs (default: bench/.work/o2/prog and
#               bench/.work/pi-count/prog, built by bench/count-overhead.sh,
#               which this script runs with --no-run --no-callgrind
#               --no-compile to build them when they are missing)
#
# One callgrind run of each with --dump-instr=yes, then:
#   - totals and the difference, per object (program, libc, libperfinst);
#   - the dispatch: executions of the split functions' entries (every
#     `cmpb $0, __perfinst_fnon` / `movzbl __perfinst_fnon` in PI_PROG, two
#     instructions each with the branch; every `jmp *SLOT(%rip)` into
#     __perfinst_jumps, one instruction), and which functions take them;
#   - calls (the sum of callgrind's call counts) in each;
#   - per-function instruction differences (GCC's .part/.isra/.constprop
#     clones and counting=function's .count copies folded into their
#     function): what inlining did differently.
# Deterministic (callgrind), so it can run on a loaded machine.  Prints
# Markdown; record it in bench/RESULTS.md with the command by hand.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
small=0.1
top=25
while [ $# -gt 0 ]; do
    case "$1" in
    --small) small=${2:?}; shift 2 ;;
    --top) top=${2:?}; shift 2 ;;
    -h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "offmode-breakdown: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 2 ]; then
    o2=$1 pi=$2
elif [ $# -eq 0 ]; then
    o2=$here/.work/o2/prog pi=$here/.work/pi-count/prog
    if [ ! -x "$o2" ] || [ ! -x "$pi" ]; then
        "$here/count-overhead.sh" --no-run --no-callgrind --no-compile >/dev/null || exit 1
    fi
else
    echo "offmode-breakdown: give both programs or neither" >&2; exit 2
fi
for p in "$o2" "$pi"; do [ -x "$p" ] || { echo "offmode-breakdown: $p: no such program" >&2; exit 1; }; done
command -v valgrind >/dev/null || { echo "offmode-breakdown: valgrind missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # PROG OUT MODE
    (cd "$(dirname "$1")" && env PERFINST_MODE="$3" PERFINST_OUT="$tmp/$2.pit" valgrind --tool=callgrind \
        --dump-instr=yes --callgrind-out-file="$tmp/$2.cg" "$1" "$small" train > "$tmp/$2.out" 2> "$tmp/$2.err") ||
        { echo "offmode-breakdown: $1 failed under callgrind ($tmp/$2.err)" >&2; tail -5 "$tmp/$2.err" >&2; exit 1; }
}
run "$o2" o2 off
run "$pi" pi off
s1=$(grep '^checksum=' "$tmp/o2.out"); s2=$(grep '^checksum=' "$tmp/pi.out")
[ -n "$s1" ] && [ "$s1" = "$s2" ] || { echo "offmode-breakdown: checksums differ: '$s1' / '$s2'" >&2; exit 1; }
objdump -d --no-show-raw-insn "$pi" > "$tmp/pi.dis"
grep -E '(cmpb +\$0x0,|movzbl ).*<__perfinst_fnon' "$tmp/pi.dis" | awk -F: '{ print $1 }' > "$tmp/disp.addr"
# entry=jump: `jmp *SLOT(%rip)  # SLOT_ADDR` with SLOT_ADDR in __perfinst_jumps
read -r jlo jsz < <(readelf -SW "$pi" | sed 's/\[ /[/' | awk '$2 == "__perfinst_jumps" { print $4, $6 }')
sed -nE 's/^ *([0-9a-f]+):\s+jmp +\*0x[0-9a-f]+\(%rip\) +# ([0-9a-f]+) .*/\1 \2/p' "$tmp/pi.dis" |
    while read -r a t; do
        [ -n "${jlo:-}" ] && (( 16#$t >= 16#$jlo && 16#$t < 16#$jlo + 16#$jsz )) && echo "$a"
    done > "$tmp/jump.addr"
nm -n --defined-only "$pi" > "$tmp/pi.nm"
for k in o2 pi; do callgrind_annotate --auto=no --threshold=100 "$tmp/$k.cg" > "$tmp/$k.ann"; done

python3 - "$tmp" "$top" "$small" "$o2" "$pi" "$s1" <<'EOF'
import bisect, re, sys
tmp, top, small, o2, pi, csum = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]

def instr_costs(path):
    """Ir per instruction address of a callgrind --dump-instr=yes file
    ("positions: instr line"; a calls= line's next line is inclusive cost)."""
    ir, pos, skip = {}, 0, False
    for l in open(path):
        if l.startswith('calls='):
            skip = True
            continue
        if not l or l[0] not in '0123456789+-*':
            continue
        f = l.split()
        p = f[0]
        if p.startswith('0x'): pos = int(p, 16)
        elif p[0] == '+': pos += int(p[1:], 0)
        elif p[0] == '-': pos -= int(p[1:], 0)
        elif p != '*': pos = int(p, 0)
        if skip:
            skip = False
            continue
        if len(f) > 2:
            ir[pos] = ir.get(pos, 0) + int(f[2])
    return ir

def calls(path):
    return sum(int(l.split()[0][6:]) for l in open(path) if l.startswith('calls='))

def per_fn(path):
    fn, obj = {}, {}
    for l in open(path):
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+(\S+?):(\S+)(?: \[(.*)\])?$', l)
        if not m: continue
        n = int(m.group(1).replace(',', ''))
        name = re.sub(r"'\d+$", '', m.group(3))
        name = re.sub(r'\.(part|isra|constprop|cold|count)\.\d+', '', name)
        fn[name] = fn.get(name, 0) + n
        o = (m.group(4) or '(object not named)').split('/')[-1]
        obj[o] = obj.get(o, 0) + n
    return fn, obj

def total(path):
    for l in open(path):
        if l.startswith('summary:') or l.startswith('totals:'):
            return int(l.split()[1])

t_o2, t_pi = total(f'{tmp}/o2.cg'), total(f'{tmp}/pi.cg')
ir = instr_costs(f'{tmp}/pi.cg')
syms = []
for l in open(f'{tmp}/pi.nm'):
    p = l.split()
    if len(p) == 3 and p[1] in 'tT':
        syms.append((int(p[0], 16), p[2]))
keys = [a for a, _ in syms]
name = lambda a: syms[bisect.bisect_right(keys, a) - 1][1]
disp, njump = {}, 0
for f, k in (('disp', 2), ('jump', 1)):  # instructions per entry: cmpb+jne, or the jmp
    for a in open(f'{tmp}/{f}.addr').read().split():
        a = int(a, 16)
        if ir.get(a):
            n = name(a)
            disp[n] = disp.get(n, 0) + ir[a]
            if k == 1:
                njump += ir[a]
nd = sum(disp.values())
nins = 2 * (nd - njump) + njump
f_o2, ob_o2 = per_fn(f'{tmp}/o2.ann')
f_pi, ob_pi = per_fn(f'{tmp}/pi.ann')
c_o2, c_pi = calls(f'{tmp}/o2.cg'), calls(f'{tmp}/pi.cg')
d = t_pi - t_o2
print(f"### Where `PERFINST_MODE=off` spends its instructions (SQLite workload {small} train)\n")
print(f"`{o2}` against `{pi}` (all=count, `PERFINST_MODE=off`), callgrind --dump-instr=yes; both printed `{csum}`.\n")
print("| | gcc -O2 | all=count, off | difference | % of -O2 |")
print("| --- | --- | --- | --- | --- |")
print(f"| instructions | {t_o2:,} | {t_pi:,} ({t_pi / t_o2:.3f}×) | {d:+,} | {100 * d / t_o2:+.2f} % |")
for o in sorted(set(ob_o2) | set(ob_pi), key=lambda o: -(ob_pi.get(o, 0) + ob_o2.get(o, 0))):
    a, b = ob_o2.get(o, 0), ob_pi.get(o, 0)
    if max(a, b) < 10000: continue
    if o in (o2.split('/')[-1], pi.split('/')[-1]): o = 'the program'
    print(f"| … in {o} | {a:,} | {b:,} | {b - a:+,} | {100 * (b - a) / t_o2:+.2f} % |")
print(f"| dispatch ({nd:,} entries in {len(disp)} functions: 2 × {nd - njump:,} tests, 1 × {njump:,} slot jumps) | | {nins:,} | {nins:+,} | {100 * nins / t_o2:+.2f} % |")
print(f"| the rest (code and inlining differences, the trace at exit) | | | {d - nins:+,} | {100 * (d - nins) / t_o2:+.2f} % |")
print(f"| calls | {c_o2:,} | {c_pi:,} | {c_pi - c_o2:+,} | {100 * (c_pi - c_o2) / c_o2:+.2f} % of -O2's calls |")
print(f"\nFunctions entering through the dispatch most often (of {nd:,}):\n")
print("| function | entries |\n| --- | --- |")
for n, c in sorted(disp.items(), key=lambda x: -x[1])[:top]:
    print(f"| `{n}` | {c:,} |")
diff = sorted(((f_pi.get(k, 0) - f_o2.get(k, 0), k) for k in set(f_o2) | set(f_pi)), reverse=True)
print("\nLargest per-function differences (clones folded; 0 on one side = inlined there):\n")
print("| function | gcc -O2 | all=count, off | difference | entry tests |\n| --- | --- | --- | --- | --- |")
for dd, k in diff[:top] + diff[-(top // 2):]:
    print(f"| `{k}` | {f_o2.get(k, 0):,} | {f_pi.get(k, 0):,} | {dd:+,} | {disp.get(k, 0):,} |")
EOF
