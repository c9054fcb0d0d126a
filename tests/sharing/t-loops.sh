# checks made once for several accesses (pass-sharing.cc), beyond a
# block's accesses through one base (t-coalesce.sh):
#  - a block operation of a constant length of at most a line (memset of
#    16 bytes) gets the inlined check of its lines, so the runtime sees it
#    only while the check would not skip it;
#  - a loop of a known trip count whose accesses walk at most two lines
#    each (8 doubles, 32 bytes into a line) gets one check before it;
#  - a loop whose trip count is known only when it runs (rowloops.c: parts
#    of rows whose middle lines are the worker's own and whose end lines
#    are shared, sampled) gets one check before it and, when it passes, runs
#    a copy without checks: before each such loop the fixture counts, from
#    the shadow's bytes, what the per-access checks would take off the
#    countdown, and compares it with what the loop took off (none may
#    differ); the exact-mode reports of both builds are the same, and the
#    workers' instructions show that the copy without checks ran;
#  - a long loop with an access at one address (rowloops.c's sum, on a
#    line both workers write) is checked once every 57 iterations: the
#    same comparison of the countdown, the chunks' iterations not run given
#    back at the loop's exit (130 and 200 iterations), and its instructions;
#    a long loop adding into the sum alone runs its chunks in a copy without
#    checks (the same comparison); so do long loops whose access to the sum
#    runs in some iterations only (every 2nd or 7th, or in turns with one to
#    the worker's own vector): each counted where it runs, the countdown
#    given back for the runs it did not make.
# What the runtime records is what it recorded with a check and a call per
# access (sharing-coalesce=no): the same report in the exact mode.  The
# number of block operations that reached the runtime (SHARE_STATS blocks)
# is known exactly: in the exact mode every one on the shared line (2 a
# round), main's memset of 192 bytes, and on each worker's own line those
# of its footprint (PERFINST_SHARING_SAMPLE=64 accesses, two a round: 32
# rounds), then none.  The loop's check is counted by callgrind: the
# workers' instructions on their own lines, with and without it.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/sharing/loops.c
for v in yes no; do
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-coalesce=$v \
        -fplugin-arg-perfinst-verbose -c "$src" -o l$v.o 2> l$v.notes
    pi_ld -O2 -o l$v l$v.o
done
assert_contains "the loop: one check before it" lyes.notes \
    "loops.c:[0-9]+:[0-9]+: note: perfinst: sharing: one check before a loop of 8 iterations for its 2 accesses"
assert_not_contains "sharing-coalesce=no: no loop checks" lno.notes "one check before a loop"
blocks() { "$PMOPT" dump "$1" | sed -n 's/.* SHARE_STATS .*, blocks \([0-9]*\)$/\1/p'; }
mask() { sed -E 's/0x[0-9a-f]+//g; s/tid [0-9]+//; s/cpu [0-9]+//; s/ in e(yes|no)[0-9]*\.pit//; s/T[23]/T/g' "$1" | sort; }
for R in 1000 2000; do
    for v in yes no; do
        PERFINST_SHARING_PERIOD=1 PERFINST_OUT=e$v$R.pit ./l$v $R > e$v$R.out
        "$PMOPT" report --sharing l$v e$v$R.pit > e$v$R.rep
    done
    cmp -s eyes$R.out eno$R.out || fail "the program's output differs between the builds"
    assert_contains "exact, R=$R: the memset line's false sharing" eyes$R.rep \
        "objects: heap object from loops.c:[0-9]+ \(main\) \(heap, 64 bytes"
    assert_contains "exact, R=$R: the loop's line's false sharing" eyes$R.rep \
        "objects: heap object from loops.c:[0-9]+ \(main\) \(heap, 192 bytes"
    assert_eq "exact, R=$R: lines with 2*(R-1) false reloads" 2 \
        "$(grep -c "FALSE sharing  reloads: 0 true, $((2 * R - 2)) false " eyes$R.rep)"
    mask eyes$R.rep > eyes$R.m
    mask eno$R.rep > eno$R.m
    diff -u eno$R.m eyes$R.m || fail "exact mode, R=$R: the inlined checks changed the report"
    assert_eq "exact, R=$R: block operations seen with a call each" $((4 * R + 1)) "$(blocks eno$R.pit)"
    assert_eq "exact, R=$R: block operations seen behind the inlined check" $((2 * R + 64 + 1)) "$(blocks eyes$R.pit)"
done
# sampled mode (the default period): the same verdicts
PERFINST_OUT=s.pit ./lyes > /dev/null
"$PMOPT" report --sharing lyes s.pit > s.rep
assert_eq "sampled: the two lines' false sharing" 2 "$(grep -c '^#[0-9]*  line 0x[0-9a-f]*  FALSE sharing' s.rep)"

# loops of a trip count known when they run (rowloops.c)
src=$T/sharing/rowloops.c
for v in yes no; do
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-coalesce=$v \
        -fplugin-arg-perfinst-verbose -c "$src" -o r$v.o 2> r$v.notes
    pi_ld -O2 -o r$v r$v.o
done
assert_contains "rowloops: one check before the loop" ryes.notes \
    "rowloops.c:[0-9]+:[0-9]+: note: perfinst: sharing: one check before a loop of up to 64 iterations \(counted before it\) for its 2 accesses"
assert_contains "rowloops: a copy without checks" ryes.notes \
    "rowloops.c:[0-9]+:[0-9]+: note: perfinst: sharing: the loop without checks when that check passes"
assert_contains "rowloops: the long loop checked in chunks" ryes.notes \
    "rowloops.c:[0-9]+:[0-9]+: note: perfinst: sharing: one check every 57 iterations of a loop for its 2 accesses"
assert_contains "rowloops: the long loop at one address checked in chunks" ryes.notes \
    "rowloops.c:[0-9]+:[0-9]+: note: perfinst: sharing: one check every 64 iterations of a loop for its 1 accesses"
assert_contains "rowloops: accesses in some iterations only, checked in chunks" ryes.notes \
    "rowloops.c:[0-9]+:[0-9]+: note: perfinst: sharing: one check every 64 iterations of a loop for its 2 accesses"
assert_not_contains "sharing-coalesce=no: no chunks" rno.notes "one check every"
for v in yes no; do
    PERFINST_OUT=r$v.pit ./r$v > r$v.out || fail "rowloops ($v) failed"
    sed -n 's/^verified \([0-9]*\) \([0-9]*\) wrong \([0-9]*\) \([0-9]*\) counted.*/\1 \2 \3 \4/p' r$v.out > r$v.v
    read -r v0 v1 w0 w1 < r$v.v || fail "rowloops ($v): no verification line"
    # 2 x 4 rows x 6 starts x 11 lengths, less those past a row's end
    [ "$v0" -ge 100 ] && [ "$v1" -ge 100 ] || fail "rowloops ($v): only $v0 and $v1 loops verified"
    assert_eq "rowloops ($v): loops whose countdown differs from their checks'" "0 0" "$w0 $w1"
done
n_some=$(sed -n 's/^some //p' ryes.out)
[ "${n_some:-0}" -ge 1 ] || fail "rowloops: no loop with accesses in some iterations only verified"
# the result; not the verified loops' numbers, which depend on the lines'
# states when each loop starts (a sampling window the other worker left
# open at the barrier: 222 against 223 once under load)
[ "$(head -1 ryes.out)" = "$(head -1 rno.out)" ] || fail "rowloops: the builds' results differ: $(cat ryes.out) / $(cat rno.out)"
ok "rowloops: $(sed -n 's/^verified/verified/p' ryes.out) (the same with a check per access)"
for v in yes no; do
    PERFINST_SHARING_PERIOD=1 PERFINST_OUT=re$v.pit ./r$v 4 > /dev/null
    "$PMOPT" report --sharing r$v re$v.pit > re$v.rep
    sed -E 's/0x[0-9a-f]+//g; s/tid [0-9]+//; s/cpu [0-9]+//; s/ in re(yes|no)\.pit//; s/T[23]/T/g' re$v.rep | sort > re$v.m
done
grep -q "FALSE sharing" reyes.rep || fail "rowloops, exact: no false sharing found"
diff -u reno.m reyes.m || fail "rowloops, exact mode: the loop's check changed the report"

# an access after a check of the same bytes and kind with no call between
# tests no known line (bench/sharing/kmeans.c: the inner loops' volatile
# bounds, read before each loop and at each iteration's end)
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-verbose -c "$PERFINST_TOP/bench/sharing/kmeans.c" \
    -o km.o 2> km.notes
assert_eq "kmeans: the loops' bounds' known-line tests left out" 2 \
    "$(grep -cE 'kmeans.c:(40|42):[0-9]+: note: perfinst: sharing: no known-line test: the check at line (40|42) made sure' km.notes)"

# the loop's check: the workers' own instructions (callgrind, exact) on
# their own lines, 2*R loops of 16 accesses: a check per access costs 5
# instructions or more, the loop's check with a test per access fewer
command -v valgrind > /dev/null || skip "valgrind not installed"
R=1000
for v in yes no; do
    PERFINST_OUT=cg$v.pit valgrind --tool=callgrind --callgrind-out-file=cg.$v ./l$v $R private > cg$v.out 2>&1
    callgrind_annotate cg.$v > cg$v.txt 2> /dev/null
    eval ir_$v=$(grep -m1 "loops.c:worker \[" cg$v.txt | awk "{print \$1}" | tr -d ,)
done
[ -n "$ir_yes" ] && [ -n "$ir_no" ] || fail "no callgrind count of the workers"
[ $((ir_no - ir_yes)) -ge $((2 * R * 8)) ] ||
    fail "the loop's check: the workers ran $ir_yes instructions, $ir_no with a check per access"
ok "the loop's check: the workers ran $ir_yes instructions, $ir_no with a check per access"
# rowloops: the copy without checks ran (a check per access costs 5
# instructions or more, the loop's check about 100 — 150 on lines of
# different kinds; the loops that fit the check, 8 to 47 iterations: half
# an instruction an access fewer at least.  It was one until the checks
# per access lost their lea (t-checkcost.sh): 130,916 - 118,002 = 1.4 an
# access before, 121,060 - 114,506 = 0.7 after, both counts lower; without
# the copy the loops with checks would run more than with a check each)
for v in yes no; do
    PERFINST_OUT=cgr$v.pit valgrind --tool=callgrind --callgrind-out-file=cgr.$v ./r$v 12 short > cgr$v.out 2>&1
    callgrind_annotate cgr.$v > cgr$v.txt 2> /dev/null
    eval irr_$v=$(grep -m1 -E "rowloops.c:axpy[. ].*\[" cgr$v.txt | awk "{print \$1}" | tr -d ,)
    eval irs_$v=$(grep -m1 -E "rowloops.c:sum_into[. ].*\[" cgr$v.txt | awk "{print \$1}" | tr -d ,)
done
[ -n "$irr_yes" ] && [ -n "$irr_no" ] || fail "no callgrind count of rowloops' loops"
n_acc=$(sed -n 's/^accesses //p' cgryes.out)
[ -n "$n_acc" ] || fail "rowloops: no count of the loops' accesses"
[ $((2 * (irr_no - irr_yes))) -ge $((n_acc)) ] ||
    fail "rowloops: the loops ran $irr_yes instructions, $irr_no with a check per access"
ok "rowloops: the loops ran $irr_yes instructions, $irr_no with a check per access"
# the long loop: its own line, sampled, and the vector, its own: the check
# of each chunk of 57 iterations stands for 114 checks, the counter and a
# test per access stay (an instruction an iteration fewer at least; with
# no chunk skipped, more)
n_it=$(sed -n 's/^chunked //p' cgryes.out)
[ -n "$irs_yes" ] && [ -n "$irs_no" ] && [ -n "$n_it" ] || fail "no callgrind count of rowloops' long loops"
[ $((irs_no - irs_yes)) -ge $((n_it)) ] ||
    fail "rowloops: the long loops ran $irs_yes instructions, $irs_no with a check per access ($n_it iterations)"
ok "rowloops: the long loops ran $irs_yes instructions, $irs_no with a check per access ($n_it iterations)"
