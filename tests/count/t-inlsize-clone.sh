# A counted function's clone is given to the inliner at its uninstrumented
# size too (pass-inlsize.cc, inlsize_ipa_execute): inlsize-clone.cc's
# grade is cloned by IPA-CP (grade.constprop) for the constant all its
# callers pass, and the original, which no caller calls any more, stays
# only to hold the body — no longer a definition of the unit.  The
# correction skipped such originals, so the clone kept its counters' size:
# 50 where g++ -O2 sees 19 (HarfBuzz's ipa-sra clones the same way: its
# hb-shape counted 1.365x plain's instructions with the clones' counters in
# their sizes, 1.202x without; bench/RESULTS.md).
. "$PERFINST_TOP/tests/lib.sh"
clone_size() { # INLINE-DUMP: the self size of grade's clone as the IPA inliner saw it
    awk '/^IPA function summary for .*grade\.constprop/ { on = 1; next } on && /self size:/ { print $3; exit }' "$1"
}
g++ -O2 -fdump-ipa-inline-details=o2.inl -c "$T/count/inlsize-clone.cc" -o o2.o
o2=$(clone_size o2.inl)
[ -n "$o2" ] || fail "g++ -O2 made no grade.constprop (the fixture no longer clones)"
pi_cc -x c++ -O2 -fplugin-arg-perfinst-all=count -fdump-ipa-inline-details=count.inl -c "$T/count/inlsize-clone.cc" -o count.o
count=$(clone_size count.inl)
[ -n "$count" ] || fail "the counted build made no grade.constprop"
[ "$count" -le $((o2 + o2 / 4)) ] || fail "the counted clone's size is $count, where g++ -O2's is $o2"
ok "grade.constprop's size: $count counted, $o2 at -O2"
pi_ld -O2 -o prog count.o
g++ -O2 -o plain o2.o
PERFINST_OUT=t.pit ./prog > out
assert_eq "output" "$(./plain)" "$(cat out)"
