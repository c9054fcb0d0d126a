# Two objects of an archive with a static function of one name (C has no
# COMDAT: libsodium's implementations of one primitive): the training runs
# statics-a.c's mix only, so statics-b.c's is wholly cold.  pmopt relink
# took the two for a COMDAT's copies, said the planned mix "has a COMDAT
# copy wholly cold in another object" and did not check its place; they
# are two functions: the relink checks mix's place and says nothing of a
# copy; the output is the rebuild's.
. "$PERFINST_TOP/tests/lib.sh"
for f in a b main; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -fplugin-arg-perfinst-clean-copies=all \
        -c "$T/layout/statics-$f.c" -o t$f.o
done
ar rcs libt.a ta.o tb.o
pi_ld -O2 -o t tmain.o libt.a
PERFINST_OUT=t.pit ./t 100000 > /dev/null
"$PMOPT" plan --order=auto --rebuild -o t.fb t t.pit > plan.out 2> plan.err || { cat plan.err; fail "plan"; }
for f in a b main; do
    pi_cc -O2 -g -fplugin-arg-perfinst-feedback=t.fb -fplugin-arg-perfinst-sections -c "$T/layout/statics-$f.c" -o r$f.o
done
ar rcs libr.a ra.o rb.o
pi_ld -O2 -o r rmain.o libr.a
readelf -sW rb.o | grep -q ' mix$' || fail "statics-b.c's mix is not a function of its own"
"$PMOPT" relink r --feedback t.fb -o r.opt > relink.out 2> relink.err || { cat relink.err; fail "relink"; }
assert_not_contains "no COMDAT copy said" relink.err "COMDAT copy"
for a in "1000" "1000 b"; do
    # shellcheck disable=SC2086  # two arguments
    assert_eq "the relinked output ($a)" "$(./r $a)" "$(./r.opt $a)"
done
ok "two static functions of one name: no COMDAT copy, the output the same"
