# The Ext-TSP block order of the rebuild loop (gcc-plugin/pass-blockorder.cc,
# docs/layout.md "Block order"): on blockorder.c's interpreter loop, GCC's
# bb-reorder alone (block-order=gcc) keeps the dispatch at the loop's top and
# returns to it by a taken backward jump from the join; after the rebuild
# with the profile the hot path case 5 -> join -> dispatch -> case 1 is
# contiguous in that order (the join falls through into the dispatch, the
# hottest case follows the dispatch), the output is unchanged, and the pass
# does nothing to a function without a branch profile.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/blockorder.c

# marks OBJ FUNC: "C5 JOIN DISPATCH C1 DIRECTJMPS" — the addresses of case 5's
# marker (0x6666), the join's (0x13579), the indirect jump (the dispatch),
# case 1's marker (0x2222), and the number of direct jmp instructions
# between the join's marker and the dispatch
marks() {
    in_func "$1" "$2" '
        on && /\$0xffffffffffff999a,/ && !c5 { c5 = $1 }
        on && /\$0x13579,/ && !join { join = $1 }
        on && $2 == "jmp" && $3 ~ /^\*/ && !disp { disp = $1 }
        on && /0x2222\(/ && !c1 { c1 = $1 }
        on && join && !disp && $2 == "jmp" { n++ }
        END { sub(":", "", c5); sub(":", "", join); sub(":", "", disp); sub(":", "", c1)
              print c5, join, disp, c1, n + 0 }'
}
# others_between OBJ FUNC A B: how many marker constants of other cases lie
# between addresses A and B
others_between() {
    local n=0 at
    for at in $(in_func "$1" "$2" '
        on && /0x1111|0x3333|0x4444|0x5555|0x7777|0x8888/ { sub(":", "", $1); print $1 }'); do
        if hexlt "$3" "$at" && hexlt "$at" "$4"; then n=$((n + 1)); fi
    done
    echo $n
}

train_and_plan "$src"
assert_contains "run has a branch profile" plan.fb "branch-profile fn=run .*weight="

# GCC's block order alone (the profile applied, the pass off)
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-block-order=gcc \
    -fplugin-arg-perfinst-verbose -c "$src" -o gcc.o 2> gcc.err
assert_not_contains "block-order=gcc: the pass does not run" gcc.err "block order of"
read -r c5 join disp c1 nj <<< "$(marks gcc.o run)"
echo "bbro: case 5 at $c5, join at $join, dispatch at $disp, case 1 at $c1"
hexlt "$disp" "$join" || fail "bbro alone should put the dispatch before the join (a taken back edge)"
ok "bbro alone: the dispatch is at the loop's top, the join jumps back to it"

# the rebuild: Ext-TSP after bbro
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-verbose -c "$src" -o fb.o 2> fb.err
assert_contains "the pass reorders run" fb.err "block order of .run.: [0-9]+ blocks, [0-9]+ executed, score [0-9]+ \(bbro\), [0-9]+ \(Ext-TSP\): reordered"
read -r c5 join disp c1 nj <<< "$(marks fb.o run)"
echo "Ext-TSP: case 5 at $c5, join at $join, dispatch at $disp, case 1 at $c1, $nj jmp between join and dispatch"
hexlt "$c5" "$join" && hexlt "$join" "$disp" && hexlt "$disp" "$c1" ||
    fail "the hot path should be laid out case 5, join, dispatch, case 1"
assert_eq "direct jumps between the join and the dispatch" 0 "$nj"
assert_eq "other cases between case 5 and case 1" 0 "$(others_between fb.o run "$c5" "$c1")"
ok "rebuilt: case 5 -> join -> dispatch -> case 1 contiguous, the join falls through"
same_output fb.o

# no branch profile, no reordering: only run's tier applied, or no feedback
n=$(awk '$2 == "function-tier" && $3 == "fn=run" { print $1 }' plan.fb)
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-only="$n" \
    -fplugin-arg-perfinst-verbose -c "$src" -o tier.o 2> tier.err
assert_not_contains "without a branch profile the pass leaves run alone" tier.err "block order of"
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-only="$n" \
    -fplugin-arg-perfinst-block-order=gcc -c "$src" -o tier-gcc.o
same_code tier.o tier-gcc.o "without a branch profile the code should be bbro's"
ok "without a branch profile the code is bbro's, byte for byte"

# a bad value is an error
expect_fail "block-order=fast is refused" pi_cc -O2 -fplugin-arg-perfinst-block-order=fast -c "$src" -o bad.o
assert_contains "it says what is expected" err "block-order=fast.*expected .exttsp. or .gcc."
