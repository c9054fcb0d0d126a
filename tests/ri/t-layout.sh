# The report-group layout byte by byte: layout.c stores groups into its own
# program buffer and checks every field (header, body newest first, filler,
# the SYSINFO extra record with the PERFINST_TOPOLOGY version, the
# instruction record last; BEGIN's nrg updated in place; an rgs change
# rewinds to a new BEGIN).  Then pmopt dump decodes the same groups from
# the trace, and refuses a group whose layout was damaged (CRCs redone, so
# only the decoder's check can catch it).  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
export PERFINST_TOPOLOGY=0-1:primary:0x12345/0x99
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/ri/layout.c" -o layout.o
    pi_ld $opt -o layout layout.o
    PERFINST_OUT=l.pit ./layout > out || { cat out; fail "$opt: layout.c"; }
    assert_contains "$opt: every byte as expected" out "^layout ok"
    "$PMOPT" dump l.pit > d
    cat d
    # the rgs change drained the two rgs-2 groups (seq 0); the rgs-1 group is live (seq 1)
    assert_contains "$opt: the first buffer" d " RI tid [0-9]+, seq 0, rgs 2, ngroups 2, flags 0x0 \(-\), suppressed 0, lost 0$"
    assert_contains "$opt: the second buffer" d " RI tid [0-9]+, seq 1, rgs 1, ngroups 1,"
    python3 - d <<'PY' || fail "$opt: dump of group 0"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("    group 0")
g = [re.sub(r"(addr|target) 0x[0-9a-f]+", r"\1 ADDR", re.sub(r"tod_ns \d+", "tod_ns T", l.strip())) for l in lines[i + 1:i + 9]]
want = ["[0] BEGIN flags 0x0 (-), rgs 2, mode none, nrg 2, tod_ns T",
        "[1] CALL addr ADDR, target ADDR",
        "[2] EMIT addr ADDR, value 3735928559 (0xdeadbeef)",
        "[3] FILLER", "[4] FILLER", "[5] FILLER",
        "[6] EXTRA sysinfo cpu %s, signature 0x00012345, microcode 0x99, capability primary" % g[6].split()[4].rstrip(","),
        "[7] INSTRUCTION flags 0x4 (directed), addr ADDR, units 1"]
assert g == want, "\n".join(g)
PY
    ok "$opt: pmopt dump decodes group 0 record by record"
    # damage: group 1's last record becomes a FILLER; the record CRC is redone
    python3 - l.pit bad.pit <<'PY'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
off = 48
while off < len(d):
    t, sz, crc, h = struct.unpack_from("<IIII", d, off)
    if t == 20:
        p = off + 16
        rgs, ng = struct.unpack_from("<II", d, p + 8)
        gb = 32 << rgs
        last = p + 40 + gb + gb - 16       # group 1, last record
        d[last:last + 16] = bytes(16)
        crc = zlib.crc32(bytes(d[p:p + sz]))
        struct.pack_into("<III", d, off, t, sz, crc)
        struct.pack_into("<I", d, off + 12, zlib.crc32(bytes(d[off:off + 12])))
        break
    off += 16 + sz
open(sys.argv[2], "wb").write(d)
PY
    expect_fail "$opt: a damaged group" "$PMOPT" dump bad.pit
    assert_contains "$opt: ... named" err "BAD: the last record \(7\) is FILLER \(0\), expected INSTRUCTION"
    assert_contains "$opt: ... and the error" err "a report group has a wrong layout"
    rm -f *.pit
done
