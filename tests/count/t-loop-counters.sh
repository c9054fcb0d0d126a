# loop-counters=register (copies.cc, pi_promote_loop_counters; memory is the default):
# in a counting copy f.count.N a loop's counters count in registers and are
# added to memory where the loop is left and before each call in it.
# loopctr.c's five loops (several exits; a call that writes the trace in
# the middle; a longjmp out of a call; exit() in a call; a recursive call
# that updates the same counters) are each promoted (the plugin says so,
# and the loop's hot path holds no %fs: counter update, where with
# loop-counters=memory it holds one), and every site's count equals the
# memory build's: at the end, in the trace written mid-loop, after the
# longjmp and after the exit; a few also equal what the program computes.
# Without the write-back before a call the mid-loop trace, the longjmp's and
# the exit's counts differ (checked when this test was written).  With
# clean-copies=all: the copies split right after IPA are where the loops are
# promoted (clean-copies=final, the default, counts every loop in memory).
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
src=$T/count/loopctr.c
loops="exits halves walk stop clear"
for m in register memory; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-loop-counters=$m \
        -fplugin-arg-perfinst-verbose -c "$src" -o $m.o 2> $m.notes
    pi_ld -O2 -o lc.$m $m.o
done
for f in $loops; do
    assert_contains "$f: its loop's counters in registers" register.notes "$f\.count\.0.: [0-9]+ counters of the loop at line [0-9]+ in registers"
done
# (main's call-free loops count in registers either way: callfree-counters=delta)
assert_not_contains "loop-counters=memory: none of the five in registers" memory.notes \
    "($(echo $loops | tr ' ' '|'))\.count\.0.: .*in registers"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-verbose -c "$src" -o default.o 2> default.notes
assert_not_contains "the default: none of the five in registers" default.notes \
    "($(echo $loops | tr ' ' '|'))\.count\.0.: .*in registers"

# the %fs: instructions of a function's loop's hot path (loop_of)
loopfs() { loop_of "$1" "$2" | awk '{ print $NF }'; }
for f in $loops; do
    assert_eq "$f.count.0 (memory): counter updates on the loop's hot path" 1 "$(loopfs memory.o $f.count.0)"
    assert_eq "$f.count.0 (register): counter updates on the loop's hot path" 0 "$(loopfs register.o $f.count.0)"
done

sites() { site_counts "$@"; }
# the count of the line marked @NAME in TRACE of build M: at M NAME TRACE
at() { marked_count "$src" "lc.$1" "$3" "$2"; }
for mode in all snap jump exit; do
    for m in register memory; do
        rm -f $m.$mode.pit $m.$mode.mid.pit
        st=0
        PERFINST_OUT=$PWD/$m.$mode.pit SNAP_OUT=$PWD/$m.$mode.mid.pit ./lc.$m $mode > $m.$mode.out 2>&1 || st=$?
        echo "status $st" >> $m.$mode.out
        sites lc.$m $m.$mode.pit > $m.$mode.sites
        [ -s $m.$mode.sites ] || fail "$mode ($m): no sites in the report"
    done
    diff memory.$mode.out register.$mode.out || fail "$mode: the two builds ran differently"
    diff memory.$mode.sites register.$mode.sites || fail "$mode: a count differs from loop-counters=memory's"
    ok "$mode: every site's count ($(wc -l < register.$mode.sites)) equals loop-counters=memory's"
done
assert_contains "all: exits' and clear's results" register.all.out '^exits 1079913 nodes 3440 sink 12000$'
assert_eq "all: exits left by goto and return once each, its end reached 4 times (3 whole runs and a break)" "1 1 4" \
    "$(at register exits-goto register.all.pit) $(at register exits-return register.all.pit) $(at register exits-end register.all.pit)"
assert_eq "all: clear's recursive calls (the nodes but the 20 roots)" 3420 "$(at register clear-kid register.all.pit)"

# snap: halves writes the trace from a call in the middle of its loop
for m in register memory; do
    [ -s $m.snap.mid.pit ] || fail "snap ($m): no mid-loop trace"
    sites lc.$m $m.snap.mid.pit > $m.snap.mid.sites
done
diff memory.snap.mid.sites register.snap.mid.sites || fail "snap: a mid-loop count differs from loop-counters=memory's"
ok "snap: the mid-loop trace's counts equal loop-counters=memory's"
read -r _ _ _ odd _ even < register.snap.out
assert_eq "snap: the odd branch's count in the mid-loop trace" "$odd" "$(at register halves-odd register.snap.mid.pit)"
assert_eq "snap: the even branch's count in the mid-loop trace" "$even" "$(at register halves-even register.snap.mid.pit)"

# jump: longjmp out of walk's loop from a call, then walk once more
assert_contains "jump: the longjmp happened" register.jump.out '^jumped$'
want=$(sed -n 's/.*walk-body \([0-9]*\)$/\1/p' register.jump.out)
assert_eq "jump: walk's loop body (the iterations before the longjmp and a whole walk)" "$want" \
    "$(at register walk-body register.jump.pit)"

# exit: exit() in a call inside stop's loop
assert_contains "exit: the process exited in the loop" register.exit.out '^status 3$'
want=$(sed -n 's/^stop-body \([0-9]*\)$/\1/p' register.exit.out)
assert_eq "exit: stop's loop body up to the exit" "$want" "$(at register stop-body register.exit.pit)"
