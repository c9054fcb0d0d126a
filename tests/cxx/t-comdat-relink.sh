# pmopt relink of a COMDAT whose copies differ (optimizer/model/objscan.c):
# comdat.h's twice() has a copy in comdat-a.o, comdat-b.o and, compiled
# cold, in comdat-cold.o (.text.unlikely._Z5twicei).  The linker keeps the
# first copy of the group in link order and discards the others.  Linked
# cold.o first, the program's twice is the cold one: the relink leaves it
# where it is and says why (it used to order a.o's .text._Z5twicei, which
# the link discards, and then refused its own output: "the linker did not
# follow the script").  Linked a.o first, twice is placed in the order;
# so it is when cold.o is a member of an archive named first, which the
# link does not pull (nothing of it is needed then).  A rebuild whose
# copies of twice are all in an archive's members, one ordered
# (.text.sorted) and one cold, keeps the one it pulls first, which the
# objects do not say: linked with cold.o pulled first its twice lies in
# .text.unlikely, and the relink of the rebuild (kept as linked) leaves
# twice's place unchecked and says so (it used to refuse its own output:
# "the linker did not follow the script: _Z5twicei ... before ...").
. "$PERFINST_TOP/tests/lib.sh"
. "$T/cxx/comdat-train.sh"
"$PMOPT" plan --order=exttsp -o fb t t.pit > plan.out
grep -q "^[0-9]* order-functions .*$TWICE" fb || fail "twice is not in the plan's order: $(grep order-functions fb)"
for u in a b cold; do
    pi_cc -x c++ -O2 -fplugin-arg-perfinst-sections -c "$T/cxx/comdat-$u.cc" -o p$u.o
done
readelf -SW pcold.o | grep -q "\.text\.unlikely\.$TWICE " || fail "cold.o's twice is not in .text.unlikely"
readelf -SW pa.o | grep -q "\.text\.$TWICE " || fail "a.o's twice is not in .text.$TWICE"

# cold.o first: the kept twice is cold
pi_ld --pi-cc=g++ -O2 -o p pcold.o pa.o pb.o
"$PMOPT" relink p --feedback fb -o p.relink > relink.out 2> relink.err ||
    fail "relink with the cold copy kept failed: $(cat relink.err)"
assert_contains "the relink says where twice is" relink.err \
    "1 planned function is wholly in a cold section in the objects of the link .*left where it is"
assert_contains "cold.o first: the other four in the order" relink.out \
    "^pmopt relink: 4 functions in the planned order"
assert_eq "cold.o first: the relinked program's output" "$(cat t.out)" "$(./p.relink)"
ok "cold copy kept: twice left in .text.unlikely, the relink checked and written"

# a.o first: the kept twice is a.o's, placed with the order
pi_ld --pi-cc=g++ -O2 -o q pa.o pb.o pcold.o
"$PMOPT" relink q --feedback fb -o q.relink > relink2.out 2> relink2.err ||
    fail "relink with a.o's copy kept failed: $(cat relink2.err)"
! grep -q "cold section" relink2.err || fail "a.o first: twice said to be cold: $(cat relink2.err)"
assert_contains "a.o first: all five in the order" relink2.out "^pmopt relink: 5 functions in the planned order"
nm -n q.relink | grep -q " t $TWICE$\| T $TWICE$\| W $TWICE$" || fail "no twice in q.relink"
assert_eq "a.o first: the output" "$(cat t.out)" "$(./q.relink)"
ok "a.o's copy kept: twice placed in the order"

# an archive's member first, not pulled: a.o's copy is kept
ar rc libcold.a pcold.o
pi_ld --pi-cc=g++ -O2 -o r libcold.a pa.o pb.o
nm r | grep -q rare_twice && fail "the archive's member was pulled"
"$PMOPT" relink r --feedback fb -o r.relink > relink3.out 2> relink3.err ||
    fail "relink after an archive not pulled failed: $(cat relink3.err)"
assert_contains "an archive not pulled: all five in the order" relink3.out \
    "^pmopt relink: 5 functions in the planned order"
assert_eq "an archive not pulled: the output" "$(cat t.out)" "$(./r.relink)"
ok "a copy in an archive's member the link did not pull decides nothing"

# a rebuild: twice's copies in an archive, the cold one pulled first
"$PMOPT" plan --order=exttsp --rebuild -o fbr t t.pit > planr.out
for u in b main; do
    pi_cc -x c++ -O2 -fplugin-arg-perfinst-feedback=fbr -fplugin-arg-perfinst-sections -c "$T/cxx/comdat-$u.cc" -o r$u.o
done
readelf -SW rb.o | grep -q "\.text\.sorted\.[0-9]*\.$TWICE " || fail "the rebuild's b.o has no ordered twice"
ar rc liby.a pcold.o rb.o
pi_ld --pi-cc=g++ -O2 -o s rmain.o liby.a
"$PMOPT" relink s --feedback fbr -o s.relink > relink4.out 2> relink4.err ||
    fail "relink of a rebuild whose kept twice is the archive's cold copy failed: $(cat relink4.err)"
assert_contains "the relink keeps the rebuild's .text" relink4.err "\.text kept as linked"
assert_contains "the relink says twice is not checked" relink4.err \
    "1 planned function has a COMDAT copy wholly cold in another object of the link .*not checked"
assert_eq "the archive's cold copy kept: the output" "$(./s)" "$(./s.relink)"
ok "twice's copies in an archive, one cold: the rebuild relinked as linked, twice unchecked"
