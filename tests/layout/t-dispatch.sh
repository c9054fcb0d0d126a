# A dispatch loop kept whole (-fplugin-arg-perfinst-dispatch=whole,
# gcc-plugin/pass-coldsplit.cc, docs/layout.md "The split"), on
# dispatch.c trained with opcodes 0-3 of 16:
# - run() switches once per interpreted instruction, 64 per call: with
#   dispatch=split its 12 never-run opcodes are in run.cold; with
#   dispatch=whole run has no cold part, every opcode's constant is in run,
#   and the note gives the dispatch's 16 successors and 64 runs per entry;
# - once() switches once per call: split alike with either value (its
#   never-run cases in once.cold);
# - every build prints what -O2 prints on the training input and on all
#   16 opcodes, at -O2 and -O3 with GCC's checking; a bad value is refused;
# - dispatch=small, the default, keeps run (a few hundred instructions)
#   whole, as dispatch=whole does, and splits dispatch-big.c's big(), a dispatch loop
#   of more instructions than its limit (16 opcodes of 96 mixing steps), as
#   dispatch=split does.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/dispatch.c


dispatch_trained "$src"
assert_contains "once has a branch profile" plan.fb "branch-profile fn=once .*counts="

for d in split whole small; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-dispatch=$d \
        -fplugin-arg-perfinst-verbose -c "$src" -o $d.o 2> $d.err || { cat $d.err; fail "dispatch=$d"; }
    echo "dispatch=$d: $(syms $d.o)"
done
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$src" -o def.o
same_code small.o def.o "dispatch=small should be the default"
ok "dispatch=small is the default"

# dispatch=split: run's never-run opcodes are cold
assert_contains "split: run's note" split.err "split of .run.: 13 blocks never ran"
assert_eq "split: opcode 4 in run.cold" 1 "$(has split.o run.cold '0x4444')"
assert_eq "split: opcode 15 in run.cold" 1 "$(has split.o run.cold '0xf0f0')"
assert_eq "split: opcode 4 not in run" 0 "$(has split.o run '0x4444')"
ok "dispatch=split: run's 12 never-run opcodes are in run.cold"

# dispatch=whole: run is one piece, once is split as before
assert_contains "whole: run is a dispatch loop" whole.err \
    "split of .run.: a dispatch loop \(16 successors, 64.0 runs per entry\): kept whole \(dispatch=whole\), 13 blocks that never ran stay in it"
assert_contains "whole: they got their zero back, none cold" whole.err \
    "split of .run.: 13 blocks that never ran given back their zero, 0 of them in the cold part"
case " $(syms whole.o) " in *" run.cold "*) fail "dispatch=whole: run should have no cold part" ;; esac
for k in 0x4444 0x5555 0x6606 0x7707 0x8808 0x9909 0xa0a0 0xb0b0 0xc0c0 0xd0d0 0xe0e0 0xf0f0; do
    assert_eq "whole: opcode constant $k in run" 1 "$(has whole.o run "$k")"
done
ok "dispatch=whole: run keeps its 12 never-run opcodes"
assert_not_contains "whole: once is no dispatch loop" whole.err "split of .once.: a dispatch loop"
assert_eq "whole: once's case 4 in once.cold" 1 "$(has whole.o once.cold '0x14444')"
sizes() { nm -S "$1" | awk '$4 == "once" || $4 == "once.cold" { print $4, $2 }'; }
assert_eq "whole: once and once.cold as large as with split" "$(sizes split.o)" "$(sizes whole.o)"
assert_eq "whole: once's note as with split" "$(grep "split of .once." split.err)" "$(grep "split of .once." whole.err)"
ok "dispatch=whole: once (one switch per call, 1 run per entry) is split as before"

checked_builds "$src" plan.fb dispatch "split whole" 2 o2.out o2-2.out

expect_fail "dispatch=none is refused" pi_cc -O2 -fplugin-arg-perfinst-dispatch=none -c "$src" -o bad.o
assert_contains "it says what is expected" err "dispatch=none.*expected .split., .whole. or .small."

# dispatch=small: run is small, kept whole as with dispatch=whole
assert_contains "small: run is a small dispatch loop, kept whole" small.err \
    "split of .run.: a dispatch loop \(16 successors, 64.0 runs per entry\) of [0-9]+ instructions: kept whole \(dispatch=small\), 13 blocks that never ran stay in it"
same_code whole.o small.o "dispatch=small should compile dispatch.c as dispatch=whole does"
ok "dispatch=small: run kept whole, the same code as dispatch=whole"

# dispatch-big.c: big() is a dispatch loop over the limit, split as with dispatch=split
big=$T/layout/dispatch-big.c
gcc -O2 -o bo2 "$big"
./bo2 2 > bo2-2.out
pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$big" -o btrain.o
pi_ld -O2 -o btrain btrain.o
PERFINST_OUT=btrain.pit ./btrain > /dev/null
"$PMOPT" plan -o bplan.fb ./btrain btrain.pit > /dev/null
for d in split whole small; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=bplan.fb -fplugin-arg-perfinst-dispatch=$d \
        -fplugin-arg-perfinst-verbose -c "$big" -o b$d.o 2> b$d.err || { cat b$d.err; fail "big: dispatch=$d"; }
done
assert_contains "small: big is split, its size named" bsmall.err \
    "split of .big.: a dispatch loop \(16 successors, 64.0 runs per entry\) of [0-9]+ instructions, more than 5461: split \(dispatch=small\)"
n=$(sed -n 's/.*split of .big.: a dispatch loop .* of \([0-9]*\) instructions, more.*/\1/p' bsmall.err)
[ "$n" -gt 5461 ] || fail "big's instruction count $n should be over 5461"
same_code bsplit.o bsmall.o "dispatch=small should compile big as dispatch=split does"
case " $(syms bsmall.o) " in *" big.cold "*) ;; *) fail "dispatch=small: big should have a cold part" ;; esac
case " $(syms bwhole.o) " in *" big.cold "*) fail "dispatch=whole: big should have no cold part" ;; esac
assert_eq "small: opcode 15's first step in big.cold" 1 "$(has bsmall.o big.cold '0xf000')"
gcc -o bsmall bsmall.o
./bsmall 2 > bsmall-2.out
cmp bo2-2.out bsmall-2.out || fail "dispatch=small's big prints something else on all 16 opcodes"
ok "dispatch=small: big ($n instructions) split, the same code as dispatch=split"
