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
# - feedback-repair=converse (opt-in) also gives them a zero (two
#   blocks): they and the call to gettm go to objlen.cold; and pragma
#   (SQLite's sqlite3Pragma in small), a switch run twice whose edges'
#   shares of 10 % count 0, still leads to the case that ran, whose lost
#   zeros are given back (both calls to g in pragma's hot part; by
#   default they stay in pragma.cold);
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
assert_not_contains "nor before the split" r.err "split of .objlen.: [0-9]+ blocks with a"
assert_eq "the tests of tags 20 and 4 in objlen's hot part" 2 "$(has r.o objlen 'cmp *\$0x\(14\|4\),')"
ok "objlen: nothing given a count"

# pragma: a share that counts 0 leads nowhere by default
assert_eq "pragma's case 3 in pragma.cold by default" 0 "$(has r.o pragma 'call')"
ok "pragma: the case behind GCC's shares stays cold by default"

# feedback-repair=converse: the tests that never ran given a zero, and a
# share that counts 0 still leads to a case that ran
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-feedback-repair=converse \
    -fplugin-arg-perfinst-verbose -c "$src" -o conv.o 2> conv.err || { cat conv.err; fail "feedback-repair=converse"; }
assert_contains "converse: f repaired as by default" conv.err \
    "profile of .f.: 1 blocks with a zero count that a block that ran enters given the counts of their incoming edges, 0 blocks"
assert_eq "converse: both calls to g in f's hot part" 2 "$(has conv.o f 'call')"
assert_contains "converse: no block of objlen given a count, the two tests given a zero" conv.err \
    "profile of .objlen.: 0 blocks with a zero count that a block that ran enters given the counts of their incoming edges, 2 blocks with a count that none enters given a zero"
assert_eq "converse: the tests of tags 20 and 4 not in objlen's hot part" 0 "$(has conv.o objlen 'cmp *\$0x\(14\|4\),')"
assert_eq "converse: they are in objlen.cold" 2 "$(has conv.o objlen.cold 'cmp *\$0x\(14\|4\),')"
assert_eq "converse: the call to gettm in objlen.cold" 1 "$(has conv.o objlen.cold 'call')"
assert_eq "converse: objlen's hot part calls nothing" 0 "$(has conv.o objlen 'call')"
assert_contains "converse: pragma's case 3 given its lost counts" conv.err \
    "profile of .pragma.: 3 blocks with a zero count that a block that ran enters"
assert_eq "converse: both calls to g of case 3 in pragma's hot part" 2 "$(has conv.o pragma 'call')"
ok "feedback-repair=converse: objlen's tests that never ran cold, pragma's case that ran hot"

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
checked_builds "$src" plan.fb feedback-repair "converse no" 3 train.out train3.out
