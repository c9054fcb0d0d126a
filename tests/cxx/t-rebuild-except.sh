# C++ exceptions through the rebuild (pass-feedback.cc set_cold_section,
# cold_part_section): coldthrow.cc trained without an argument, so parse()
# never ran and goes to the cold tier (.text.unlikely.F); GCC, with no
# profile of it, splits its throw path into F.cold all the same.  Its cold
# part has a section of its own, .text.unlikely.F.cold: in one section
# with the hot part, the cold part's exception table (call sites counted
# from the cold part's start) matched no call site, and the throw ended in
# std::terminate.  Run with arguments, the rebuild, with and without
# -flto, prints what plain -O2 prints: every throw caught.
. "$PERFINST_TOP/tests/lib.sh"
command -v g++ > /dev/null || skip "g++ is not installed"
src=$T/cxx/coldthrow.cc
g++ -O2 "$src" -o plain || fail "the plain build"
g++ -O2 -fplugin="$PLUGIN" -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$src" -o t.o ||
    fail "the training build"
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t > t.out
assert_eq "training: the output" "$(./plain)" "$(cat t.out)"
"$PMOPT" plan --order=exttsp --rebuild -o fb t t.pit > plan.out
assert_contains "parse never ran: the cold tier" fb "function-tier fn=_Z5parsei .*tier=cold"
for lto in "" -flto; do
    n=r${lto:+-lto}
    g++ -O2 $lto -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=fb -fplugin-arg-perfinst-sections -c "$src" -o $n.o ||
        fail "$n: the rebuild"
    pi_ld -O2 $lto -o $n $n.o || fail "$n: the link"
    assert_eq "$n: every throw caught" "$(./plain a b)" "$(./$n a b 2>&1)"
    assert_eq "$n: without arguments" "$(./plain)" "$(./$n)"
done
readelf -SW r.o > secs
assert_contains "parse's hot part in .text.unlikely.F" secs " \.text\.unlikely\._Z5parsei "
assert_contains "its cold part in a section of its own" secs " \.text\.unlikely\._Z5parsei\.cold "
nm r | grep -q ' _Z5parsei\.cold$' || fail "no parse.cold in the rebuild (GCC did not split it: the test no longer tests the case)"
ok "exceptions through the cold tier's split functions, with and without -flto"
