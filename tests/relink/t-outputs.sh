#!/bin/bash
# Every output pmopt writes whole (common/piout.h: a temporary file renamed
# over it) is written to, not replaced, when it is a FIFO or a device: plan's
# feedback file (-o FEEDBACK) and overlay (--hot -o OVERLAY), merge -o and
# relink -o.  Each goes through a FIFO read by `cat` (the bytes that come
# out equal those of a regular output) and, as root, to a character
# device made here (never the real /dev/null: a rename over it once made it
# an executable for every process on the machine).  A relink that fails
# writes nothing into the FIFO; to a regular file it leaves no temporary
# directory.  (perfinst-ld's own output: linker/t-plain.sh.)
. "$PERFINST_TOP/tests/lib.sh"
build_hot
PERFINST_OUT=a.pit ./hot 2000 > /dev/null
PERFINST_OUT=b.pit ./hot 777 banner > /dev/null

# The regular outputs, to compare with.
"$PMOPT" plan --order=c3 -o plan.fb hot a.pit > /dev/null
"$PMOPT" plan --hot -o hot.ov hot a.pit > /dev/null
"$PMOPT" merge -o ab.pit a.pit b.pit > /dev/null
"$PMOPT" relink hot --feedback plan.fb -o hot.rel > /dev/null
assert_eq "no temporary directory beside regular outputs" "" "$(ls -A | grep -E '^\.pmopt|^\.pi' || true)"

# Through a FIFO: the same bytes (the feedback file names PROG and no
# output; the merged trace its inputs' contents only).
through_fifo fb.fifo fb.copy "$PMOPT" plan --order=c3 -o fb.fifo hot a.pit > /dev/null
assert_eq "plan -o FIFO: exit status" 0 "$fifo_rc"
cmp plan.fb fb.copy || fail "the feedback file through the FIFO differs"
ok "plan -o FIFO: the same feedback file came through"
through_fifo ov.fifo ov.copy "$PMOPT" plan --hot -o ov.fifo hot a.pit > /dev/null
assert_eq "plan --hot -o FIFO: exit status" 0 "$fifo_rc"
cmp hot.ov ov.copy || fail "the overlay through the FIFO differs"
ok "plan --hot -o FIFO: the same overlay came through"
through_fifo ab.fifo ab.copy "$PMOPT" merge -o ab.fifo a.pit b.pit > /dev/null
assert_eq "merge -o FIFO: exit status" 0 "$fifo_rc"
cmp ab.pit ab.copy || fail "the merged trace through the FIFO differs"
ok "merge -o FIFO: the same merged trace came through"
through_fifo rel.fifo rel.copy "$PMOPT" relink hot --feedback plan.fb -o rel.fifo --smoke 500 > rel.out
cat rel.out
assert_eq "relink -o FIFO: exit status" 0 "$fifo_rc"
assert_contains "relink -o FIFO: smoke-tested first" rel.out "smoke test '500': same output"
chmod +x rel.copy
for in in "2000" "777 banner"; do
    ./hot $in > a.out 2>&1; ./rel.copy $in > b.out 2>&1
    cmp a.out b.out || fail "the relinked program from the FIFO: output differs on '$in'"
done
assert_eq "relink -o FIFO: the same text as to a file" \
    "$(nm -n hot.rel | awk '$2 ~ /^[tT]$/' | md5sum)" "$(nm -n rel.copy | awk '$2 ~ /^[tT]$/' | md5sum)"
# A relink that fails (a feedback file of another program) writes nothing.
printf 'perfinst-feedback 1\n' > bad.fb
through_fifo bad.fifo bad.copy "$PMOPT" relink hot --feedback bad.fb -o bad.fifo > /dev/null 2> bad.err
[ "$fifo_rc" != 0 ] || fail "relink with a bad feedback file succeeded"
assert_eq "a failed relink wrote nothing into the FIFO" 0 "$(stat -c %s bad.copy)"
assert_eq "no temporary directory left" "" "$(ls -A | grep -E '^\.pmopt|^\.pi' || true)"

# To a character device (root only).
if null_device nul; then
    "$PMOPT" plan --order=c3 -o nul hot a.pit > /dev/null
    assert_null_device "plan -o DEVICE" nul
    "$PMOPT" plan --hot -o nul hot a.pit > /dev/null
    assert_null_device "plan --hot -o DEVICE" nul
    "$PMOPT" merge -o nul a.pit b.pit > /dev/null
    assert_null_device "merge -o DEVICE" nul
    "$PMOPT" relink hot --feedback plan.fb -o nul > /dev/null
    assert_null_device "relink -o DEVICE" nul
fi
[ -c /dev/null ] || fail "/dev/null is not a character device any more"
