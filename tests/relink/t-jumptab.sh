# A counting copy's jump table (.rodata.F.count.0, -ffunction-sections) is
# F's in the plan: jumptab.c's classify, in a shared library built with
# all=count and trained, gets a data order (its table is the only data
# the hot code reads) that names classify's table, never
# classify.count.0, which the feedback rebuild does not have; pmopt
# relink of the rebuilt library takes the plan and the relinked library
# runs the same.  Before, the plan named classify.count.0 and the relink
# refused it ("only 0 of the plan's 1 functions and objects": libyaml).
. "$PERFINST_TOP/tests/lib.sh"
cp "$T/relink/jumptab.c" "$T/relink/jumptab-main.c" .
F="-O2 -g -fPIC -fplugin-arg-perfinst-sections"
pi_cc $F -fplugin-arg-perfinst-all=count -c jumptab.c -o count.o || fail "the counting build"
readelf -SW count.o > count.sec
assert_contains "the counting copy has a jump table of its own" count.sec "\.rodata\.classify\.count\.0 "
pi_ld -O2 -shared -o libj.so count.o && gcc -O2 -c jumptab-main.c -o main.o && pi_ld -O2 -o jm main.o -L. -lj ||
    fail "the links"
LD_LIBRARY_PATH=. PERFINST_OUT=train.pit ./jm > train.out || fail "the training run"
"$PMOPT" plan --order=exttsp --rebuild -o j.fb libj.so train.pit > plan.out || fail "pmopt plan"
assert_contains "a data order" j.fb "^[0-9]+ order-data objects=classify "
assert_not_contains "no counting copy named" j.fb "count\.0"
mkdir rb && cd rb
pi_cc $F -fplugin-arg-perfinst-feedback=../j.fb -c ../jumptab.c -o rb.o 2> rb.err || { cat rb.err >&2; fail "the rebuild"; }
pi_ld -O2 -shared -o libj.so rb.o || fail "the rebuild's link"
"$PMOPT" relink libj.so --feedback ../j.fb -o libj.relinked.so > relink.out 2> relink.err ||
    { cat relink.err >&2; fail "pmopt relink of the rebuilt library"; }
ok "pmopt relink took the plan"
mv libj.relinked.so libj.so
LD_LIBRARY_PATH=. ../jm > relinked.out || fail "the relinked library's run"
assert_eq "the relinked library's output" "$(cat ../train.out)" "$(cat relinked.out)"
