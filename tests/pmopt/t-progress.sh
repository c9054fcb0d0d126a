#!/bin/bash
# Progress on long operations: merge and report of 300 traces show
# "reading traces N/300" on stderr when it is a terminal (a pty made by
# script(1)), erased at the end; with stderr a file, nothing at all; the
# results are the same either way.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_prog
pigen trace -o a.pit --prog prog --pid 100 --unit "$UA=$CA" --unit "$UB=$CB"
mkdir many
# 300 runs (a pid each: merge refuses one run given twice)
python3 - <<'PY'
import struct, zlib
d = bytearray(open("a.pit", "rb").read())
for i in range(1, 301):
    struct.pack_into("<Q", d, 16, 100 + i)
    struct.pack_into("<I", d, 44, zlib.crc32(bytes(d[:44])))
    open("many/%d.pit" % i, "wb").write(d)
PY

"$PMOPT" merge -o file.pit many/*.pit 2> err
assert_eq "merge, stderr a file: nothing on it" "" "$(cat err)"
script -qec "'$PMOPT' merge -o tty.pit many/*.pit" /dev/null > tty.out
assert_contains "merge on a terminal: progress" tty.out "pmopt: reading traces [0-9]+/300 \([0-9]+%\)"
assert_contains "the line is erased at the end" tty.out $'\r\e\\[K'
cmp file.pit tty.pit || fail "merge output differs with a terminal"
ok "same merged trace"

"$PMOPT" report --by=function ./prog many/*.pit > file.txt 2> err
assert_eq "report, stderr a file: nothing on it" "" "$(cat err)"
script -qec "'$PMOPT' report --by=function ./prog many/*.pit 2>/dev/tty >tty.txt" /dev/null > tty.out
assert_contains "report on a terminal: progress" tty.out "pmopt: reading traces [0-9]+/300"
cmp file.txt tty.txt || fail "report output differs with a terminal"
ok "same report"
