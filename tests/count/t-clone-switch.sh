# A clone GCC made (ipa-cp's work.constprop.0) follows the switch of the
# function it was cloned from, not the mode register: with
# entry=jump its jump slot's info names `__perfinst_fnon+1`
# (jump-slots.py), with entry=test it tests `cmpb $0, __perfinst_fnon+1`.
# An overlay that turns work off silences the clone too (its 7 entries and
# 2821 blocks become 0) while main still counts; the program's output
# never changes.  The counts are those of count-at=cfg (work's blocks
# before the early optimisations) and of count-at=late, the default.
. "$PERFINST_TOP/tests/lib.sh"
clone_s() { objdump -d --no-show-raw-insn "$1" | awk '/^[0-9a-f]+ <work[.][a-z]+[.][0-9]+>:/ { f = 1; next } /^$/ { f = 0 } f'; }
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-entry=test -c "$T/count/clone.c" -o ctest.o
pi_ld -O2 -o ctest ctest.o
clone_s ctest > ctest.s
[ -s ctest.s ] || fail "GCC made no clone of work (nm: $(nm ctest | grep work))"
assert_contains "entry=test: the clone tests work's switch" ctest.s 'cmpb +\$0x0,.*<__perfinst_fnon\+0x1>'
assert_not_contains "entry=test: the clone does not read the mode register" ctest.s '__perfinst_on'
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-entry=jump \
    -c "$T/count/clone.c" -o clone.o
pi_ld -O2 -o clone clone.o
clone_s clone > clone.s
[ -s clone.s ] || fail "GCC made no clone of work (nm: $(nm clone | grep work))"
python3 "$T/count/jump-slots.py" clone > slots
cat slots
assert_contains "the clone's jump slot follows work's switch" slots '^work[.][a-z]+[.][0-9]+ .* switch=__perfinst_fnon[+]1$'
assert_not_contains "the clone reads neither a switch byte nor the mode register" clone.s '__perfinst_fnon|__perfinst_on'
"$PMOPT" dump-meta clone > meta
unit=$(awk '/^unit / { print $2 }' meta)
assert_eq "work is function 1" 1 "$(awk '$1 == "function" && $3 == "work" { print $2 }' meta)"
row() { "$PMOPT" report "${3:-./clone}" "$1" --by=function --format=csv | awk -F, -v n="$2" '$4 == n { print $1 "," $2 }'; }
PERFINST_OUT=all.pit ./clone > out
assert_eq "output" 208614 "$(cat out)"
assert_eq "work counted (blocks,entries)" "2821,7" "$(row all.pit work)"
printf 'perfinst-overlay 1\noff %s 1\n' "$unit" > ov
PERFINST_OVERLAY=ov PERFINST_OUT=ov.pit ./clone > out
assert_eq "output under the overlay" 208614 "$(cat out)"
assert_eq "work and its clone off" "" "$(row ov.pit work | grep -v '^0,0$')"
assert_eq "main still counted" "219,1" "$(row ov.pit main)"

# count-at=late (ctest, entry=test): work's loop is three blocks after the
# early optimisations (the ?: is a select), run 100, 100 and 101 times per
# call, and four more blocks 5 times per call: 7 x 305
"$PMOPT" dump-meta ctest > meta
printf 'perfinst-overlay 1\noff %s %s\n' "$(awk '/^unit / { print $2 }' meta)" \
    "$(awk '$1 == "function" && $3 == "work" { print $2 }' meta)" > ovt
PERFINST_OUT=late.pit ./ctest > out
assert_eq "late: output" 208614 "$(cat out)"
assert_eq "late: work counted (blocks,entries)" "2135,7" "$(row late.pit work ./ctest)"
PERFINST_OVERLAY=ovt PERFINST_OUT=lateov.pit ./ctest > out
assert_eq "late: output under the overlay" 208614 "$(cat out)"
assert_eq "late: work and its clone off" "" "$(row lateov.pit work ./ctest | grep -v '^0,0$')"
assert_eq "late: main still counted" "$(row late.pit main ./ctest)" "$(row lateov.pit main ./ctest)"
