# A function of the rebuild's cold tier that GCC splits, without exception
# regions (pass-feedback.cc cold_part_apart): coldtier.c's check() never
# ran in training and goes to .text.unlikely.check; GCC splits its error
# path into check.cold all the same, which stays in the same section,
# right after check (a section of its own, which a function with exception
# tables needs — tests/cxx/t-rebuild-except.sh —, moved Lua's hot code and
# raised lua/objects' misses 4×: bench/RESULTS.md 2026-12-05 17:38).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/layout/coldtier.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections -c "$src" -o t.o
pi_ld -O2 -o t t.o
PERFINST_OUT=t.pit ./t > t.out
"$PMOPT" plan --order=exttsp --rebuild -o fb t t.pit > plan.out
assert_contains "check never ran: the cold tier" fb "function-tier fn=check .*tier=cold"
pi_cc -O2 -fplugin-arg-perfinst-feedback=fb -fplugin-arg-perfinst-sections -c "$src" -o r.o
pi_ld -O2 -o r r.o
assert_eq "the rebuild's output" "$(gcc -O2 "$src" -o plain && ./plain 5)" "$(./r 5)"
readelf -SW r.o > secs
assert_contains "check in .text.unlikely.check" secs " \.text\.unlikely\.check "
assert_not_contains "no section of its own for its cold part" secs "\.text\.unlikely\.check\.cold"
nm -n r > syms
grep -q ' check\.cold$' syms || fail "no check.cold (GCC did not split it: the test no longer tests the case)"
assert_eq "check.cold right after check" "check.cold" "$(grep -A1 ' t check$\| T check$' syms | tail -1 | awk '{print $3}')"
ok "a cold-tier C function's cold part stays beside it"
