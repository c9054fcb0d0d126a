#!/usr/bin/env python3
# jump-slots.py PROGRAM — print the jump slots of PROGRAM's __perfinst_jumps
# section (perfinst-format.h, struct pi_jump_slot), one line per slot:
#   FUNCTION jmp=ADDR clean=ADDR counting=ADDR to=ADDR switch=SYMBOL+OFF
# FUNCTION is the symbol holding the clean address; jmp is the entry's
# `jmp *SLOT(%rip)` (6 bytes before clean); to is the link-time target.
# Reads the ELF with readelf and nm only (no Python ELF module needed).
import bisect, struct, subprocess, sys

prog = sys.argv[1]
sec = None
for line in subprocess.run(['readelf', '-SW', prog], capture_output=True, text=True, check=True).stdout.splitlines():
    f = line.replace('[ ', '[').split()
    if len(f) > 5 and f[1] == '__perfinst_jumps':
        sec = (int(f[3], 16), int(f[4], 16), int(f[5], 16))  # addr, offset, size
if not sec:
    sys.exit(f'{prog}: no __perfinst_jumps section')
addr, off, size = sec
data = open(prog, 'rb').read()[off:off + size]
syms = []
for line in subprocess.run(['nm', '-n', '--defined-only', prog], capture_output=True, text=True, check=True).stdout.splitlines():
    p = line.split()
    if len(p) == 3:
        syms.append((int(p[0], 16), p[2]))
keys = [a for a, _ in syms]
def name(a):
    i = bisect.bisect_right(keys, a) - 1
    return f'{syms[i][1]}+{a - syms[i][0]}' if i >= 0 else hex(a)
for i in range(0, size - size % 24, 24):
    to, clean, counting, sw, _ = struct.unpack_from('<QiiiI', data, i)
    if clean == 0:
        continue
    a = addr + i
    c, k, s = a + 8 + clean, a + 12 + counting, a + 16 + sw
    print(f'{name(c).rsplit("+", 1)[0]} jmp={c - 6:#x} clean={c:#x} counting={k:#x} to={to:#x} switch={name(s)}')
