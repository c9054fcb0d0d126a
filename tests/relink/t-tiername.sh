# Functions named like a tier's section prefix (optimizer/model/objscan.c):
# `hot`'s clone hot.constprop.0 is in .text.hot.constprop.0 and `startup`'s
# in .text.startup.constprop.0.  Read by the prefix alone they were the
# function constprop.0 of the hot and the startup tier, which the plan then
# ordered under that name and the relink could not find; the symbol the
# section defines decides.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/relink/tiername.c" -o t.o
readelf -SW t.o | grep -q '\.text\.hot\.constprop\.0 ' || fail "no .text.hot.constprop.0: $(readelf -SW t.o | grep text)"
readelf -SW t.o | grep -q '\.text\.startup\.constprop\.0 ' || fail "no .text.startup.constprop.0"
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t 100000 > t.out
"$PMOPT" plan --order=exttsp -o fb t t.pit > plan.out
funcs=$(sed -n 's/^[0-9]* order-functions .*functions=\([^ ]*\).*/\1/p' fb | tr , '\n' | sort | tr '\n' ' ')
assert_eq "the planned functions" "hot.constprop.0 main startup.constprop.0 " "$funcs"
pi_cc -O2 -fplugin-arg-perfinst-sections -c "$T/relink/tiername.c" -o p.o
pi_ld -O2 -o p p.o
"$PMOPT" relink p --feedback fb -o p.relink > relink.out 2> relink.err || fail "relink: $(cat relink.err)"
assert_contains "all three placed" relink.out "^pmopt relink: 3 functions in the planned order"
assert_eq "the relinked program's output" "$(cat t.out)" "$(./p.relink 100000)"
ok "hot.constprop.0 and startup.constprop.0 planned and placed under their names"
