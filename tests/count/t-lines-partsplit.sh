# A line GCC's early ipa-split cuts across: F keeps the line's first
# statements (a test), F.part.N begins with the rest, through a block of
# the split's own that has no line.  gcov's F is whole, so the line is
# entered once per execution, not again where the part begins: libuv
# 1.44.2's timer.c:105 (uv_timer_stop's uv__handle_stop, 32,240 for
# gcov's 16,120), loop-watcher.c's one-line uv_idle_stop and a one-line
# callback (partline.c's @tick: 100, was 114).  A part that begins on a
# line of its own still enters it (@tock: 14), and every line gcov -O2
# lists has its count.
. "$PERFINST_TOP/tests/lib.sh"
# (the shape: tick split by the early ipa-split)
tick_split() {
    "$PMOPT" dump-meta pl | grep -q "function [0-9]* tick \[tick\.part\.[0-9]*\].*a part the early ipa-split cut off" ||
        skip "GCC did not split tick (no tick.part.N): the shape is not there"
}
GCOV_FIXTURE_CHECK=tick_split
. "$T/count/gcov-lines-fixture.sh" partline.c pl
assert_eq "tick's one line, split after its test: entered once a call (was 114)" 100 "$(at '@tick')"
assert_eq "tock's part, on a line of its own: entered 14 times" 14 "$(at '@tock')"
