#!/bin/bash
# De-duplication across samplers (seed 003 M4 block 305, M10, M14; seed 001
# directed samples), with exact counts that would differ if it broke:
#  - dedup.c drives runtime/idle.c's samplers step by step (main plays the
#    samplers of CPUs 0 and 1): a thread blocked on CPU 1, then on CPU 0 is
#    remembered by CPU 0 only, so ticks of both CPUs take one to-idle stack,
#    not two; a target another CPU's sampler holds (its claim) is not taken
#    again, to-idle or from-idle (dup); a tick while the CPU's sample is
#    outstanding is skipped; the idle requests give no timer sample and the
#    timer expiries no idle sample (one signal, one stack, one sampler);
#    a target that cannot answer (the signal masked) is lost after 100 ms,
#    and its late answer is not taken as a sample.
#    The trace's header says the same (pmopt report --tree).
#  - rinext.c: perfinst_ri_next() makes the 3rd and the 7th unit sample
#    points while the count (every=7) runs out at the 7th: groups at units
#    3, 7 and 14, the 7th once with both causes.  (sample(directed) meeting
#    the count: tests/ri/t-count.sh.)
. "$PERFINST_TOP/tests/lib.sh"

gcc -O2 -g -Wall -pthread -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/runtime" \
    -o dedup "$T/sampling/dedup.c" "$B/libperfinst.a"
ncpu=$(nproc)
PERFINST_SAMPLE=cpu:4s PERFINST_OUT=dedup.pit ./dedup > out 2> err || { cat out err; fail "dedup failed"; }
cat out
line() { grep "^$1: " out | sed "s/^$1: //"; }
if [ "$ncpu" -ge 2 ]; then
    assert_contains "one-cpu: CPU 1 forgot the thread" out "^last: cpu0 worker cpu1 none$"
else
    echo "note: one CPU: the thread blocked on CPU 0 twice"
fi
assert_eq "one-cpu: one to-idle stack for two CPUs' ticks" \
    "to 1 from 0 dup 0 skipped 0 lost 0 idle-samples 1,0 timer-samples 0 hits 1" "$(line one-cpu)"
assert_eq "claimed: not taken again, dup" \
    "to 1 from 0 dup 1 skipped 0 lost 0 idle-samples 1,0 timer-samples 0 hits 1" "$(line claimed)"
assert_eq "outstanding: skipped" \
    "to 1 from 0 dup 1 skipped 1 lost 0 idle-samples 1,0 timer-samples 0 hits 1" "$(line outstanding)"
assert_eq "from-dup: a claimed from-idle target is not held, dup" \
    "to 1 from 0 dup 2 skipped 1 lost 0 idle-samples 1,0 timer-samples 0 hits 1" "$(line from-dup)"
assert_eq "from: one from-idle stack" \
    "to 1 from 1 dup 2 skipped 1 lost 0 idle-samples 2,0 timer-samples 0 hits 2" "$(line from)"
assert_eq "timer: 3 timer samples, no idle sample more" \
    "to 1 from 1 dup 2 skipped 1 lost 0 idle-samples 2,0 timer-samples 3 hits 2" "$(line timer)"
assert_eq "lost: no answer, no sample; the late answer seen and taken for nothing" \
    "to 1 from 1 dup 2 skipped 1 lost 1 idle-samples 2,0 timer-samples 3 hits 3" "$(line lost)"
"$PMOPT" report --tree dedup.pit > tree 2> err || { cat err; fail "report"; }
assert_contains "the trace: 3 timer samples" tree "^sampled stacks: cpu clock, .*: 3 samples for 3 periods"
assert_contains "the trace: the idle counts" tree \
    "^idle-transition stacks: .* skipped 1, lost 1 \(de-duplicated 2; .*to-idle 1, from-idle 1;"

units() { awk '/INSTRUCTION/ { for (i = 1; i <= NF; i++) if ($i == "units") printf "%s ", $(i+1) }' "$1"; }
pi_cc -O2 -g -c "$T/sampling/rinext.c" -o rinext.o
pi_ld -O2 -o rinext rinext.o
PERFINST_OUT=ri.pit ./rinext > /dev/null
"$PMOPT" dump ri.pit > d
assert_eq "RINEXT: groups at units 3, 7, 14" "3 7 14 " "$(units d)"
assert_eq "RINEXT and the count at unit 7: one group, both causes" 1 \
    "$(grep -c 'INSTRUCTION flags 0x5 (count|directed)' d)"
assert_eq "RINEXT alone at unit 3" 1 "$(grep -c 'INSTRUCTION flags 0x4 (directed)' d)"
assert_eq "the count alone at unit 14" 1 "$(grep -c 'INSTRUCTION flags 0x1 (count)' d)"

# a sampler's own record leaves the dispatch monitor (daemon.c): a wait in
# the runtime's locks at its start had counted it running on its CPU for
# ever, so every tick of that CPU was busy (seen under load in t-idle.sh)
gcc -O2 -g -Wall -pthread -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/runtime" \
    -o daemon "$T/sampling/daemon.c" "$B/libperfinst.a"
PERFINST_SAMPLE=cpu:4s PERFINST_OUT=daemon.pit ./daemon > dout 2>&1 || { cat dout; fail "daemon failed"; }
assert_eq "a thread that left a blocking point runs on its CPU" \
    "running 1 blocked 0 daemon 0" "$(grep '^left: ' dout | sed 's/^left: //')"
assert_eq "as a sampler it runs nowhere" \
    "running 0 blocked 0 daemon 1" "$(grep '^sampler: ' dout | sed 's/^sampler: //')"
assert_eq "and its blocking points are not monitored" \
    "running 0 blocked 0 daemon 1" "$(grep '^sampler left: ' dout | sed 's/^sampler left: //')"
# a stack request's target gives its affinity back in its handler, before
# it can leave its wait (the sampler did it after the answer, and under
# load the target ran, and read its own mask, still pinned: t-idle.sh)
if [ "$ncpu" -ge 2 ]; then
    assert_contains "the handler gave the affinity back" dout "^handler: answered 1 affinity restored$"
else
    assert_contains "one CPU: nothing to give back" dout "^handler: answered 0 affinity one-cpu$"
fi
ok "each de-duplication holds, with exact counts"
