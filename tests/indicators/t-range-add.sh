# perfinst_range_add (rangeadd.c at -O1 -g, the real plugin and runtime),
# through the RANGE records and `pmopt report --by=regions`:
#  - "work" (work's span from nm -S): visits 7 (the calls from main), and
#    instructions = Σ count × instructions over the blocks whose code lies
#    in the span, the instructions counted here by objdump in each block's
#    range (perfinst's own counter updates left out) and the counts taken
#    from the per-site csv, not from pmopt's sums;
#  - "other-late", added after 3 of other's 7 calls: 7 visits (ranges are
#    resolved from the whole run's counts);
#  - "loop", the code of work's loop block only: visits 7 (the edge into
#    it), blocks 35 (7 calls × 5 trips);
#  - "rec", called twice from main and recursing 3 deep: visits 2 (the 6
#    calls from inside the range are no visits), its entry block 8 times;
#  - bad calls (NULL/empty/long name, lo >= hi, heap, libc, a range that
#    leaves the program) return -1 with EINVAL or ENXIO;
#  - a RANGE record with a bad name length or lo >= hi is refused, naming
#    the file and the record; a trace cut inside one is read as truncated.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O1 -g -c "$T/indicators/rangeadd.c" -o rangeadd.o
pi_ld -O1 -o rangeadd rangeadd.o
nm -S rangeadd > syms
W=$(awk '$4 == "work" {print $2}' syms)
O=$(awk '$4 == "other" {print $2}' syms)
R=$(awk '$4 == "rec" {print $2}' syms)
[ -n "$W" ] && [ -n "$O" ] && [ -n "$R" ] || fail "no size of work, other or rec in nm -S"
"$PMOPT" dump-meta rangeadd > meta 2> meta.err || fail "dump-meta: $(cat meta.err)"
# the loop block: the site of work that is its own successor
read -r LOFF LLEN < <(python3 - <<'PY'
import re
syms = {l.split()[3]: int(l.split()[0], 16) for l in open("syms") if len(l.split()) == 4}
first, last, loop = None, None, None
for l in open("meta"):
    m = re.match(r"  function \d+ work .*: sites (\d+)\.\.(\d+)", l)
    if m:
        first, last = int(m.group(1)), int(m.group(2))
    m = re.match(r"  site (\d+): block, .*successors ([0-9 -]+)", l)
    if m and first <= int(m.group(1)) <= last and m.group(1) in m.group(2).split():
        loop = int(m.group(1))
rs = [l.split() for l in open("meta") if l.startswith("  0x") and l.split()[4] == str(loop)]
assert len(rs) == 1, ("the loop block has one range", loop, rs)
print("%x %x" % (int(rs[0][0], 16) - syms["work"], int(rs[0][2])))
PY
)
[ -n "$LLEN" ] || fail "no loop block found in work"
PERFINST_OUT=r.pit ./rangeadd "$W" "$O" "$LOFF" "$LLEN" "$R" > out || { cat out; fail "rangeadd failed"; }
cat out
assert_eq "program output (10·21 + 7·5·9 + 2·21: sink is 9 when work runs)" 567 "$(head -1 out)"
assert_eq "8 bad calls refused with the documented errno" 8 "$(grep -c ': refused (rc -1' out)"
"$PMOPT" dump r.pit > dump
assert_eq "four RANGE records" 4 "$(grep -c ' RANGE "' dump)"
"$PMOPT" report --format=csv --by=site rangeadd r.pit > sites.csv 2> err
"$PMOPT" report --format=json --by=regions rangeadd r.pit > rep.json 2>> err
"$PMOPT" report --by=regions rangeadd r.pit > rep.txt 2>> err
"$PMOPT" report --format=csv --by=regions rangeadd r.pit > rep.csv 2>> err
cat rep.txt

python3 - <<'PY' || fail "runtime ranges differ from the independent computation"
import csv, json, re, subprocess
syms = {l.split()[3]: (int(l.split()[0], 16), int(l.split()[1], 16))
        for l in open("syms") if len(l.split()) == 4}
ranges = {}   # site -> [(addr, length, insns)]
for l in open("meta"):
    f = l.split()
    if l.startswith("  0x") and len(f) >= 15 and f[4].isdigit() and int(f[0], 16):
        ranges.setdefault(int(f[4]), []).append((int(f[0], 16), int(f[2]), int(f[7])))
count = {int(r["site"]): int(r["count"]) for r in csv.DictReader(open("sites.csv"))}
def objdump_insns(a, n):
    if n == 0:
        return 0
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=%d" % a,
                          "--stop-address=%d" % (a + n), "rangeadd"], capture_output=True,
                         text=True, check=True).stdout
    k = 0
    for l in out.splitlines():
        m = re.match(r"\s+[0-9a-f]+:\t(.*)", l)
        # perfinst's own instructions are not the program's
        if m and "%fs:" not in m.group(1) and "<__perfinst_" not in m.group(1):
            k += 1
    return k
def expect(lo, hi):
    insns, blocks, sites = 0, 0, 0
    for s, rs in ranges.items():
        if all(lo <= a and a + n <= hi for a, n, _ in rs):
            assert len(rs) == 1, ("one range per site at -O1 in this fixture", s, rs)
            a, n, meta_insns = rs[0]
            k = objdump_insns(a, n)
            assert k == meta_insns, ("objdump and the metadata disagree", s, k, meta_insns)
            insns += count.get(s, 0) * k
            blocks += count.get(s, 0)
            sites += 1
    return insns, blocks, sites
rep = {g["range"]: g for g in json.load(open("rep.json"))["runtime_ranges"]}
assert sorted(rep) == ["loop", "other-late", "rec", "work"], rep
(wa, ws), (oa, osz), (ra, rsz) = syms["work"], syms["other"], syms["rec"]
for name, lo, hi, visits in (("work", wa, wa + ws, 7), ("other-late", oa, oa + osz, 7),
                             ("loop", rep["loop"]["lo"], rep["loop"]["hi"], 7),
                             ("rec", ra, ra + rsz, 2)):
    g = rep[name]
    insns, blocks, sites = expect(lo, hi)
    assert (g["lo"], g["hi"]) == (lo, hi), (name, g, lo, hi)
    assert g["visits"] == visits, (name, g)
    assert not g["approximate"], (name, g)
    assert g["instructions"] == insns and insns > 0, (name, g, insns)
    assert g["blocks"] == blocks and g["sites"] == sites, (name, g, blocks, sites)
    assert g["partial_sites"] == 0, (name, g)
    print("%s: visits %d, blocks %d, instructions %d (independently %d)" %
          (name, g["visits"], g["blocks"], g["instructions"], insns))
assert rep["loop"]["blocks"] == 35, rep["loop"]     # 7 calls x 5 trips
entry = min(s for s, rs in ranges.items() if all(ra <= a < ra + rsz for a, _, _ in rs))
assert count[entry] == 8, ("rec entered 8 times", entry, count)
assert wa <= rep["loop"]["lo"] < rep["loop"]["hi"] <= wa + ws, rep["loop"]
rows = [r for r in csv.DictReader(open("rep.csv")) if r["kind"] == "runtime"]
assert sorted(r["region"] for r in rows) == sorted(rep), rows
for r in rows:
    g = rep[r["region"]]
    assert (int(r["lo"], 16), int(r["hi"], 16)) == (g["lo"], g["hi"]), (r, g)
    assert [int(r[k]) for k in ("visits", "blocks", "instructions", "sites")] == \
        [g["visits"], g["blocks"], g["instructions"], g["sites"]], (r, g)
PY
ok "work: visits 7, other-late (added late): visits 7, loop: visits 7 and 35 blocks, rec: visits 2 of 8 entries; instructions = objdump's x counts"
assert_contains "text: the range work" rep.txt "^ +7 +[0-9]+ +[0-9]+  work "

# bad RANGE records: CRCs right, contents wrong
python3 - <<'PY'
import struct, zlib
crc = lambda b: zlib.crc32(b) & 0xFFFFFFFF
data = open("r.pit", "rb").read()
def records():
    off = 48
    while off + 16 <= len(data):
        t, size = struct.unpack_from("<II", data, off)
        yield off, t, size
        off += 16 + size
def rewrite(path, fix):
    for off, t, size in records():
        if t == 55:
            p = bytearray(data[off + 16:off + 16 + size])
            fix(p)
            h = struct.pack("<III", t, len(p), crc(bytes(p)))
            out = data[:off] + h + struct.pack("<I", crc(h)) + bytes(p) + data[off + 16 + size:]
            open(path, "wb").write(out)
            return off
def long_name(p):
    struct.pack_into("<I", p, 4, 200)
def reversed_range(p):
    lo, hi = struct.unpack_from("<QQ", p, 8)
    struct.pack_into("<QQ", p, 8, hi, lo)
def bad_module(p):
    struct.pack_into("<I", p, 0, 9)
rewrite("bad-name.pit", long_name)
rewrite("bad-lohi.pit", reversed_range)
rewrite("bad-module.pit", bad_module)
off = next(o for o, t, s in records() if t == 55)
open("cut.pit", "wb").write(data[:off + 16 + 10])
PY
for b in name lohi module; do
    if "$PMOPT" report --by=regions rangeadd bad-$b.pit > /dev/null 2> bad-$b.err; then
        fail "bad-$b.pit was accepted"
    fi
    cat bad-$b.err
done
assert_contains "a name that does not fit is refused" bad-name.err "bad-name.pit: record [0-9]+ \(RANGE\) at offset 0x[0-9a-f]+: name of 200 bytes"
assert_contains "lo >= hi is refused" bad-lohi.err "bad-lohi.pit: record [0-9]+ \(RANGE\) at offset 0x[0-9a-f]+: range \"work\" is empty or reversed"
assert_contains "an unknown module is refused" bad-module.err "bad-module.pit: RANGE \"work\" names module 9, which has no MODULE record"
"$PMOPT" report --by=regions rangeadd cut.pit > cut.txt 2> cut.err || fail "a cut trace: $(cat cut.err)"
assert_contains "a trace cut inside a RANGE record is truncated" cut.err "truncated"
assert_contains "a trace cut before the ranges has none" cut.txt "none: the traces have no RANGE record"
ok "bad RANGE records refused with file, record and problem; a cut trace read up to its last record"

# pmopt merge keeps the ranges (module-relative, one of each, in an order of
# their own): two runs merged give twice the visits and instructions
PERFINST_OUT=r2.pit ./rangeadd "$W" "$O" "$LOFF" "$LLEN" "$R" > /dev/null
"$PMOPT" merge -o m12.pit r.pit r2.pit > /dev/null
"$PMOPT" merge -o m21.pit r2.pit r.pit > /dev/null
"$PMOPT" dump m12.pit | grep ' RANGE "' | sed 's/^#[0-9]* @0x[0-9a-f]* //' > m12.ranges
"$PMOPT" dump m21.pit | grep ' RANGE "' | sed 's/^#[0-9]* @0x[0-9a-f]* //' > m21.ranges
assert_eq "four RANGE records in the merged trace" 4 "$(wc -l < m12.ranges)"
cmp -s m12.ranges m21.ranges || fail "the merged ranges depend on the order of the inputs"
"$PMOPT" report --format=json --by=regions rangeadd m12.pit > m.json
python3 - <<'PY' || fail "the merged trace's ranges are not twice one run's"
import json
one = {g["range"]: g for g in json.load(open("rep.json"))["runtime_ranges"]}
two = {g["range"]: g for g in json.load(open("m.json"))["runtime_ranges"]}
assert sorted(one) == sorted(two), (one, two)
for k in one:
    for f in ("visits", "blocks", "instructions"):
        assert two[k][f] == 2 * one[k][f], (k, f, one[k], two[k])
    assert (two[k]["lo"], two[k]["hi"]) == (one[k]["lo"], one[k]["hi"]), (one[k], two[k])
print("merged: work visits %d, rec visits %d" % (two["work"]["visits"], two["rec"]["visits"]))
PY
ok "pmopt merge keeps the ranges, independent of the order; the merged counts are twice one run's"
