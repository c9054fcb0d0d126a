# A stack sample in a function whose symbol has no size (hand-written
# assembly without .size, as libsodium's sandy2x ladder.S) is named by its
# symbol: the function runs to the next function symbol (or its section's
# end).  It was named by the one byte at its symbol's address only, every
# other sample in it [prog+0x...].  nosize.S's spin: every period under
# main is in spin, and none is unnamed; `after`, the next symbol, keeps
# its own name.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -c "$T/sampling/nosize.c" -o nosize.o
gcc -c "$T/sampling/nosize.S" -o spin.o
pi_ld --pi-runtime -O2 -o nosize nosize.o spin.o
readelf -sW nosize | awk '$8 == "spin" { print $3 }' > size
assert_eq "spin's symbol has no size" 0 "$(cat size)"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=n.pit ./nosize 20000000 > /dev/null
"$PMOPT" report --tree n.pit > tree
inspin=$(awk '$NF == "spin" { n += $3 } END { print n + 0 }' tree)
[ "$inspin" -gt 0 ] || { cat tree; fail "no sample named spin"; }
assert_not_contains "no unnamed frame" tree '\[nosize\+0x'
ok "$inspin periods in spin, all named"
