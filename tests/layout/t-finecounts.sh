# Local counts scaled before GCC derives its own (feedback-counts=runs|fine,
# gcc-plugin/pass-feedback.cc, docs/layout.md "Fine counts"), on
# finecounts.c trained once:
# - the plan's counts: few entered twice, its loop test run 20 times;
# - runs: few's zero-trip block, which GCC's loop-header copying made with
#   a derived count of 2 x 2/20 = 0.2 runs, rounds to 0: the split calls it
#   never run and puts it (its 0x6666, beside the loop's own) in few.cold,
#   with split=2 and 3;
# - fine: its count is 2048 x 2/20 = 204 of 2048 entries, so it ran: few
#   has no cold part, the block is in few's hot part, with split=2 and 3;
# - spin's zero-trip block (1 entry x 1/100001) is 0 either way: in
#   spin.cold with both;
# - the output of the training build, the zero-trip paths run or not, at
#   -O2 and -O3 with checking; no branch profile, no change; a bad value
#   is refused.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/finecounts.c

split_trained "$src"
assert_contains "few's counts: 2 entries, the loop test 20 times" plan.fb \
    "branch-profile fn=few .*counts=2,18,20,2 edges=18,2"
assert_contains "spin's counts" plan.fb "branch-profile fn=spin .*counts=1,100000,100001,1 edges=100000,1"

for m in runs fine; do
    for s in 2 3; do
        pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-split=$s \
            -fplugin-arg-perfinst-feedback-counts=$m -fplugin-arg-perfinst-verbose \
            -c "$src" -o $m$s.o 2> $m$s.err || { cat $m$s.err; fail "feedback-counts=$m split=$s"; }
        echo "$m, split=$s: $(syms $m$s.o)"
    done
done
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$src" -o def.o

for s in 2 3; do
    assert_contains "runs, split=$s: few's zero-trip block judged never run" runs$s.err \
        "split of .few.: 1 blocks never ran \(1 of them not yet cold for GCC\), 0 warm"
    assert_eq "runs, split=$s: the zero-trip block's 0x6666 in few.cold" 1 "$(has runs$s.o few.cold '\$0x6666,')"
    assert_eq "runs, split=$s: few's hot part has only the loop's 0x6666" 1 "$(has runs$s.o few '\$0x6666,')"
    assert_contains "fine, split=$s: few's zero-trip block ran" fine$s.err \
        "split of .few.: 0 blocks never ran \(0 of them not yet cold for GCC\), 0 warm \(below [01]% of 2048 entries\)"
    case " $(syms fine$s.o) " in *" few.cold "*) fail "fine, split=$s: few should have no cold part" ;; esac
    assert_eq "fine, split=$s: the loop's and the zero-trip block's 0x6666 in few's hot part" 2 \
        "$(has fine$s.o few '\$0x6666,')"
    for m in runs fine; do
        assert_contains "$m, split=$s: spin's zero-trip block never ran" $m$s.err \
            "split of .spin.: 1 blocks never ran \(1 of them not yet cold for GCC\), 0 warm"
        assert_eq "$m, split=$s: return 0x7777 in spin.cold" 1 "$(has $m$s.o spin.cold '\$0x7777,%eax')"
    done
done
ok "runs: few's 0.2-run block is cold; fine: it is hot; spin's 1/100001-run block is cold with both"
same_code runs3.o def.o "feedback-counts=runs should be the default"
ok "feedback-counts=runs is the default"

# the same output, zero-trip paths run or not, at -O2 and -O3 with checking
checked_builds "$src" plan.fb feedback-counts "runs fine" 3 train.out train3.out

# no branch profile, no change: only a tier applied
n=$(awk '$2 == "function-tier" { print $1; exit }' plan.fb)
[ -n "$n" ] || fail "plan.fb should have a function-tier"
for m in runs fine; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-only="$n" \
        -fplugin-arg-perfinst-feedback-counts=$m -c "$src" -o tier$m.o
done
same_code tierruns.o tierfine.o "without a branch profile feedback-counts=fine should change nothing"
ok "without a branch profile the code is the same byte for byte"

expect_fail "feedback-counts=exact is refused" pi_cc -O2 -fplugin-arg-perfinst-feedback-counts=exact -c "$src" -o bad.o
assert_contains "it says what is expected" err "feedback-counts=exact.*expected .runs. or .fine."
