#!/bin/bash
# common/pifeedback: the feedback file's writer and its one reader — round
# trip with escapes, selection by number, and refusal (with file:line and the
# problem) of truncated, corrupt, foreign, newer and malformed files.
source "$PERFINST_TOP/tests/lib.sh"
gcc -std=gnu11 -Wall -Werror -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/common" \
    "$T/common/fbtool.c" "$B/libpicommon.a" -o fbtool
./fbtool write fb
ls fb.tmp.* 2>/dev/null && fail "the writer left its temporary behind"
./fbtool read fb > out
cat out
assert_eq "header" "program=[/tmp/a prog] build=0x1234abcd" "$(sed -n 1p out)"
assert_eq "rec 1" "1 align-global [name]=[counters] [align]=[64]" "$(sed -n 2p out)"
assert_eq "rec 2 (escapes)" "2 pad-field [type]=[struct stats] [field]=[a=b%c#d]" "$(sed -n 3p out)"
assert_eq "rec 3" "3 order [functions]=[main,f,g]" "$(sed -n 4p out)"
assert_contains "comments kept for people" fb "^# second line$"

./fbtool read fb 1,3 > sel
assert_eq "selection keeps 1 and 3" "1 align-global|3 order" "$(sed -n '2,$p' sel | cut -d' ' -f1,2 | paste -sd'|')"
./fbtool read fb 2-3 > sel
assert_eq "range selection" "2|3" "$(sed -n '2,$p' sel | cut -d' ' -f1 | paste -sd'|')"
expect_fail "select a number the file lacks" ./fbtool read fb 1,7
assert_contains "names the number" err "fb: has no recommendation 7"
expect_fail "malformed list" ./fbtool read fb 1,,x
assert_contains "says the list is bad" err "bad recommendation list"

# Comments may be added by hand; anything else edited breaks the checksum.
{ echo "# my note"; cat fb; } > commented; ./fbtool read commented > /dev/null
ok "hand-added comments are accepted"
sed 's/align=64/align=32/' fb > edited
expect_fail "edited recommendation" ./fbtool read edited
assert_contains "checksum mismatch at the trailer" err "^edited:[0-9]+: checksum mismatch"
head -c -1 fb > trunc1
expect_fail "last newline cut" ./fbtool read trunc1
assert_contains "truncated" err "trunc1:[0-9]+: truncated"
grep -v '^end ' fb > trunc2
expect_fail "no trailer" ./fbtool read trunc2
assert_contains "truncated, no trailer" err "trunc2: truncated: no 'end' trailer"
sed 's/^perfinst-feedback [0-9]*/perfinst-feedback 9/' fb > newer
expect_fail "newer version" ./fbtool read newer
assert_contains "version named" err "newer:1: feedback format version 9"
printf 'perfinst-overlay 1\noff 0x1 *\n' > overlay
expect_fail "foreign file" ./fbtool read overlay
assert_contains "foreign" err "overlay:1: not a perfinst feedback file"
expect_fail "binary file" ./fbtool read "$B/pmopt"
expect_fail "missing file" ./fbtool read nosuch
assert_contains "errno message" err "nosuch: No such file"
printf 'perfinst-feedback 1\n1 k a=1\n1 k b=2\nend 2 0x0\n' > dup
expect_fail "duplicate number" ./fbtool read dup
assert_contains "duplicate" err "dup:3: recommendation 1 given twice \(also line 2\)"
printf 'perfinst-feedback 1\n1 k novalue\nend 1 0x0\n' > kv
expect_fail "missing =" ./fbtool read kv
assert_contains "key=value" err "kv:2: expected key=value"
printf 'perfinst-feedback 1\n1 k a=%%4\nend 1 0x0\n' > esc
expect_fail "bad escape" ./fbtool read esc
assert_contains "escape" err "esc:2: bad %XX escape"
