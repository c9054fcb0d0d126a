# The rebuild loop on a 95%-taken branch whose source hint says the
# opposite (branch.c): plain -O2 puts the hot arm out of line; the training
# run's profile (pmopt plan) makes it the fall-through after a rebuild with
# -fplugin-arg-perfinst-feedback, the function goes to .text.hot, and the
# program's output is unchanged.  The profile's block and edge counts are
# exact; feedback-only applies recommendations selectively.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/branch.c

# before: plain -O2 follows the (wrong) hint
gcc -O2 -c "$src" -o plain.o
read -r hot cold jcc <<< "$(arms plain.o work)"
echo "plain -O2: hot arm at $hot, cold arm at $cold, first jcc to $jcc"
hexlt "$cold" "$hot" || fail "plain -O2 should lay the hot arm after the cold one"
hexlt "$cold" "$jcc" && ! hexlt "$hot" "$jcc" || fail "plain -O2: the conditional jump should go to the hot arm"
ok "plain -O2: the hot arm is out of line (the branch to it is taken 95%)"

# training: all=count, one run
train_and_plan "$src"
sum=$("$PMOPT" dump-meta train | awk '$1 == "function" && $3 == "work" { print $NF }')
assert_eq "work's block and edge counts" \
    "branch-profile fn=work checksum=$sum sites=4 first=0 weight=3000 counts=1000,950,50,1000 edges=950,50" \
    "$(rec plan.fb branch-profile work)"
assert_eq "work is hot" "function-tier fn=work tier=hot" "$(rec plan.fb function-tier work)"
assert_eq "atoi never ran: cold" "function-tier fn=atoi tier=cold" "$(rec plan.fb function-tier atoi)"

# the rebuild: no instrumentation, the profile applied
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-verbose -c "$src" -o fb.o 2> fb.err
assert_contains "the plugin says what matched" fb.err "2 function profiles matched, 0 stale, 0 malformed .*\(100\.0% of the profile.s block executions matched\)"
read -r hot cold jcc <<< "$(arms fb.o work)"
echo "rebuilt: hot arm at $hot, cold arm at $cold, first jcc to $jcc"
hexlt "$hot" "$cold" || fail "after the rebuild the hot arm should come first"
hexlt "$hot" "$jcc" && ! hexlt "$cold" "$jcc" || fail "after the rebuild the conditional jump should go to the cold arm"
ok "rebuilt: the hot arm is the fall-through, the jump goes to the 5% arm"
objdump -t fb.o | grep -E '\.text\.hot.* work$' > /dev/null || { objdump -t fb.o; fail "work is not in .text.hot"; }
ok "work is in .text.hot"
same_output fb.o

# selectively: only the tier of work (recommendation 1) -> the layout stays GCC's
n=$(awk '$2 == "function-tier" && $3 == "fn=work" { print $1 }' plan.fb)
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-only="$n" -c "$src" -o sel.o
read -r hot cold jcc <<< "$(arms sel.o work)"
hexlt "$cold" "$hot" || fail "with only recommendation $n, the branch layout should stay GCC's"
objdump -t sel.o | grep -E '\.text\.hot.* work$' > /dev/null || fail "work should still be in .text.hot"
ok "feedback-only=$n applies the tier alone"

# counted again with the profile applied (how the "after" statistics are
# measured): the profile still matches, and fewer branches are taken
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-feedback=plan.fb \
    -fplugin-arg-perfinst-verbose -c "$src" -o after.o 2> after.err
assert_contains "counted rebuild: the profile matches" after.err "2 function profiles matched, 0 stale"
pi_ld -O2 -o after after.o
PERFINST_OUT=after.pit ./after > after.out
cmp train.out after.out || fail "the counted rebuild prints something else"
"$PMOPT" plan --stats ./train train.pit > before.stats
"$PMOPT" plan --stats ./after after.pit > after.stats
tb() { awk '/taken branches/ { print $3 }' "$1"; }
echo "taken branches: before $(tb before.stats), after $(tb after.stats)"
[ "$(tb after.stats)" -lt "$(tb before.stats)" ] || fail "the rebuild should take fewer branches"
ok "fewer taken branches after the rebuild ($(tb before.stats) -> $(tb after.stats))"
