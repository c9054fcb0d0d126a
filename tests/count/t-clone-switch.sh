# A clone GCC made (ipa-cp's work.constprop.0) tests the switch of the
# function it was cloned from, `cmpb $0, __perfinst_fnon+1`, not the mode
# register: an overlay that turns work off silences the clone too (its 7
# entries and 2821 blocks become 0) while main still counts; the program's
# output never changes.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/clone.c" -o clone.o
pi_ld -O2 -o clone clone.o
objdump -d --no-show-raw-insn clone | awk '/^[0-9a-f]+ <work[.][a-z]+[.][0-9]+>:/ { f = 1; next } /^$/ { f = 0 } f' > clone.s
[ -s clone.s ] || fail "GCC made no clone of work (nm: $(nm clone | grep work))"
assert_contains "the clone tests work's switch" clone.s 'cmpb +\$0x0,.*<__perfinst_fnon\+0x1>'
assert_not_contains "the clone does not read the mode register" clone.s '__perfinst_on'
"$PMOPT" dump-meta clone > meta
unit=$(awk '/^unit / { print $2 }' meta)
assert_eq "work is function 1" 1 "$(awk '$1 == "function" && $3 == "work" { print $2 }' meta)"
row() { "$PMOPT" report ./clone "$1" --by=function --format=csv | awk -F, -v n="$2" '$4 == n { print $1 "," $2 }'; }
PERFINST_OUT=all.pit ./clone > out
assert_eq "output" 208614 "$(cat out)"
assert_eq "work counted (blocks,entries)" "2821,7" "$(row all.pit work)"
printf 'perfinst-overlay 1\noff %s 1\n' "$unit" > ov
PERFINST_OVERLAY=ov PERFINST_OUT=ov.pit ./clone > out
assert_eq "output under the overlay" 208614 "$(cat out)"
assert_eq "work and its clone off" "" "$(row ov.pit work | grep -v '^0,0$')"
assert_eq "main still counted" "219,1" "$(row ov.pit main)"
