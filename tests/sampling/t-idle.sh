# Idle-transition sampling (PERFINST_IDLE, seed 003): a thread that blocks
# 6 ms in block_long() and 2 ms in block_short() (nanosleep, or a timed
# condition wait) gives an idle tree with both functions as leaves under
# worker, to-idle counts in the ratio of the times it was blocked in them
# (about 3:1, measured by the program, within 25 %) and from-idle counts 1:1
# (within 30 %; check-idle.py), the header ticks = idle + busy; modes to and from record
# only their own counts; the samples' stacks are walked in -O2 code without
# frame pointers.
. "$PERFINST_TOP/tests/lib.sh"

gcc -O2 -g -fomit-frame-pointer -c "$T/sampling/blocker.c" -o blocker.o
pi_ld --pi-runtime -O2 -o blocker blocker.o -pthread

for wait in sleep cond; do
    PERFINST_IDLE=both PERFINST_OUT=$wait.pit ./blocker 150 $wait > $wait.out
    "$PMOPT" report --tree --what=idle $wait.pit > $wait.tree
    python3 "$T/sampling/check-idle.py" $wait.tree both $wait $wait.out || { cat $wait.tree; fail "$wait: idle tree"; }
    assert_contains "$wait: the worker's affinity was given back" $wait.out "^affinity restored$"
done
assert_contains "the waits restarted after our signal were counted" sleep.tree "restarted calls [1-9]"

PERFINST_IDLE=to PERFINST_OUT=to.pit ./blocker 100 > to.out
"$PMOPT" report --tree to.pit > to.tree
python3 "$T/sampling/check-idle.py" to.tree to sleep to.out || { cat to.tree; fail "mode to"; }
PERFINST_IDLE=from PERFINST_OUT=from.pit ./blocker 100 > from.out
"$PMOPT" report --tree from.pit > from.tree
python3 "$T/sampling/check-idle.py" from.tree from sleep from.out || { cat from.tree; fail "mode from"; }

# folded idle stacks: to-idle counts, leaves named
"$PMOPT" export --what=to --folded folded sleep.pit
assert_contains "folded to-idle stack" folded ";worker;block_long [0-9]+$"
"$PMOPT" export --what=idle --flamegraph idle.svg ./blocker sleep.pit
python3 "$T/sampling/check-svg.py" idle.svg block_long block_short worker || fail "idle flame graph"

PERFINST_IDLE=sometimes ./blocker 1 > /dev/null 2> err
assert_contains "bad PERFINST_IDLE" err "^perfinst: PERFINST_IDLE=sometimes: expected off, to, from or both; off$"

# busy only: a program that never blocks gives no idle tick and no sample
# (the samplers sleep while no monitored thread is blocked)
gcc -O2 -g -c "$T/sampling/deep.c" -o deep.o
pi_ld --pi-runtime -O2 -o deep deep.o -pthread
PERFINST_IDLE=both PERFINST_OUT=busy.pit ./deep 50000000 > /dev/null
"$PMOPT" report --tree busy.pit > busy.tree
assert_contains "busy only: nothing" busy.tree "^idle-transition stacks: ticks 0, idle 0, busy 0, skipped 0, lost 0 .*to-idle 0, from-idle 0;"

# thread churn: 160 threads block and exit under both samplers
gcc -O2 -g -c "$T/sampling/churn.c" -o churn.o
pi_ld --pi-runtime -O2 -o churn churn.o -pthread
# A monitored thread between two sleeps counts as running even while other
# processes keep it off the CPU, so when other programs crowd both CPUs a
# whole run may see no idle tick (seen with two copies of this test at
# once): up to three runs, each checked, until one has idle ticks.
for try in 1 2 3; do
    rm -f churn.pit
    PERFINST_IDLE=both PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=churn.pit ./churn 20 > churn.out
    assert_contains "all threads ran" churn.out "^threads 160$"
    "$PMOPT" report --tree churn.pit > churn.tree
    grep -q "^idle-transition stacks: ticks [0-9]*, idle 0," churn.tree || break
    echo "churn run $try: no idle tick (the CPUs were crowded); again"
done
assert_contains "idle samples of the short-lived threads" churn.tree "^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +short_life "

# threads that ended are no longer counted running: after four workers left
# a blocking point and exited, only main runs, and it sleeps; a CPU they last
# ran on must not count as busy for ever (it did: busy was about half the
# ticks on 2 CPUs).  main's own moments between sleeps may catch a few ticks.
gcc -O2 -g -c "$T/sampling/exited.c" -o exited.o
pi_ld --pi-runtime -O2 -o exited exited.o -pthread
PERFINST_IDLE=both PERFINST_OUT=exited.pit ./exited 200 > exited.out
"$PMOPT" report --tree exited.pit > exited.tree
read -r ticks busy < <(sed -n 's/^idle-transition stacks: ticks \([0-9]*\), idle [0-9]*, busy \([0-9]*\),.*/\1 \2/p' exited.tree)
[ -n "$ticks" ] && [ "$ticks" -gt 50 ] || { cat exited.tree; fail "exited threads: too few ticks ($ticks)"; }
[ $((busy * 10)) -le "$ticks" ] || { head -3 exited.tree; fail "exited threads still count as running: busy $busy of $ticks ticks"; }
ok "exited threads: busy $busy of $ticks ticks"
