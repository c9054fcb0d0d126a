# Block and edge counts (optimizer/model/profile.c) and the dynamic statistics:
#  - edges.c, built with all=count: f's edges follow from its block counts
#    (a diamond and a loop), exactly;
#  - k22 (a fixture with hand-made metadata, tests/pmopt/pigen.py): two
#    blocks that both branch to the same two joins; the flow equations leave
#    those four edges open, pmopt shares them out and says so;
#  - the statistics of k22's layout, measured and predicted, exactly;
#  - two training runs merged (pmopt merge) give the summed profile, the
#    same as planning from both traces.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"

pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$T/layout/edges.c" -o edges.o
pi_ld -O2 -o edges edges.o
PERFINST_OUT=a.pit ./edges 1000 > /dev/null
PERFINST_OUT=b.pit ./edges 3000 > /dev/null
"$PMOPT" plan -o a.fb ./edges a.pit > /dev/null
sum=$("$PMOPT" dump-meta edges | awk '$1 == "function" && $3 == "f" { print $NF }')
assert_eq "f: block and edge counts (1000 calls)" \
    "branch-profile fn=f checksum=$sum sites=7 first=0 weight=6998 counts=1000,250,750,1000,999,1999,1000 edges=250,750,999,1000" \
    "$(rec a.fb branch-profile f)"
assert_contains "f: no edge estimated" a.fb "^# [0-9]+\. .*: f: block and edge counts \(6998 block executions, 7 blocks, 0 of 8 edges estimated\)"

# merge: the sum of the two runs
"$PMOPT" merge -o ab.pit a.pit b.pit
"$PMOPT" plan -o ab.fb ./edges ab.pit > /dev/null
assert_eq "f: merged profile (1000 + 3000 calls)" \
    "branch-profile fn=f checksum=$sum sites=7 first=0 weight=27998 counts=4000,1000,3000,4000,3999,7999,4000 edges=1000,3000,3999,4000" \
    "$(rec ab.fb branch-profile f)"
"$PMOPT" plan -o ab2.fb ./edges a.pit b.pit > /dev/null
diff <(grep -v '^program' ab.fb) <(grep -v '^program' ab2.fb) || fail "planning from the merged trace and from both traces differs"
ok "plan from merge = plan from both traces"

# k22: the undetermined edges
F=$T/pmopt
cp "$T/layout/k22.c" "$T/layout/k22.json" "$F/markers.h" .
gcc -S -g -O0 k22.c -o k22.s
python3 "$F/pigen.py" meta k22.json k22.c >> k22.s
gcc -c k22.s -o k22.o
gcc k22.o -o k22
python3 "$F/pigen.py" trace -o k.pit --prog k22 --unit 0xc0c0c0c000000022=100,60,40,70,30,100
"$PMOPT" plan -o k.fb ./k22 k.pit > k.out
# 0->1 and 0->2 follow from blocks 1 and 2 (one predecessor each); 1 and 2
# share out 60 and 40 over 3 (70) and 4 (30): block 1 in proportion
# (42, 18), block 2 the rest (28, 12)
assert_eq "k22: edges" "counts=100,60,40,70,30,100 edges=60,40,42,18,28,12" \
    "$(rec k.fb branch-profile k22 | grep -o 'counts=.*')"
assert_contains "k22: four edges estimated, and said" k.fb "k22: block and edge counts \(400 block executions, 6 blocks, 4 of 8 edges estimated\)"
# the layout (-O0, ranges in site order 0..5): fall-throughs are 0->1 (60),
# 2->3 (28), 4->5 (30); everything else is taken: 40+42+18+12+70 = 182.
# Predicted: chains 0-1-3-5 (60+42+70) and 2-4 (12) fall through, 116 taken.
assert_contains "measured: taken" k.out "^  taken branches         182 \(60\.7%\)$"
assert_contains "measured: fall-through" k.out "^  fall-through           118 \(39\.3%\)$"
assert_contains "edges executed" k.out "^  executed edges         300 \(in 1 functions"
sed -n '/predicted/,$p' k.out > k.pred
assert_contains "predicted: taken" k.pred "^  taken branches         116 \(38\.7%\)$"
"$PMOPT" plan --stats ./k22 k.pit > k.stats
assert_contains "--stats: the measured statistics" k.stats "^  taken branches         182 "
assert_not_contains "--stats: nothing predicted" k.stats "predicted"
