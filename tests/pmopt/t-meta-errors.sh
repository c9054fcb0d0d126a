#!/bin/bash
# Corrupt .perfinst metadata is refused, naming the file, the section and the
# chunk's offset: bad magic, unknown version, header CRC, a chunk cut short,
# a string offset out of range (the source's, a site's handler), an unknown
# chunk kind; a unit twice with different contents is refused, an identical
# copy is folded; the program's
# cross-checks (pi_meta_validate) catch ranges naming missing units and
# ranges of two units that overlap.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_obj prog

# where lib.o's UNIT chunk lands in the program: after prog.o's .perfinst
# (aligned to 8), lib.o's CODE chunk (16 + 8 + 3 * 40) and 8 bytes of padding
psize=$(readelf -SW prog.o | awk '$2 == ".perfinst" { print $6 }')
unit_off=$(printf '0x%x' $(( (0x$psize + 7) / 8 * 8 + 144 + 8 )))
ok "lib.o's UNIT chunk should be at $unit_off in the program's .perfinst"

check() { # CORRUPTION REGEX
    local c=$1 re=$2
    build_obj lib "$c"
    gcc prog.o lib.o -o "prog-$c"
    run_pmopt dump-meta lib.o
    assert_eq "$c: dump-meta lib.o exit status" 1 "$rc"
    assert_contains "$c: the object is named, with section and chunk offset 0x98" err \
        "^pmopt: lib.o: \.perfinst: chunk at offset 0x98: $re"
    run_pmopt dump-meta "prog-$c"
    assert_eq "$c: dump-meta prog exit status" 1 "$rc"
    assert_contains "$c: the program is named, chunk at $unit_off" err \
        "^pmopt: prog-$c: \.perfinst: chunk at offset $unit_off: $re"
    pigen trace -o "$c.pit" --prog "prog-$c" --unit "$UA=$CA"
    run_pmopt report "prog-$c" "$c.pit"
    assert_eq "$c: report exit status" 1 "$rc"
    assert_contains "$c: report names the program" err "^pmopt: prog-$c: \.perfinst: chunk at offset $unit_off: $re"
}
check magic "bad magic 0xdeadbeef \(expected 0x31544950, \"PIT1\"\)"
check version "version 7 \(this reader knows 2\)"
check crc "hdr_crc mismatch \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\)"
check truncate "truncated chunk: size [0-9]+ runs past the end of the section \([0-9]+ bytes left\)"
check stroff "UNIT 0xb0b0b0b000000002: source: string offset [0-9]+ out of range \(strtab is [0-9]+ bytes\)"
check kind "unknown chunk kind 9"
check handler "UNIT 0xb0b0b0b000000002: site 2: string offset [0-9]+ out of range \(strtab is [0-9]+ bytes\)"
check mark "UNIT 0xb0b0b0b000000002: line 1: unknown mark 9 \(file 0\)"
check via "UNIT 0xb0b0b0b000000002: line 1: a call.s line mark without the line"

# ---- a good program for the rest
build_obj lib
gcc prog.o lib.o -o prog
pigen trace -o a.pit --prog prog --unit "$UA=$CA" --unit "$UB=$CB"

# ---- a unit twice: identical copies fold, different contents are refused
python3 - "$F/lib.json" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
for f in spec["functions"]:
    for s in f["sites"]:
        s["line_of"] = s.pop("marker")      # same lines, no CODE chunk: only the UNIT
json.dump(spec, open("unitonly.json", "w"))
spec["producer"] = "something else"
json.dump(spec, open("different.json", "w"))
PY
pigen meta unitonly.json lib.c > unitonly.s && gcc -c unitonly.s -o unitonly.o
pigen meta different.json lib.c > different.s && gcc -c different.s -o different.o
gcc prog.o lib.o unitonly.o -o prog-same
cp unitonly.o unitonly2.o
gcc prog.o lib.o unitonly.o unitonly2.o -o prog-same3
for p in prog-same prog-same3; do
    run_pmopt dump-meta $p
    [ $rc = 0 ] || { cat err; fail "$p: identical duplicates should fold"; }
    assert_contains "$p: one unit B after folding" out "^$p: .*, 2 units, 11 code ranges"
    pigen trace -o $p.pit --prog $p --unit "$UA=$CA" --unit "$UB=$CB"
    run_pmopt report --format=csv --by=function $p $p.pit
    assert_contains "$p: counts of the folded unit" out "^12,1,0xb0b0b0b000000002,work,lib.c,4,3,work,1,lib.c,0$"
done
gcc prog.o lib.o different.o -o prog-diff
run_pmopt dump-meta prog-diff
assert_eq "different duplicate: exit status" 1 "$rc"
assert_contains "different duplicate: message" err \
    "^pmopt: prog-diff: unit 0xb0b0b0b000000002 appears twice with different contents \(\.perfinst chunk at offset 0x[0-9a-f]+ and \.perfinst chunk at offset 0x[0-9a-f]+\)"
# ... also after an identical copy folded and a later unit moved down
# into its place (the fuzzer's double free): B twice, then C twice, the
# second C different
python3 - unitonly.json <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
spec["unit_id"] = "0xc0c0c0c000000003"
json.dump(spec, open("c1.json", "w"))
spec["producer"] = "something else"
json.dump(spec, open("c2.json", "w"))
PY
for c in c1 c2; do pigen meta $c.json lib.c > $c.s && gcc -c $c.s -o $c.o; done
gcc prog.o lib.o unitonly.o c1.o c2.o -o prog-diff2
run_pmopt dump-meta prog-diff2
assert_eq "folded, then a different duplicate: exit status" 1 "$rc"
assert_contains "folded, then a different duplicate: message" err \
    "^pmopt: prog-diff2: unit 0xc0c0c0c000000003 appears twice with different contents"

# ---- ranges that name a unit the program does not have (fine in an object: -flto)
python3 - "$F/lib.json" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
spec["code_unit_id"] = "0x4242"
json.dump(spec, open("foreign.json", "w"))
PY
cp "$F/lib.c" foreign.c
gcc -S -g -O0 foreign.c -o foreign.s && pigen meta foreign.json foreign.c >> foreign.s && gcc -c foreign.s -o foreign.o
run_pmopt dump-meta foreign.o
[ $rc = 0 ] || { cat err; fail "an object's ranges may name other units (LTO)"; }
assert_contains "listed apart" out "^ranges of units that are not in this file"
gcc prog.o foreign.o -o prog-foreign
run_pmopt dump-meta prog-foreign
assert_eq "program with ranges of a missing unit: exit status" 1 "$rc"
assert_contains "missing unit named" err "^pmopt: prog-foreign: range at 0x[0-9a-f]+ names unit 0x0000000000004242, which is not in the file"

# ---- ranges of two units overlapping (unit A claims the start of work())
python3 - "$F/prog.json" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
spec["functions"][0]["sites"][0]["extra_ranges"] = [["work", 16]]
json.dump(spec, open("overlap.json", "w"))
PY
cp "$F/prog.c" overlap.c
gcc -S -g -O0 overlap.c -o overlap.s && pigen meta overlap.json overlap.c >> overlap.s && gcc -c overlap.s -o overlap.o
run_pmopt dump-meta overlap.o
assert_eq "a range against an undefined symbol: exit status" 1 "$rc"
assert_contains "undefined symbol named" err "^pmopt: overlap.o: \.rela\.perfinst: relocation against undefined symbol"
gcc overlap.o lib.o -o prog-overlap
run_pmopt dump-meta prog-overlap
assert_eq "overlapping units: exit status" 1 "$rc"
assert_contains "overlap named" err "^pmopt: prog-overlap: range \[0x[0-9a-f]+, \+[0-9]+\) of unit 0x[0-9a-f]{16} overlaps range \[0x[0-9a-f]+, \+[0-9]+\) of unit 0x[0-9a-f]{16}"
pigen trace -o overlap.pit --prog prog-overlap --unit "$UA=$CA"
run_pmopt report prog-overlap overlap.pit
assert_eq "report refuses it too" 1 "$rc"
