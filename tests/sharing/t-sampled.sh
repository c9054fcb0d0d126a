# sharing detection in its default, sampled mode (PERFINST_SHARING_PERIOD
# unset: 1 in 1024 accesses to shared lines, on average, opens a window
# that judges the thread's next access exactly): the verdicts of the exact
# mode on each fixture — false on adjacent longs, true on one atomic, none
# on padded counters, both on the right fields of the mixed struct, hidden
# false sharing still predicted — and reload counts that are estimates,
# scaled, near the exact 2*(R-1).
. "$PERFINST_TOP/tests/lib.sh"
unset PERFINST_SHARING_PERIOD
R=20000   # rounds: ~20 samples per thread (the countdown restarts at 1..2047)
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/fixtures.c" -o f.o
pi_ld -O2 -o f f.o
run() { # MODE -> MODE.rep
    rm -f "$1.pit"
    PERFINST_OUT="$1.pit" ./f "$1" $R > "$1.out" 2> /dev/null || fail "$1: the program failed"
    "$PMOPT" report --sharing f "$1.pit" > "$1.rep"
}
for m in adjacent atomic padded mixed hidden; do run $m; done
# the verdicts
assert_contains "adjacent: false sharing only" adjacent.rep "reloads: 0 true, [1-9][0-9]* false\)$"
assert_contains "adjacent: verdict" adjacent.rep "^#1  line 0x[0-9a-f]+  FALSE sharing"
assert_contains "adjacent: both threads' elements" adjacent.rep "writes \[c\[1\]\]; reloads 0 true, [1-9][0-9]* false$"
assert_contains "atomic: true sharing only" atomic.rep "reloads: [1-9][0-9]* true, 0 false\)$"
assert_not_contains "atomic: never false" atomic.rep "FALSE"
assert_contains "padded: no reloads" padded.rep "0 with sharing; reloads: 0 true, 0 false\)$"
assert_contains "mixed: both kinds" mixed.rep "reloads: [1-9][0-9]* true, [1-9][0-9]* false\)$"
assert_contains "mixed: private field a reloads false" mixed.rep "mixed.a: [0-9]+ accesses, reloads 0 true, [1-9][0-9]* false"
assert_not_contains "mixed: shared field never false" mixed.rep "mixed.shared: [0-9]+ accesses, reloads [0-9]+ true, [1-9]"
assert_contains "mixed: shared field reloads true" mixed.rep "mixed.shared: [0-9]+ accesses, reloads [1-9][0-9]* true, 0 false"
# the report says the counts are estimates
assert_contains "says it sampled" adjacent.rep "sampled: 1 in 1024 accesses to shared lines"
# the estimate: 2*(R-1) = 39998 false reloads exactly; sampled, within a factor 2
n=$(sed -n 's/.*reloads: 0 true, \([0-9]*\) false)$/\1/p' adjacent.rep)
[ -n "$n" ] && [ "$n" -ge 20000 ] && [ "$n" -le 80000 ] || fail "adjacent: estimated false reloads $n, expected about 39998"
ok "adjacent: estimated false reloads $n, about 2*(R-1) = 39998"
n=$(sed -n 's/.*reloads: \([0-9]*\) true, 0 false)$/\1/p' atomic.rep)
[ -n "$n" ] && [ "$n" -ge 20000 ] && [ "$n" -le 80000 ] || fail "atomic: estimated true reloads $n, expected about 39998"
ok "atomic: estimated true reloads $n, about 2*(R-1) = 39998"
# the prediction works on sampled lines and on private footprints
assert_contains "adjacent: predicted too" adjacent.rep "c \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it; false reloads: [0-9]+ observed"
assert_contains "hidden: predicted" hidden.rep "^  halves \(global, 128 bytes, at \+0 of its line this run\): HIDDEN false sharing"
# the program's output does not depend on the instrumentation
gcc -O2 -pthread "$T/sharing/fixtures.c" -o plain
for m in adjacent atomic padded mixed hidden; do
    ./plain $m $R > $m.plain 2>/dev/null
    diff -u $m.plain $m.out || fail "$m: output differs from the uninstrumented build"
done
ok "output unchanged by the instrumentation"
# a malformed period is said, and the default used
PERFINST_SHARING_PERIOD=0 PERFINST_OUT=bad.pit ./f padded 10 > /dev/null 2> bad.err
assert_contains "PERFINST_SHARING_PERIOD=0 is refused" bad.err "PERFINST_SHARING_PERIOD=0: expected 1 to 1000000"
