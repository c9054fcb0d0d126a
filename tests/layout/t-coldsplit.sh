# The plugin's hot/cold split (gcc-plugin/pass-coldsplit.cc, docs/layout.md
# "The split: split=gcc|2|3"), on coldsplit.c trained once:
# - split=gcc: spin's zero-trip block (return 0x7777), which GCC made after
#   the profile was applied with a guessed zero count, stays in spin (GCC's
#   partitioning wants a precise zero): spin has no .cold part;
# - split=2: that block is in spin.cold, nothing else moves
#   into it; step's warm branch (0x5151, 0.4 % of its entries) stays hot;
# - split=3 (the default): step's warm branch is in step.cold, spin as with split=2;
# - split-min=N: a function whose cold part would hold fewer than N
#   instructions stays whole: step (3, its warm branch) with split-min=5,
#   spin (1) with 2 and 5, main (29) only with 100; split-min=0 is the default;
# - every variant prints what the training build printed, with the cold
#   paths run (argument 3) or not, at -O2 and -O3 with GCC's checking on;
# - without a branch profile (only a tier applied, or no feedback) the code
#   is the same byte for byte whatever split= says; bad values are refused.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/coldsplit.c

split_trained "$src"
assert_contains "spin has a branch profile" plan.fb "branch-profile fn=spin .*counts="
assert_contains "step has a branch profile" plan.fb "branch-profile fn=step .*counts="

for s in gcc 2 3; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-split=$s \
        -fplugin-arg-perfinst-verbose -c "$src" -o s$s.o 2> s$s.err || { cat s$s.err; fail "split=$s"; }
done
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$src" -o sdef.o

# split=gcc: GCC's partitioning keeps the guessed-zero block hot
assert_not_contains "split=gcc: the pass does not run" sgcc.err "split of"
echo "split=gcc: $(syms sgcc.o)"
case " $(syms sgcc.o) " in *" spin.cold "*) fail "split=gcc: spin should have no cold part" ;; esac
assert_eq "split=gcc: return 0x7777 in spin's hot part" 1 "$(has sgcc.o spin '\$0x7777,%eax')"
ok "split=gcc: spin's zero-trip block stays hot"

# split=2: it is cold; the warm branch is not
assert_contains "split=2: the note says one block was not yet cold for GCC" s2.err \
    "split of .spin.: 1 blocks never ran \(1 of them not yet cold for GCC\), 0 warm"
echo "split=2: $(syms s2.o)"
assert_eq "split=2: return 0x7777 in spin.cold" 1 "$(has s2.o spin.cold '\$0x7777,%eax')"
assert_eq "split=2: no return 0x7777 in spin's hot part" 0 "$(has s2.o spin '\$0x7777,%eax')"
assert_eq "split=2: spin.cold holds only that block (mov, ret)" 2 "$(dis s2.o spin.cold | wc -l)"
assert_eq "split=2: the warm branch in step's hot part" 1 "$(has s2.o step '0x5151')"
case " $(syms s2.o) " in *" step.cold "*) fail "split=2: step should have no cold part" ;; esac
ok "split=2: the never-run block is cold, the warm branch hot"

# split=3: the warm branch goes to step.cold too
assert_contains "split=3: the note counts step's warm block" s3.err \
    "split of .step.: 1 warm blocks, 1 of them in the cold part"
echo "split=3: $(syms s3.o)"
assert_eq "split=3: the warm branch in step.cold" 1 "$(has s3.o step.cold '0x5151')"
assert_eq "split=3: no warm branch in step's hot part" 0 "$(has s3.o step '0x5151')"
assert_eq "split=3: return 0x7777 in spin.cold" 1 "$(has s3.o spin.cold '\$0x7777,%eax')"
ok "split=3: the warm branch is in the cold part"
same_code s3.o sdef.o "split=3 should be the default"
ok "split=3 (warm=1) is the default"

# split-min: kept whole when the cold part would be small
for m in 0 2 5 100; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-split-min=$m \
        -fplugin-arg-perfinst-verbose -c "$src" -o m$m.o 2> m$m.err || { cat m$m.err; fail "split-min=$m"; }
    echo "split-min=$m: $(syms m$m.o)"
done
same_code m0.o sdef.o "split-min=0 should be the default"
assert_not_contains "split-min=0: nothing kept whole" m0.err "kept whole"
assert_eq "split-min=2: spin kept whole, step and main split" "main main.cold spin step step.cold " "$(syms m2.o)"
assert_contains "split-min=2: the note says why" m2.err \
    "split of .spin.: the cold part would hold 1 instructions \(1 blocks never ran, 0 warm\), fewer than 2: kept whole"
assert_eq "split-min=2: return 0x7777 in spin" 1 "$(has m2.o spin '\$0x7777,%eax')"
assert_eq "split-min=5: step's warm branch kept in step" "main main.cold spin step " "$(syms m5.o)"
assert_eq "split-min=5: the warm branch in step" 1 "$(has m5.o step '0x5151')"
assert_contains "split-min=5: step's cold part would hold 3" m5.err \
    "split of .step.: the cold part would hold 3 instructions \(0 blocks never ran, 1 warm\)"
assert_eq "split-min=100: nothing split" "main spin step " "$(syms m100.o)"
assert_contains "split-min=100: main's never-run blocks stay in it" m100.err \
    "split of .main.: 2 blocks that never ran given back their zero, 0 of them in the cold part"
ok "split-min keeps whole the functions whose cold part would be small"

# the same output, cold paths run or not, at -O2 and -O3 with checking
checked_builds "$src" plan.fb split "gcc 2 3" 3 train.out train3.out
checked_builds "$src" plan.fb split-min "5 100" 3 train.out train3.out

# no branch profile, no change: only main's tier applied, or no feedback
n=$(awk '$2 == "function-tier" { print $1; exit }' plan.fb)
[ -n "$n" ] || fail "plan.fb should have a function-tier"
for s in gcc 3; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-only="$n" \
        -fplugin-arg-perfinst-split=$s -c "$src" -o tier$s.o
    pi_cc -O2 -fplugin-arg-perfinst-split=$s -c "$src" -o none$s.o
done
same_code tiergcc.o tier3.o "without a branch profile split=3 should change nothing"
same_code nonegcc.o none3.o "without feedback split=3 should change nothing"
ok "without a branch profile the code is the same byte for byte"

expect_fail "split=4 is refused" pi_cc -O2 -fplugin-arg-perfinst-split=4 -c "$src" -o bad.o
assert_contains "it says what is expected" err "split=4.*expected .2., .3. or .gcc."
expect_fail "warm=0 is refused" pi_cc -O2 -fplugin-arg-perfinst-warm=0 -c "$src" -o bad.o
assert_contains "it says what is expected" err "warm=0.*percentage"
expect_fail "split-min=x is refused" pi_cc -O2 -fplugin-arg-perfinst-split-min=x -c "$src" -o bad.o
assert_contains "it says what is expected" err "split-min=x.*number of instructions"
