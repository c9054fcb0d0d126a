# A function with a statement-level directive (stmt.c: `#pragma perfinst
# count` on an if whose branch is taken 95%, the source hint saying the
# opposite), trained under all=count and rebuilt with the plan: the
# training build and the rebuild must number the same blocks (the count
# pass splits them at the statement markers; the feedback pass splits the
# same way before it computes the CFG checksum), so every function profile
# matches and the hot arm becomes the fall-through.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/stmt.c

# jump_before OBJ FUNC: "HOT COLD JCC": the arms' marker constants, and the
# target of the last conditional jump before the hot arm's constant (the
# branch of the if; the rebuild's function starts with mode off's switch
# to its instrumented copy, so the first jcc is not it)
jump_before() { arms "$1" "$2" before; }

gcc -O2 -c "$src" -o plain.o
read -r hot cold jcc <<< "$(jump_before plain.o work)"
echo "plain -O2: hot arm at $hot, cold arm at $cold, the if's jcc to $jcc"
hexlt "$cold" "$hot" && ! hexlt "$hot" "$jcc" || fail "plain -O2 should jump to the hot arm, laid out after the cold one"
ok "plain -O2: the hot arm is out of line"

train_and_plan "$src"
sum=$("$PMOPT" dump-meta train | awk '$1 == "function" && $3 == "work" { print $NF }')
assert_eq "work's block and edge counts (the if split from the statements before it)" \
    "branch-profile fn=work checksum=$sum sites=6 first=0 weight=5000 counts=1000,1000,1000,950,50,1000 edges=950,50" \
    "$(rec plan.fb branch-profile work)"

# the rebuild keeps the statement directive (its region is counted) and
# applies the profile: every function matched
pi_cc -O2 -g -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-verbose -c "$src" -o fb.o 2> fb.err
assert_contains "all matched" fb.err "plan.fb: 2 function profiles matched, 0 stale, 0 malformed .*\(100\.0% of the profile.s block executions matched\)"
assert_not_contains "nothing stale" fb.err "is stale"
read -r hot cold jcc <<< "$(jump_before fb.o work)"
echo "rebuilt: hot arm at $hot, cold arm at $cold, the if's jcc to $jcc"
hexlt "$hot" "$cold" && hexlt "$hot" "$jcc" && ! hexlt "$cold" "$jcc" ||
    fail "after the rebuild the hot arm should fall through and the jump go to the cold arm"
ok "rebuilt: the hot arm is the fall-through, the jump goes to the 5% arm"
pi_ld -O2 -o fb fb.o
./fb > fb.out
cmp train.out fb.out || fail "the rebuilt program prints something else"
ok "same output"
