# A plan whose order-data is mostly relro tables (relro.c; Lua's plan of
# bench/projects.sh is its luaL_Reg arrays, and no function order when the
# rebuild's own layout is predicted better): the relink of another build
# of the same sources counts them as the program's (they are, in
# .data.rel.ro, left where the default script puts them, with a note),
# so the rebuild loop's relink applies the plan instead of refusing it as
# another program's (3 of 9 names were "found" before).
. "$PERFINST_TOP/tests/lib.sh"
build() { # build OPT OUT
    pi_cc "$1" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$T/relink/relro.c" -o "$2.o"
    pi_ld "$1" -o "$2" "$2.o"
}
build -O2 relro
PERFINST_OUT=train.pit ./relro > want.out
# --no-model-check: total alone is a tie for the data model (every line
# fits), and this test is about the relro names, not the model's verdict
"$PMOPT" plan --order=c3 --no-model-check -o plan.fb relro train.pit > plan.out
assert_contains "the plan orders the six tables and total" plan.fb \
    "^[0-9]+ order-data objects=total(,names_[a-f]){6} weights=[0-9]+(,[0-9]+){6} dcache=[0-9]+,[0-9]+,[0-9]+$"
readelf -SW relro.o > secs
for x in a b c d e f; do
    assert_contains "names_$x is relro data" secs "\.data\.rel\.ro(\.local)?\.names_$x "
done

# the program the plan was made for: applied, the tables left with a note
"$PMOPT" relink relro --feedback plan.fb -o relro.rel > rel.out 2> rel.err
assert_contains "relro: the tables left where they are" rel.err \
    "^pmopt: note: relro: 6 planned data objects are in relro data \(\.data\.rel\.ro\), left where the default script puts them$"
[ -x relro.rel ] || fail "relro: no program"
./relro.rel > got.out
cmp want.out got.out || fail "relro.rel: output differs"
ok "relro.rel: same output"

# another build of the same sources: applied, its 9 names counted as found
build -O1 other
"$PMOPT" relink other --feedback plan.fb -o other.rel > orel.out 2> orel.err ||
    { cat orel.err >&2; fail "another build: refused"; }
assert_contains "another build: applied, every name found" orel.err \
    "^pmopt: note: plan.fb was made for another build \(($PWD/)?relro, build-id [0-9a-f]+\): 9 of its 9 functions and objects are in other$"
./other.rel > got2.out
cmp want.out got2.out || fail "other.rel: output differs"
ok "other.rel: same output"
