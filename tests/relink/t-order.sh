# The order algorithms (optimizer/model/order.c) on fixture call graphs whose
# orders are worked out by hand in docs/layout.md ("Function order").
. "$PERFINST_TOP/tests/lib.sh"
gcc -std=gnu11 -Wall -Werror -I"$PERFINST_TOP/optimizer/model" "$T/relink/ordtool.c" \
    "$PERFINST_TOP/optimizer/model/order.c" -o ordtool -lm

# A chain a -> b -> c -> d (100 calls each) and a decoy d -> a (1 call); the
# nodes listed out of order.  Ext-TSP's optimum puts every callee right
# after its caller: a b c d.  C3 takes the callees in index order (equal
# samples) and appends each to its heaviest caller's cluster: c after b, a
# after d, then [d a] after [b c]: b c d a.
cat > chain.g <<'G'
node c 64 10
node a 64 10
node d 64 10
node b 64 10
arc a b 100
arc b c 100
arc c d 100
arc d a 1
G
./ordtool < chain.g > out
cat out
assert_eq "exttsp: the chain in call order" "a b c d" "$(sed -n 's/^exttsp: \(.*\) score.*/\1/p' out)"
assert_eq "c3: clusters appended to the heaviest caller" "b c d a" "$(sed -n 's/^c3: \(.*\) score.*/\1/p' out)"
assert_eq "none: by samples, then index" "c a d b" "$(sed -n 's/^none: \(.*\) score.*/\1/p' out)"
es=$(sed -n 's/^exttsp: .* score \(.*\)/\1/p' out); cs=$(sed -n 's/^c3: .* score \(.*\)/\1/p' out)
python3 -c "import sys; sys.exit(0 if $es > $cs else 1)" || fail "exttsp's score $es is not above c3's $cs"
ok "exttsp scores higher than c3 on the chain ($es > $cs)"

# C3's page rule and density: main calls A (100), A calls B (800) and E
# (600), main calls C (10), C calls D (5) — D is 4000 bytes, so it cannot
# join the 500-byte cluster within a page; it is cold-dense and goes last.
# X is never executed and left out.
cat > tree.g <<'G'
node main 100 10
node A 100 1000
node B 100 800
node C 100 10
node D 4000 5
node E 100 600
node X 100 0
arc main A 100
arc A B 800
arc main C 10
arc A E 600
arc C D 5
G
./ordtool < tree.g > out
cat out
assert_eq "c3 on the tree" "main A B E C D" "$(sed -n 's/^c3: \(.*\) score.*/\1/p' out)"
assert_not_contains "a function never executed is not ordered" out " X "
