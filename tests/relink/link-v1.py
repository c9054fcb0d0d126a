#!/usr/bin/env python3
"""link-v1.py OUT.bin CWD OUTPUT ARG... — a version 1 LINK chunk (the gcc-level
recipe of perfinst-ld before the link stage: a 24-byte pi_link, no inputs),
for t-refuse.sh to put into a program with objcopy."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pifmt import LINK, Strtab, chunk_header, pad8  # noqa: E402

out, cwd, output, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
st = Strtab()
argv_off = len(st.data)
for a in args:  # consecutive, even when equal
    st.data += a.encode() + b"\0"
cwd_off, out_off = st.add(cwd), st.add(output)
body = struct.pack("<IIIIII", len(args), argv_off, cwd_off, out_off, 0, len(st.data)) + st.data
size = len(pad8(b"\0" * 16 + body))
open(out, "wb").write(pad8(chunk_header(LINK, size, version=1) + body))
