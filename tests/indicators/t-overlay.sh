# An overlay turns functions off at load time without recompiling and
# without touching .text: the same binary (same .text SHA-256) counts
# loops.c exactly, then with sum_to off counts nothing for it and the rest
# exactly; later lines win; a whole unit can be turned off; malformed
# overlays are reported, never silently ignored.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/loops.c
pi_cc -O2 -g -c "$src" -o l.o
pi_ld -O2 -o loops l.o
text_sha() { objcopy -O binary --only-section=.text loops t.bin && sha256sum < t.bin; }
before=$(text_sha)
unit=$("$PMOPT" dump-meta loops | awk '/^unit / { print $2 }')
fn=$("$PMOPT" dump-meta loops | awk '/^  function [0-9]+ sum_to / { print $2 }')
[ -n "$unit" ] && [ -n "$fn" ] || fail "unit or function number not found in dump-meta"
lines() { "$PMOPT" report ./loops "$1" --by=line --format=csv | awk -F, 'NR > 1 { print $3 "=" $1 }' | sort -n; }

PERFINST_OUT=all.pit ./loops > /dev/null
python3 "$T/count/check-counts.py" "$PMOPT" ./loops "$src" all.pit > c || { cat c; fail "no overlay: counts"; }
ok "no overlay: $(tail -1 c)"

printf 'perfinst-overlay 1\n# sum_to off\noff %s %s\n' "$unit" "$fn" > off.ov
PERFINST_OVERLAY=off.ov PERFINST_OUT=off.pit ./loops > out
assert_eq "output with the overlay" 822 "$(cat out)"
lines all.pit > all.lines
lines off.pit > off.lines
for l in 9 11 12 13 14; do   # sum_to's lines (9: its own, gcov puts it on the first block)
    grep -qx "$l=0" off.lines || { cat off.lines; fail "line $l of sum_to still counted"; }
done
ok "sum_to's lines count 0 with the overlay"
grep -vE "^(9|1[1-4])=" all.lines > rest.all
grep -vE "^(9|1[1-4])=" off.lines > rest.off
diff rest.all rest.off || fail "the other functions' counts changed"
ok "every other line count unchanged"
"$PMOPT" report ./loops off.pit > r.txt 2>&1
assert_contains "report says an overlay was in force" r.txt "PERFINST_OVERLAY turned some functions off"

printf 'perfinst-overlay 1\noff %s *\non %s %s\n' "$unit" "$unit" "$fn" > on.ov
PERFINST_OVERLAY=on.ov PERFINST_OUT=on.pit ./loops > /dev/null
lines on.pit > on.lines
grep -qx "12=63" on.lines || { cat on.lines; fail "sum_to (turned back on) not counted"; }
grep -qx "21=0" on.lines || { cat on.lines; fail "collatz_steps (unit off) counted"; }
ok "a later 'on' wins over 'off *'"

assert_eq ".text SHA-256 unchanged" "$before" "$(text_sha)"

printf 'perfinst-overlay 2\n' > v2.ov
PERFINST_OVERLAY=v2.ov PERFINST_OUT=v2.pit ./loops > /dev/null 2> v2.err
assert_contains "wrong header reported" v2.err "v2.ov:1: the first line must be 'perfinst-overlay 1'"
printf 'perfinst-overlay 1\noff zz 1\nmaybe %s 1\n' "$unit" > bad.ov
PERFINST_OVERLAY=bad.ov PERFINST_OUT=bad.pit ./loops > /dev/null 2> bad.err
assert_contains "bad unit id reported" bad.err "bad.ov:2: bad unit id"
assert_contains "bad rule reported" bad.err "bad.ov:3: not a rule"
PERFINST_OVERLAY=/nonexistent.ov PERFINST_OUT=ne.pit ./loops > /dev/null 2> ne.err
assert_contains "missing overlay file reported" ne.err "/nonexistent.ov: No such file"

# a rule that cannot apply is said, not silently dropped: a function number
# the unit does not have (said when it registers) and a unit id of another
# build (said at exit); the other rules still apply, the output is the same
nf=$("$PMOPT" dump-meta loops | awk '/^  [0-9]+ functions,/ { print $1 }')
[ -n "$nf" ] || fail "number of functions not found in dump-meta"
printf 'perfinst-overlay 1\noff %s %s\noff %s %s\noff 0x1234 0\n' "$unit" "$nf" "$unit" "$fn" > range.ov
PERFINST_OVERLAY=range.ov PERFINST_OUT=range.pit ./loops > range.out 2> range.err
assert_eq "output with the unusable rules" 822 "$(cat range.out)"
assert_contains "function out of range said with file:line and the unit's size" range.err \
    "^perfinst: PERFINST_OVERLAY range.ov:2: function $nf is not in unit $unit \\(it has $nf\\); rule not applied$"
assert_contains "unknown unit said with file:line" range.err \
    "^perfinst: PERFINST_OVERLAY range.ov:4: no module of the program has unit 0x0000000000001234 .*; rule not applied$"
assert_eq "nothing else said" 2 "$(wc -l < range.err)"
lines range.pit | grep -qx "12=0" || fail "the valid rule of range.ov (sum_to off) was not applied"
ok "the valid rule still applied"
PERFINST_OVERLAY=off.ov PERFINST_OUT=quiet.pit ./loops > /dev/null 2> quiet.err
assert_eq "a good overlay says nothing" "" "$(cat quiet.err)"
