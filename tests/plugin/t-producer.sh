#!/bin/bash
# The unit's producer string (pmopt dump-meta's `producer "..."`) names the
# optimisation level as it was given: GCC keeps -Os and -Oz as optimize 2,
# -Og as 1 and -Ofast as 3, and "-O2" was written for BusyBox's -Os build.
# Then the unit's variant (its options less perfinst's, hashed: t-variants.sh).
. "$PERFINST_TOP/tests/lib.sh"
echo 'int f(int x) { return x * 3 + 1; }' > f.c
for o in -O0 -O1 -O2 -O3 -Os -Oz -Og -Ofast; do
    pi_cc $o -fplugin-arg-perfinst-all=count -c f.c -o "f$o.o"
    "$PMOPT" dump-meta "f$o.o" > "meta$o"
    assert_contains "$o: the producer names it" "meta$o" "producer \"perfinst [0-9.]+ gcc [0-9.]+ $o variant=[0-9a-f]{16}\""
done
# the last level given wins, as in GCC
pi_cc -O2 -g -Os -fplugin-arg-perfinst-all=count -c f.c -o last.o
"$PMOPT" dump-meta last.o > meta-last
assert_contains "-O2 then -Os: -Os" meta-last 'producer "perfinst [0-9.]+ gcc [0-9.]+ -Os variant=[0-9a-f]{16}"'
