#!/bin/bash
# Traces that are cut short are read up to their last complete record, with
# the message; traces that are not traces (bad magic, unknown version, bad
# header CRC, too short) are refused naming the file.
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_prog
pigen trace -o full.pit --prog prog --unit "$UA=$CA" --unit "$UB=$CB"
pigen offsets full.pit > offs
cat offs
# records: 0 PROCESS, 1 MODULE, 2 COUNTS (A), 3 COUNTS (B), 4 END
mapfile -t starts < <(awk '$1 != "end" { print $2 }' offs)
end=$(awk '$1 == "end" { print $2 }' offs)
[ "$end" = "$(stat -c %s full.pit)" ] || fail "offsets do not cover the file"

# ---- cut at many offsets: the complete records before the cut are used
cuts="48 49 63 64"
for s in "${starts[@]:1}"; do cuts="$cuts $((s - 1)) $s $((s + 1)) $((s + 16)) $((s + 17))"; done
cuts="$cuts $((end - 1))"
for cut in $cuts; do
    head -c "$cut" full.pit > cut.pit
    n=0; at=48
    for i in "${!starts[@]}"; do
        nxt=${starts[$((i + 1))]:-$end}
        if [ "$nxt" -le "$cut" ]; then n=$((i + 1)); at=$nxt; fi
    done
    run_pmopt dump cut.pit
    [ $rc = 0 ] || { cat err; fail "dump of a trace cut at $cut exited $rc"; }
    msg=$(printf 'cut.pit: truncated after %d complete records \\(offset 0x%x[:)]' "$n" "$at")
    grep -Eq "$msg" err || { cat err; fail "cut at $cut: expected /$msg/"; }
    [ "$(grep -c '^#' out)" = "$n" ] || fail "cut at $cut: dump printed $(grep -c '^#' out) records, expected $n"
done
ok "cut at $(echo $cuts | wc -w) offsets: each read up to its last complete record"

# ---- report on a cut trace: the counts up to there
head -c $((starts[3] + 20)) full.pit > cut.pit   # inside the COUNTS record of unit B
run_pmopt report --format=json prog cut.pit
[ $rc = 0 ] || { cat err; fail "report of a cut trace exited $rc"; }
assert_contains "report says it" err "cut.pit: truncated after 3 complete records \(offset 0x$(printf %x "${starts[3]}")\): the program may have crashed; counts up to there are used"
python3 -c "
import json; r=json.load(open('out')); s={(x['unit'],x['site']):x['count'] for x in r['sites']}
assert s[('0xa0a0a0a000000001',6)]==11 and s[('0xb0b0b0b000000002',1)]==0, s
assert r['traces'][0]['truncated'] is True and r['traces'][0]['records']==3" || fail "cut counts"
ok "unit A counted, unit B (cut) not"

# ---- a trace that ends on a record boundary without END
pigen trace -o noend.pit --prog prog --no-end --unit "$UA=$CA"
run_pmopt dump noend.pit
[ $rc = 0 ] || fail "no END: exit $rc"
assert_contains "no END" err "noend.pit: truncated after 3 complete records \(offset 0x[0-9a-f]+: no END record\)"

# ---- a record whose payload CRC is wrong: the records before it are used
pigen trace -o badcrc.pit --prog prog --bad-rec-crc 2 --unit "$UA=$CA" --unit "$UB=$CB"
run_pmopt dump badcrc.pit
[ $rc = 0 ] || fail "bad record CRC: exit $rc"
assert_contains "payload CRC" err "badcrc.pit: truncated after 2 complete records \(offset 0x$(printf %x "${starts[2]}"): payload CRC mismatch\)"
cp full.pit badh.pit
pigen poke badh.pit $((starts[1] + 2)) 0x40       # inside MODULE's record header
run_pmopt report prog badh.pit
[ $rc = 0 ] || fail "bad record header CRC: exit $rc"
assert_contains "record header CRC" err "badh.pit: truncated after 1 complete records \(offset 0x$(printf %x "${starts[1]}"): record header CRC mismatch\)"
assert_contains "no modules: a note" err "badh.pit has no MODULE records"

# ---- not traces: refused, naming the file
refuse() { # WHAT FILE REGEX
    run_pmopt dump "$2"
    assert_eq "$1: dump exit status" 1 "$rc"
    assert_contains "$1: dump names the file" err "$3"
    run_pmopt report prog "$2"
    assert_eq "$1: report exit status" 1 "$rc"
    assert_contains "$1: report names the file" err "$3"
    run_pmopt merge -o m.pit "$2"
    assert_eq "$1: merge exit status" 1 "$rc"
}
pigen trace -o magic.pit --prog prog --magic PERFINSX --unit "$UA=$CA"
refuse "bad magic" magic.pit "magic.pit: not a perfinst trace \(bad magic\)"
pigen trace -o v7.pit --prog prog --version 7 --unit "$UA=$CA"
refuse "unknown version" v7.pit "v7.pit: trace version 7 \(this reader knows 1\)"
pigen trace -o hcrc.pit --prog prog --bad-hdr-crc --unit "$UA=$CA"
refuse "header CRC" hcrc.pit "hcrc.pit: trace header CRC mismatch"
cp full.pit flip.pit; pigen poke flip.pit 20 0x01     # pid changed under the CRC
refuse "corrupt header" flip.pit "flip.pit: trace header CRC mismatch"
: > empty.pit
refuse "empty file" empty.pit "empty.pit: not a perfinst trace \(empty file\)"
head -c 20 full.pit > short.pit
refuse "shorter than a header" short.pit "short.pit: not a perfinst trace \(20 bytes, shorter than the 48-byte header\)"
cp prog elf.pit
refuse "an ELF file" elf.pit "elf.pit: not a perfinst trace \(bad magic\)"
refuse "missing file" nosuch.pit "nosuch.pit: No such file"

# ---- a record that is consistent with its CRC but not with itself: hard error
python3 - <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["PERFINST_TOP"], "tests"))
from pifmt import trace_header, trace_record as rec
hdr = trace_header()
# COUNTS says 9 counters but carries 2
open("liar.pit", "wb").write(hdr + rec(3, struct.pack("<QII", 1, 0, 9) + bytes(16)))
# an unknown record type is skipped
open("unknown.pit", "wb").write(hdr + rec(200, bytes(8)) + rec(5, struct.pack("<II", 1, 0)))
PY
run_pmopt dump liar.pit
assert_eq "inconsistent record: exit status" 1 "$rc"
assert_contains "inconsistent record: message" err "liar.pit: record 0 \(COUNTS\) at offset 0x30: 9 counters need 88 bytes, the record has 32"
run_pmopt dump unknown.pit
assert_eq "unknown record type: exit status" 0 "$rc"
assert_contains "unknown record type: shown" out "^#0 @0x30 \? type 200, 8 bytes \(unknown to this pmopt; skipped\)"
assert_contains "unknown record type: END after it" out "^#1 @0x48 END nrecords 1"
