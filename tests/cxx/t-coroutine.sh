# C++20 coroutines: GCC moves a coroutine's body into an artificial
# function (F's frame then .actor, entered by every resume; .destroy),
# which gcov does not count; all=count counts it as the program's code
# (coro.cc) at count-at=late, the default: the loop's lines as often as
# they ran, the actor's entries one per resume and two more (the ramp's
# start, destroy), and pmopt report names it as nm -C does; not at cfg,
# where its flow graph lacks the resume edges.  The rebuild lays it out
# from its profile.
. "$PERFINST_TOP/tests/lib.sh"
echo 'int main() {}' > probe.cc
g++ -std=c++20 -fcoroutines probe.cc -o probe 2> /dev/null || skip "g++ has no -fcoroutines"
n=3
at_line() { grep -n "// $1\$" "$T/cxx/coro.cc" | cut -d: -f1; }
for at in late; do
    pi_cc -x c++ -std=c++20 -fcoroutines -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at \
        -c "$T/cxx/coro.cc" -o $at.o
    pi_ld --pi-cc=g++ -O2 -o $at $at.o
    rm -f $at.pit
    PERFINST_OUT=$at.pit ./$at $n > $at.out
    assert_eq "$at: the output" "$((100 * n * (100 * n - 1) / 2 - 3 * (100 * n / 3) * (100 * n / 3 - 1) / 2))" "$(cat $at.out)"
    "$PMOPT" report --by=line ./$at $at.pit > lines
    for want in "LOOP $((100 * n + 1))" "TEST $((100 * n))" "YIELD $((100 * n - 100 * n / 3))"; do
        l=$(at_line ${want% *})
        grep -qE "^ +${want#* } +[0-9.]+% +coro\.cc:$l\$" lines || { cat lines; fail "$at: line $l (${want% *}) not counted ${want#* } times"; }
    done
    "$PMOPT" report --by=function ./$at $at.pit > fns
    grep -E '^ +[0-9]+ .* count_to\(count_to\(int\)::.*\.Frame\*\) \[clone \.actor\] ' fns | awk '{ print $1 }' > $at.actor
    [ -s $at.actor ] || { cat fns; fail "$at: no row for count_to's actor"; }
    ok "$at: the coroutine's lines counted exactly, its actor entered $(cat $at.actor) times"
done
# Y yields: next() resumes Y + 1 times, the ramp enters once, destroy once
assert_eq "the actor's entries" "$((100 * n - 100 * n / 3 + 3))" "$(cat late.actor)"
# count-at=cfg: the resume points are not edges of the flow graph yet
# (IFN_CO_YIELD, expanded in the early passes): the actor is not counted
pi_cc -x c++ -std=c++20 -fcoroutines -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg \
    -c "$T/cxx/coro.cc" -o cfg.o
"$PMOPT" dump-meta cfg.o > meta
! grep -q '^  function .*\.actor' meta || fail "cfg: the actor is counted"
ok "cfg: the actor is left uncounted"
"$PMOPT" plan -o plan.pip ./late late.pit > /dev/null
pi_cc -x c++ -std=c++20 -fcoroutines -O2 -g -fplugin-arg-perfinst-feedback=plan.pip -fplugin-arg-perfinst-verbose \
    -c "$T/cxx/coro.cc" -o rebuilt.o 2> notes
grep -q "block order of .[^ ]*actor.: [0-9]* blocks" notes || { cat notes; fail "rebuild: the actor not laid out from its profile"; }
pi_ld --pi-cc=g++ -O2 -o rebuilt rebuilt.o
assert_eq "rebuild: the output" "$(cat late.out)" "$(./rebuilt $n)"
ok "rebuild: the actor takes its profile"
