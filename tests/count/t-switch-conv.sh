# With switch-again=yes, switch conversion and if-to-switch reach the clean
# copy (the default, no, leaves the clean copy's switches as main did: on
# SQLite counting ran 2.8 % more instructions with it): gcc -O2 turns
# weight()'s switch of constants (switch-conv.c) into a load from a CSWTCH
# table and odd_pick()'s if-chain into a bit test (`bt`).  GCC 12 runs
# both passes only before IPA, where the counters in the case blocks stop
# them; pass-split runs them again once the clean copy has no counters
# (before, an all=count build kept a jump table and a compare chain there).
# The counting copy keeps its case blocks and counts exactly; with
# PERFINST_MODE=off nothing is counted.  All this counted at cfg
# (count-at=cfg); counted after the early inliner (count-at=late, the
# default) both copies get -O2's table and bit test, whatever switch-again
# says: the early passes convert the switches before any counter exists.  With entry=jump the
# passes run before the entry's byte test becomes the slot's jmp (with the
# jmp in place first, if-to-switch left odd_pick's chain alone).  The
# parts at cfg with clean-copies=all: switch-again runs the passes on a
# clean copy compiled on its own (with clean-copies=final, the default, F
# is made of the counting copy's code, and has its switches).
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
tables() { nm "$1" | grep -c ' CSWTCH\.' || true; }
bittests() { objdump -d --no-show-raw-insn "$1" | grep -cE $'\tbt +' || true; }
gcc -O2 -c "$T/count/switch-conv.c" -o o2.o
assert_eq "gcc -O2 converts the switch (the fixture is valid)" 1 "$(tables o2.o)"
assert_eq "gcc -O2 tests bits for the if-chain" 1 "$(bittests o2.o)"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-count-at=cfg -c "$T/count/switch-conv.c" -o default.o
assert_eq "all=count, default: no table (switch-again=no)" 0 "$(tables default.o)"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-switch-again=yes \
    -fplugin-arg-perfinst-entry=jump -c "$T/count/switch-conv.c" -o pi.o
assert_eq "all=count: the clean copy loads from a table too" 1 "$(tables pi.o)"
assert_eq "all=count: the clean copy tests bits too" 1 "$(bittests pi.o)"
# with entry=jump the passes run on the byte test, which then
# becomes the slot's jmp (pass-split.cc, jump_dispatch)
objdump -d --no-show-raw-insn pi.o | awk '/<odd_pick>:/ { getline; print; exit }' > entry.s
assert_contains "all=count: odd_pick enters through its jump slot" entry.s $'\tjmp +[*]0x0[(]%rip[)]'
# the same with the default entry=test
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-switch-again=yes \
    -c "$T/count/switch-conv.c" -o pt.o
assert_eq "all=count, entry=test: the clean copy loads from a table too" 1 "$(tables pt.o)"
assert_eq "all=count, entry=test: the clean copy tests bits too" 1 "$(bittests pt.o)"
pi_ld -O2 -o pi pi.o
PERFINST_OUT=pi.pit ./pi > out
assert_eq "output" 1248 "$(cat out)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./pi "$T/count/switch-conv.c" pi.pit ||
    fail "the counting copy's counts"
off_counts_nothing pi 1248

pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/switch-conv.c" -o late.o
assert_eq "late: one table" 1 "$(tables late.o)"
assert_eq "late: both copies test bits" 2 "$(bittests late.o)"
pi_ld -O2 -o late late.o
PERFINST_OUT=late.pit ./late > out
assert_eq "late: output" 1248 "$(cat out)"
off_counts_nothing late 1248
# switch-again applies to functions counted at cfg only: counted late it changes
# no instruction, and the compiler says so in a note (none at cfg)
cfg_only_option switch-again=yes "$T/count/switch-conv.c"
