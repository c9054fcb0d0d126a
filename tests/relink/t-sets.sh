# The set-pressure order (optimizer/order-sets.c, docs/layout.md "Set
# pressure") on fixture functions whose best layouts are worked out by hand.
. "$PERFINST_TOP/tests/lib.sh"
O=$PERFINST_TOP/optimizer
gcc -std=gnu11 -Wall -Werror -I"$O" "$T/relink/settool.c" "$O/order-sets.c" "$O/order.c" -o settool

# A cache of 4 sets of 1 way (64-byte lines, a 256-byte period).  A, B, C, D
# are 256 bytes whose first line runs 100 times; E, F, G are one line run
# once.  In the given order A B C D E F G every hot first line falls in set
# 0: the set keeps one of them, the other three (300 fetches) and E (1) miss
# — pressure 301.  7 hot lines in 4 one-way sets leave at least 3 beyond the
# ways, so the least is 3: one small function after each big one shifts the
# next big one's first line to the next set, each set holds one hot line and
# at most one line run once.
cat > conflict.g <<'G'
cache 4 1 64
fn A 256 16
fn B 256 16
fn C 256 16
fn D 256 16
fn E 64 16
fn F 64 16
fn G 64 16
blk A 0 64 100
blk B 0 64 100
blk C 0 64 100
blk D 0 64 100
blk E 0 64 1
blk F 0 64 1
blk G 0 64 1
G
./settool < conflict.g > out
cat out
assert_eq "pressure of the given order" "before: 301" "$(grep '^before:' out)"
assert_eq "pressure spread: the least possible" "after: 3" "$(grep '^after:' out)"
sets=$(awk '$1 == "at:" && $2 ~ /^[ABCD]$/ { print $4 }' out | sort -u | wc -l)
assert_eq "the four hot first lines in four different sets" 4 "$sets"

# No pressure (8 ways hold everything): only the affinity term moves
# functions.  X calls A 100 times and is listed last, 3000 bytes away; the
# search puts X right before A (its middle 504 bytes from A's start).
cat > affine.g <<'G'
cache 4 8 64
fn A 1000 16
fn B 1000 16
fn C 1000 16
fn X 1000 16
blk A 0 64 100
blk B 0 64 100
blk C 0 64 100
blk X 0 64 100
arc X A 100
G
./settool < affine.g > out
cat out
assert_eq "no pressure before or after" "before: 0 after: 0" "$(grep -E '^(before|after):' out | xargs)"
case " $(sed -n 's/^order://p' out) " in
*" X A "*) ok "X right before A" ;;
*) fail "X should be right before A: $(grep '^order:' out)" ;;
esac
