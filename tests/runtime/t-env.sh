#!/bin/bash
# PERFINST_MODE (the mode register), PERFINST_LINE_SIZE, PERFINST_VERBOSE,
# and malformed values reported once on stderr.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"

PERFINST_MODE=off ./prog mode 4 > out 2> err
assert_contains "off: mode words 0 from the start" out "^before: mode=0 word=0$"
assert_contains "perfinst_enable sets them" out "^enabled: mode=1 word=1$"
assert_contains "perfinst_disable clears them" out "^disabled: mode=0 word=0$"
assert_eq "no message" "" "$(cat err)"
f=$(only_trace "perfinst.prog.*.pit")
dump "$f"
assert_contains "header flag" "$f.txt" "^header version=1 flags=0x2 mode_off=1 "
assert_contains "counted only while enabled" "$f.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=4,0,0$"
assert_not_contains "main's unit, 0 while off, writes no counts" "$f.txt" "^counts unit=0xb0b "
rm -f perfinst.*

PERFINST_MODE=on ./prog mode 4 > out 2> err
assert_contains "on" out "^before: mode=1 word=1$"
assert_eq "no message" "" "$(cat err)"
f=$(only_trace "perfinst.prog.*.pit")
dump "$f"
assert_contains "on: header" "$f.txt" "^header version=1 flags=0x0 "
assert_contains "on: counts" "$f.txt" "counts=8,0,0$"
rm -f perfinst.*

PERFINST_MODE=sometimes ./prog count 3 2> err
assert_eq "one message for a bad PERFINST_MODE" 1 "$(wc -l < err)"
assert_contains "it names variable and value" err "^perfinst: PERFINST_MODE=sometimes: expected on or off"
f=$(only_trace "perfinst.prog.*.pit")
dump "$f"
assert_contains "bad value: counting on" "$f.txt" "counts=3,1,0$"
rm -f perfinst.*

PERFINST_LINE_SIZE=100 ./prog count 1 2> err
assert_eq "one message for a bad PERFINST_LINE_SIZE" 1 "$(wc -l < err)"
assert_contains "line size message" err "^perfinst: PERFINST_LINE_SIZE=100: expected a power of two from 16 to 1024"
PERFINST_LINE_SIZE=2048 ./prog count 1 2> err
assert_contains "too large" err "PERFINST_LINE_SIZE=2048"
rm -f perfinst.*
PERFINST_LINE_SIZE=128 ./prog count 1
f=$(only_trace "perfinst.prog.*.pit")
dump "$f"
assert_contains "header line size" "$f.txt" "^header .* line_size=128 "
rm -f perfinst.*

PERFINST_VERBOSE=1 ./prog count 1 2> err
f=$(only_trace "perfinst.prog.*.pit")
assert_contains "verbose: where the trace went" err "^perfinst: trace written to $PWD/$f$"
PERFINST_VERBOSE=yes ./prog count 1 2> err
assert_contains "bad PERFINST_VERBOSE" err "^perfinst: PERFINST_VERBOSE=yes: expected 0 or 1"
