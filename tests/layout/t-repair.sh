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
#   left a count that no edge brings them give nothing a count, and are
#   given a zero (two blocks): they and the call to calltm go to
#   objlen.cold, where GCC's counts left them in objlen's hot part;
# - pragma (SQLite's sqlite3Pragma in small): a switch run twice, whose
#   edges' shares of 10 % count 0, still leads to the case that ran, whose
#   lost zeros are given back: both calls to g in pragma's hot part;
# - feedback-repair=lost gives back the zeros alone: objlen's tests stay
#   in its hot part;
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

# objlen: a count no edge brings makes nothing hot, and is taken away
assert_contains "objlen has a branch profile" plan.fb "branch-profile fn=objlen .*counts="
assert_contains "no block of objlen given a count, the two tests given a zero" r.err \
    "profile of .objlen.: 0 blocks with a zero count that a block that ran enters given the counts of their incoming edges, 2 blocks with a count that none enters given a zero"
assert_not_contains "nothing left to do before the split" r.err "split of .objlen.: [0-9]+ blocks with a"
assert_eq "the tests of tags 20 and 4 not in objlen's hot part" 0 "$(has r.o objlen 'cmp *\$0x\(14\|4\),')"
assert_eq "they are in objlen.cold" 2 "$(has r.o objlen.cold 'cmp *\$0x\(14\|4\),')"
assert_eq "the call to gettm in objlen.cold" 1 "$(has r.o objlen.cold 'call')"
assert_eq "objlen's hot part calls nothing" 0 "$(has r.o objlen 'call')"
ok "objlen: nothing given a count, the tests that never ran given a zero and cold"

# pragma: a share that counts 0 still leads to a case that ran
assert_contains "pragma's case 3 given its lost counts" r.err \
    "profile of .pragma.: 3 blocks with a zero count that a block that ran enters"
assert_eq "both calls to g of case 3 in pragma's hot part" 2 "$(has r.o pragma 'call')"
ok "pragma: the case that ran behind GCC's shares is hot"

# feedback-repair=lost: the lost counts given back, no zero given
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-repair=lost \
    -fplugin-arg-perfinst-verbose -c "$src" -o lost.o 2> lost.err || { cat lost.err; fail "feedback-repair=lost"; }
assert_contains "lost: f repaired" lost.err "profile of .f.: 1 blocks with a zero count that a block that ran enters given the counts of their incoming edges, 0 blocks"
assert_not_contains "lost: no block given a zero" lost.err "[1-9][0-9]* blocks with a count that none enters"
assert_eq "lost: both calls to g in f's hot part" 2 "$(has lost.o f 'call')"
assert_eq "lost: the tests of tags 20 and 4 in objlen's hot part" 2 "$(has lost.o objlen 'cmp *\$0x\(14\|4\),')"
ok "feedback-repair=lost gives back the lost counts alone"

# feedback-repair=no: GCC's counts as they were, f's tail in f.cold
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-repair=no \
    -fplugin-arg-perfinst-verbose -c "$src" -o norep.o 2> norep.err || { cat norep.err; fail "feedback-repair=no"; }
assert_not_contains "feedback-repair=no: no block given a count" norep.err "blocks with a zero count"
assert_eq "feedback-repair=no: no call in f's hot part" 0 "$(has norep.o f 'call')"
assert_eq "feedback-repair=no: both calls in f.cold" 2 "$(has norep.o f.cold 'call')"
assert_eq "feedback-repair=no: no call in pragma's hot part" 0 "$(has norep.o pragma 'call')"
assert_eq "feedback-repair=no: the tests of tags 20 and 4 in objlen's hot part" 2 "$(has norep.o objlen 'cmp *\$0x\(14\|4\),')"
ok "feedback-repair=no leaves GCC's zeros and counts: f's tail is cold, objlen's tests hot"
expect_fail "feedback-repair=maybe is refused" pi_cc -O2 -fplugin-arg-perfinst-feedback-repair=maybe -c "$src" -o bad.o
assert_contains "it says what is expected" err "feedback-repair.*maybe"

checked_builds "$src" plan.fb split "2 3" 3 train.out train3.out
checked_builds "$src" plan.fb feedback-repair "lost no" 3 train.out train3.out
