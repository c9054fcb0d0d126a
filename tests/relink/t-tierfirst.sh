# pmopt plan --order=exttsp --tier-first (plan-order.c, docs/layout.md
# "Function order"): the functions of the hot tier — the most executed ones
# that hold --tier-hot percent of the samples — come first, in the order
# the algorithm gave them, and the other executed functions follow in
# theirs; the default, as --no-tier-first, is the algorithm's order alone.
. "$PERFINST_TOP/tests/lib.sh"
build_hot
PERFINST_OUT=train.pit ./hot 2000 > /dev/null
fns() { sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' "$1" | tr , ' '; }
"$PMOPT" plan --order=exttsp --no-tier-first -o plain.fb hot train.pit > plain.out
"$PMOPT" plan --order=none --no-tier-first -o none.fb hot train.pit > none.out
"$PMOPT" plan --order=exttsp --tier-first --tier-hot=60 -o tier.fb hot train.pit > tier.out
"$PMOPT" plan --order=exttsp --tier-hot=60 -o default.fb hot train.pit > default.out
cat tier.out
assert_not_contains "with --no-tier-first no tier is printed" plain.out "the hot tier"
assert_eq "the algorithm's order alone is the default" "$(fns plain.fb)" "$(fns default.fb)"
assert_not_contains "by default no tier is printed" default.out "the hot tier"
assert_contains "the tier is printed" tier.out "the hot tier \(60% of the samples\): [0-9]+ functions first, the other [0-9]+ executed after them"
k=$(sed -n 's/.*the hot tier (60% of the samples): \([0-9]*\) functions first.*/\1/p' tier.out)
n=$(fns plain.fb | wc -w)
echo "plain: $(fns plain.fb); by samples: $(fns none.fb); tier-first: $(fns tier.fb); k=$k of $n"
[ "$k" -ge 1 ] && [ "$k" -lt "$n" ] || fail "the 60% tier should hold some but not all of the $n functions"
# the tier = the k functions with the most samples (--order=none's first k)
top=$(fns none.fb | tr ' ' '\n' | head -n "$k" | sort | tr '\n' ' ')
first=$(fns tier.fb | tr ' ' '\n' | head -n "$k" | sort | tr '\n' ' ')
assert_eq "the first $k are the most executed" "$top" "$first"
# a stable partition of the plain exttsp order
want=$(for f in $(fns plain.fb); do case " $top " in *" $f "*) echo "$f" ;; esac; done
       for f in $(fns plain.fb); do case " $top " in *" $f "*) ;; *) echo "$f" ;; esac; done)
assert_eq "tier first, each part in exttsp's order" "$(echo $want)" "$(fns tier.fb)"
"$PMOPT" relink hot --feedback tier.fb -o hot.tier --smoke 100 > rel.out
assert_contains "relink follows it" rel.out "^pmopt relink: $n functions in the planned order"
