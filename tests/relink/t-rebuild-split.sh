# --rebuild-split (docs/layout.md "The model's check"): with --rebuild the
# order is applied by the rebuild, whose split moves the blocks that never
# ran to each function's cold part.  sets.c's twelve big functions are 4 KiB
# in the training build (a never-run 4040-byte block each, -falign-functions=64)
# with their executed code at their start: laid out in the training build's
# sizes, the order puts more hot first lines in some sets of an 8-way cache
# than it has ways, an overflow that the rebuild does not have: there each
# big function's hot part is a few bytes.  With --rebuild-split
# the model lays out the predicted hot parts, and what it predicts is what
# the rebuild has (nm: the hot parts' sets).
. "$PERFINST_TOP/tests/lib.sh"
F="-O2 -falign-functions=64 -ffunction-sections -fdata-sections"
pi_cc $F -fplugin-arg-perfinst-all=count -c "$T/relink/sets.c" -o t.o
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t 100 > train.out
P="--order=exttsp --rebuild --no-tier-first --cache=32768,8,64 --reserve-sets=0"
"$PMOPT" plan $P -o sizes.fb t t.pit > sizes.out
"$PMOPT" plan $P --rebuild-split -o split.fb t t.pit > split.out
cat sizes.out split.out
over() { sed -n "s/^  $2 .* \([0-9]*\) of 64 sets over 8 ways.*/\1/p" "$1"; }
[ "$(over sizes.out 'after the order')" -ge 1 ] ||
    fail "in the training build's sizes the order should overfill a set: $(grep 'after the order' sizes.out)"
ok "training sizes: the order overfills $(over sizes.out 'after the order') set(s)"
assert_contains "--rebuild-split says what it predicts" split.out \
    "^  the rebuild's split \(--rebuild-split\): the hot functions' hot parts predicted [0-9]+ bytes \([0-9]+ in the training build's sections\)$"
pb=$(sed -n "s/.*hot parts predicted \([0-9]*\) bytes (\([0-9]*\) in.*/\1/p" split.out)
tb=$(sed -n "s/.*hot parts predicted \([0-9]*\) bytes (\([0-9]*\) in.*/\2/p" split.out)
[ "$pb" -lt $((tb / 10)) ] || fail "the predicted hot parts ($pb bytes) should be a small part of the sections ($tb)"
assert_eq "split: the order overfills no set" 0 "$(over split.out 'after the order')"
assert_eq "split: nor the rebuild's own layout" 0 "$(over split.out 'the rebuild (predicted)')"
assert_contains "split: the order is written" split.fb "^[0-9]+ order-functions alg=exttsp functions="
# the rebuild itself: the never-run blocks in the cold parts, the twelve hot
# parts of at most a line each, in twelve different sets
pi_cc $F -fplugin-arg-perfinst-feedback=split.fb -c "$T/relink/sets.c" -o r.o
pi_ld -O2 -o r r.o
./r 100 | cmp - train.out || fail "the rebuild prints something else"
nm -S r | awk '$4 ~ /^big[0-9]+$/ { print $1, $2 }' > big.txt
assert_eq "nm: the rebuild has the twelve big functions" 12 "$(wc -l < big.txt)"
while read -r a s; do
    [ $((0x$s)) -le 64 ] || fail "big function at $a is $((0x$s)) bytes in the rebuild: not split"
done < big.txt
sets=$(while read -r a s; do echo $(( (0x$a >> 6) & 63 )); done < big.txt | sort -u | wc -l)
assert_eq "nm: the rebuild's twelve hot parts lie in twelve sets, as --rebuild-split predicted" 12 "$sets"
