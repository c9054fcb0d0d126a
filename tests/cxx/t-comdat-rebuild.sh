# The rebuild of a COMDAT (optimizer/plan/plan-branches.c): twice() of
# comdat.h has a copy in comdat-a.o and in comdat-b.o, and the training
# link (a.o b.o) keeps a.o's, whose counts are the function's; b.o's copy,
# discarded, never ran.  The plan gives b.o's copy a.o's branch profile
# and tier under comdat-b.cc's key instead of the cold tier, so a rebuild
# linked the other way round (b.o a.o, which keeps b.o's copy) lays it out
# as the training saw it, not in .text.unlikely.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/cxx/comdat-train.sh"
"$PMOPT" plan --order=exttsp --rebuild -o fb t t.pit > plan.out
grep -q "^[0-9]* branch-profile fn=$TWICE src=[^ ]*comdat-a.cc " fb || fail "no branch profile of a.o's twice"
grep -q "^[0-9]* branch-profile fn=$TWICE src=[^ ]*comdat-b.cc " fb ||
    fail "b.o's discarded twice has no branch profile: $(grep "fn=$TWICE " fb | cut -c1-120)"
! grep -q "fn=$TWICE src=[^ ]*comdat-b.cc tier=cold" fb || fail "b.o's discarded twice is in the cold tier"
assert_contains "the plan says so" plan.out "copies of COMDAT functions the link discarded take the kept copy's profile"
for u in a b; do
    pi_cc -x c++ -O2 -fplugin-arg-perfinst-feedback=fb -fplugin-arg-perfinst-sections -c "$T/cxx/comdat-$u.cc" -o r$u.o 2> r$u.err
done
readelf -SW rb.o > secs
! grep -q "\.text\.unlikely\.$TWICE " secs || fail "b.o's twice in .text.unlikely"
pi_ld --pi-cc=g++ -O2 -o r rb.o ra.o
assert_eq "the rebuild linked b.o first: the output" "$(cat t.out)" "$(./r)"
ok "b.o's copy of twice has a.o's profile: $(grep -c "fn=$TWICE " fb) recommendations name twice"
