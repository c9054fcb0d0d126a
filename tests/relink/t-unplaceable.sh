# pmopt relink of a plan one of whose functions cannot be placed in the
# program relinked: the plan comes from a training build with a section for
# every function (as in the rebuild loop, where the plan's build is not the
# one relinked); in the relinked build mix() sits in a shared .text (its
# object built with -fno-function-sections), its name also a local function
# of a library archive's member (as a system library's local
# .isra/.constprop clones are).  A note names it and the remedy; the rest
# of the plan is applied (the other hot functions in the planned order),
# never the whole plan refused.  (all=count gives every function a section
# of its own unless the command line says -fno-function-sections.)
. "$PERFINST_TOP/tests/lib.sh"
src=$T/relink/unplaceable.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$src" -o main.o
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -DUTIL -c "$src" -o util-train.o
pi_cc -O2 -fplugin-arg-perfinst-all=count -fno-function-sections -DUTIL -c "$src" -o util.o
gcc -O2 -DSYS -c "$src" -o sys.o
ar rcs libsys.a sys.o
readelf -SW util.o | grep -q '\.text\.mix' && fail "util.o has a section of mix's own"
nm sys.o | grep -q ' t mix$' || fail "sys.o has no local mix"
pi_ld -O2 -o train main.o util-train.o -L. -lsys
pi_ld -O2 -o prog main.o util.o -L. -lsys
PERFINST_OUT=train.pit ./train 3000 > train.out
"$PMOPT" plan --order=exttsp -o prog.fb train train.pit > plan.out
order=$(sed -n 's/^[0-9]* order-functions alg=[a-z0-9]* functions=//p' prog.fb)
echo ",$order," | grep -q ',mix,' || { cat prog.fb; fail "mix is not in the plan: $order"; }
ok "the plan places mix among $order"
"$PMOPT" relink prog --feedback prog.fb -o prog.r --smoke 3000 > rel.out 2>&1 || { cat rel.out; fail "relink refused the plan"; }
cat rel.out
assert_contains "a note names mix's object" rel.out 'note: .*(util\.o|libsys\.a\(sys\.o\)): mix: in the shared \.text section: left where it is'
assert_contains "and the remedy" rel.out '1 planned function is not in a section of its own, left where it is: compile the objects with -ffunction-sections'
rest=$(echo "$order" | tr , '\n' | grep -vx mix | paste -sd,)
n=$(echo "$rest" | tr , '\n' | wc -l)
assert_contains "the rest of the plan applied" rel.out "^pmopt relink: $n functions in the planned order"
got=$(nm -n prog.r | awk '$2 ~ /^[tT]$/ {print $3}' | grep -xE "$(echo "$rest" | tr , '|')" | paste -sd,)
assert_eq "nm order of the placeable functions" "$rest" "$got"
assert_eq "same output" "$(cat train.out)" "$(PERFINST_OUT=/dev/null ./prog.r 3000)"
