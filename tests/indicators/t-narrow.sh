# Narrow counters with spills (seeds 000 M16, 002 M15, 004 M8): narrow.c's
# 200000-iteration loop with 16-bit counters counts exactly 200000/200001
# (3 spills of 65536 each, 3392 and 3393 left), its 1000-iteration statement
# with 8-bit counters 1000/1001 (3 spills of 256); at -O0, -O2 and -O2 -flto.  With
# -fplugin-arg-perfinst-counter-width=8 every counter of an all=count build
# of loops.c, and of threads.c's 8 threads x 1e6 iterations (joined, or
# still running at exit), still counts exactly.  The clean copy has no
# narrow update (mode off counts nothing); bad widths are refused.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2 "-O2 -flto"; do
    pi_cc $opt -g -c "$T/indicators/narrow.c" -o n.o
    pi_ld $opt -o nar n.o $( [ "$opt" = "-O2 -flto" ] && echo "-fplugin=$PLUGIN" )
    PERFINST_OUT=n.pit ./nar > out
    assert_eq "$opt output" 1199515 "$(cat out)"
    "$PMOPT" report ./nar n.pit > rep 2> /dev/null
    "$PMOPT" report ./nar n.pit --by=site --format=csv > s.csv 2> /dev/null
    for want in "spin,200001" "spin,200000" "twice,1001" "twice,1000" "wide,1"; do
        assert_contains "$opt: count $want" s.csv "^${want#*,},[^,]*,[0-9]+,$(echo "$want" | cut -d, -f1),"
    done
    assert_contains "$opt: 16-bit spills of the loop body" rep "^ +16 +3 +200000 +spin "
    assert_contains "$opt: 16-bit spills of the loop test" rep "^ +16 +3 +200001 +spin "
    assert_contains "$opt: 8-bit spills of the statement" rep "^ +8 +3 +1000 +twice "
    assert_contains "$opt: 8-bit spills of its test" rep "^ +8 +3 +1001 +twice "
    assert_not_contains "$opt: wide never spills" rep "^ +[0-9]+ +[0-9]+ +[0-9]+ +wide "
    "$PMOPT" dump-meta nar > meta
    assert_contains "$opt: dump-meta: a 16-bit site" meta "^  site [0-9]+: block, .*narrow\.c:1[23]:.*arg 0x10000000"
    assert_contains "$opt: dump-meta: an 8-bit site" meta "^  site [0-9]+: block, .*narrow\.c:2[12]:.*arg 0x8000000"
    rm -f n.pit
done
"$PMOPT" report --format=json ./nar "$(PERFINST_OUT=j.pit ./nar > /dev/null; echo j.pit)" > rep.json 2> /dev/null
python3 - <<'PY' || fail "json spills"
import json
s = sorted((x["function"], x["width"], x["spills"]) for x in json.load(open("rep.json"))["spills"])
assert s == [("spin", 16, 3), ("spin", 16, 3), ("twice", 8, 3), ("twice", 8, 3)], s
PY
ok "json: spills"
PERFINST_MODE=off PERFINST_OUT=off.pit ./nar > /dev/null
"$PMOPT" report ./nar off.pit > offrep 2> /dev/null
assert_not_contains "mode off: no spill" offrep "^Narrow counters"
assert_eq "mode off: nothing counted" "0" \
    "$("$PMOPT" report ./nar off.pit --by=site --format=csv 2> /dev/null | awk -F, 'NR > 1 { s += $1 } END { print s + 0 }')"

# every counter 8 bits wide: loops.c's exact counts (all=count)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counter-width=8 -c "$T/count/loops.c" -o l.o
pi_ld -O2 -o loops l.o
PERFINST_OUT=l.pit ./loops > /dev/null
python3 "$T/count/check-counts.py" --all "$PMOPT" ./loops "$T/count/loops.c" l.pit > c || { cat c; fail "loops.c, 8-bit counters"; }
ok "loops.c with 8-bit counters: $(tail -1 c)"
# threads: each thread's residue is flushed with its counters
pi_cc -O2 -g -fplugin-arg-perfinst-counter-width=16 -c "$T/count/threads.c" -o t.o
pi_ld -O2 -o threads t.o
PERFINST_OUT=joined.pit ./threads
python3 "$T/count/check-counts.py" "$PMOPT" ./threads "$T/count/threads.c" joined.pit > c1 || { cat c1; fail "16-bit, joined threads"; }
ok "16-bit counters, joined threads: $(tail -1 c1)"
"$PMOPT" report ./threads joined.pit > trep 2> /dev/null
assert_contains "threads: 15 spills per thread (1e6 / 65536), 120 in all" trep "^ +16 +120 +8000000 "
PERFINST_OUT=detached.pit ./threads detach
python3 "$T/count/check-counts.py" "$PMOPT" ./threads "$T/count/threads.c" detached.pit > c2 || { cat c2; fail "16-bit, threads running at exit"; }
ok "16-bit counters, threads running at exit: $(tail -1 c2)"

echo 'int x;' > x.c
expect_fail "counter-width=7" pi_cc -fplugin-arg-perfinst-counter-width=7 -c x.c -o x.o
assert_contains "counter-width message" err "expected 8, 16, 32 or 64"
expect_fail "combine=some" pi_cc -fplugin-arg-perfinst-combine=some -c x.c -o x.o
assert_contains "combine message" err "expected .marked. or .all."
