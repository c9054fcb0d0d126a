#!/usr/bin/env python3
# jump-slots.py PROGRAM — print the jump slots of PROGRAM (perfinst-format.h:
# struct pi_jump_info in __perfinst_jumpinfo, each naming an 8-byte slot in
# __perfinst_jumps), one line per slot:
#   FUNCTION jmp=ADDR clean=ADDR counting=ADDR to=ADDR switch=SYMBOL+OFF
# FUNCTION is the symbol holding the counting address; jmp is the entry's
# `jmp *SLOT(%rip)` (6 bytes before counting); to is the link-time target.
# Reads the ELF with readelf and nm only (no Python ELF module needed).
import bisect, struct, subprocess, sys

prog = sys.argv[1]
secs = {}
for line in subprocess.run(['readelf', '-SW', prog], capture_output=True, text=True, check=True).stdout.splitlines():
    f = line.replace('[ ', '[').split()
    if len(f) > 5 and f[1] in ('__perfinst_jumps', '__perfinst_jumpinfo'):
        secs[f[1]] = (int(f[3], 16), int(f[4], 16), int(f[5], 16))  # addr, offset, size
if len(secs) != 2:
    sys.exit(f'{prog}: no __perfinst_jumps/__perfinst_jumpinfo sections')
image = open(prog, 'rb').read()
def read(sec):
    addr, off, size = secs[sec]
    return addr, image[off:off + size]
iaddr, info = read('__perfinst_jumpinfo')
saddr, slots = read('__perfinst_jumps')
syms = []
for line in subprocess.run(['nm', '-n', '--defined-only', prog], capture_output=True, text=True, check=True).stdout.splitlines():
    p = line.split()
    if len(p) == 3:
        syms.append((int(p[0], 16), p[2]))
keys = [a for a, _ in syms]
def name(a):
    i = bisect.bisect_right(keys, a) - 1
    return f'{syms[i][1]}+{a - syms[i][0]}' if i >= 0 else hex(a)
for i in range(0, len(info) - len(info) % 16, 16):
    slot, clean, counting, sw = struct.unpack_from('<iiii', info, i)
    if slot == 0:
        continue
    a = iaddr + i
    sl, c, k, s = a + slot, a + 4 + clean, a + 8 + counting, a + 12 + sw
    (to,) = struct.unpack_from('<Q', slots, sl - saddr)
    print(f'{name(k).rsplit("+", 1)[0]} jmp={k - 6:#x} clean={c:#x} counting={k:#x} to={to:#x} switch={name(s)}')
