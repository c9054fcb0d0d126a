#!/usr/bin/env python3
"""link-v1.py OUT.bin CWD OUTPUT ARG... — a version 1 LINK chunk (the gcc-level
recipe of perfinst-ld before the link stage: a 24-byte pi_link, no inputs),
for t-refuse.sh to put into a program with objcopy."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pifmt import link_chunk  # noqa: E402

out, cwd, output, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
open(out, "wb").write(link_chunk(args, cwd, output, version=1))
