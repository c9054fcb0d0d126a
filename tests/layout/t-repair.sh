# The applied counts kept consistent (gcc-plugin/pass-feedback.cc
# pi_feedback_repair_counts, docs/layout.md "Counts GCC loses"), on
# repair.c trained once with f's nested branches never run:
# - GCC 12's cd-dce leaves a block on the path of every call to f a
#   precise zero; the plugin gives it back its incoming edges' count
#   (one block, said with -fplugin-arg-perfinst-verbose);
# - so f's hot part holds both calls to g and the return, and f.cold only
#   the branches that never ran (without the repair the whole tail after
#   the branches was in f.cold);
# - objlen (Lua's luaV_objlen in small): the tests GCC's switch lowering
#   left a count that no edge brings them give nothing a count;
# - feedback-repair=no leaves GCC's zeros (f's tail in f.cold); a bad
#   value is refused;
# - the output is the training build's, the branches run or not, at -O2
#   and -O3 with GCC's checking on, split=2 and split=3.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/repair.c

split_trained "$src"
assert_contains "f has a branch profile" plan.fb "branch-profile fn=f .*counts="

pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-verbose -c "$src" -o r.o 2> r.err ||
    { cat r.err; fail "the rebuild"; }
assert_contains "one block of f given its edges' count" r.err \
    "profile of .f.: 1 blocks with a zero count that a block that ran enters"
echo "rebuild: $(syms r.o)"
assert_eq "both calls to g in f's hot part" 2 "$(has r.o f 'call')"
assert_eq "the return in f's hot part" 1 "$(has r.o f 'ret')"
assert_eq "no call in f.cold" 0 "$(has r.o f.cold 'call')"
assert_eq "the branches that never ran in f.cold (a == 7, b == 5)" 2 "$(has r.o f.cold 'cmp *\$0x[75],')"
assert_eq "none of them in f's hot part" 0 "$(has r.o f 'cmp *\$0x[75],')"
ok "f's hot part holds what ran, f.cold what never ran"

# objlen: a count no edge brings makes nothing hot
assert_contains "objlen has a branch profile" plan.fb "branch-profile fn=objlen .*counts="
assert_not_contains "no block of objlen given a count" r.err "profile of .objlen."
assert_not_contains "nor before the split" r.err "split of .objlen.: [0-9]+ blocks with a zero count"
ok "objlen: nothing given a count"

# feedback-repair=no: GCC's counts as they were, f's tail in f.cold
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-repair=no \
    -fplugin-arg-perfinst-verbose -c "$src" -o norep.o 2> norep.err || { cat norep.err; fail "feedback-repair=no"; }
assert_not_contains "feedback-repair=no: no block given a count" norep.err "blocks with a zero count"
assert_eq "feedback-repair=no: no call in f's hot part" 0 "$(has norep.o f 'call')"
assert_eq "feedback-repair=no: both calls in f.cold" 2 "$(has norep.o f.cold 'call')"
ok "feedback-repair=no leaves GCC's zeros: f's tail is cold"
expect_fail "feedback-repair=maybe is refused" pi_cc -O2 -fplugin-arg-perfinst-feedback-repair=maybe -c "$src" -o bad.o
assert_contains "it says what is expected" err "feedback-repair.*maybe"

checked_builds "$src" plan.fb split "2 3" 3 train.out train3.out
checked_builds "$src" plan.fb feedback-repair "no" 3 train.out train3.out
