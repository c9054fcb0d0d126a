# the inlined check: it reads the shadow without testing its address, so
# the shadow is mapped before any instrumented code runs (constructors of
# default and user priority included), and a process that cannot map it
# stops with a clear message instead of crashing; the verdicts stay exact.
. "$PERFINST_TOP/tests/lib.sh"
export PERFINST_SHARING_PERIOD=1
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/ctor.c" -o ctor.o
pi_ld -O2 -o ctor ctor.o
# the check itself: no test of the shadow's address, no mask of the index
objdump -d --no-show-raw-insn ctor > ctor.dis
awk '/<first>:/,/^$/' ctor.dis > first.dis
assert_contains "the check in a constructor reads the shadow" first.dis "__perfinst_share_shadow"
assert_not_contains "no mask of the line index" ctor.dis "movabs +.0x1ffffffffff|shl +.0x11,"
PERFINST_OUT=ctor.pit ./ctor > ctor.out || fail "the instrumented constructors crashed"
assert_contains "constructors ran" ctor.out "^c = 1000 1000 early = 63$"
"$PMOPT" report --sharing ctor ctor.pit > ctor.rep
assert_contains "exact: 2*(R-1) false reloads" ctor.rep "FALSE sharing  reloads: 0 true, 1998 false  est"
# no address space for the shadow: a message and status 127, not a crash
st=0
(ulimit -v 4000000; PERFINST_OUT=lim.pit exec ./ctor) > lim.out 2> lim.err || st=$?
assert_eq "no shadow: exit status" 127 "$st"
assert_contains "no shadow: says why" lim.err "perfinst: sharing: cannot map the byte shadow .*ulimit -v"

# first touches of the solo phase (one call per line, the page claimed):
# a claimed line later shared, one the solo thread touched without a call
# later shared, exact counts; the same with every access calling
# (PERFINST_SHARING_SAMPLE=0: no claims, no inlined skips)
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/solo.c" -o solo.o
pi_ld -O2 -o solo solo.o
for v in claims calls; do
    if [ $v = calls ]; then export PERFINST_SHARING_SAMPLE=0; fi
    PERFINST_OUT=$v.pit ./solo > $v.out
    assert_contains "$v: output" $v.out "^c = 1000 1000 d = 1005 1000 touched = 28$"
    "$PMOPT" report --sharing solo $v.pit > $v.rep
    assert_contains "$v: claimed line, shared later: exact" $v.rep "FALSE sharing  reloads: 0 true, 1998 false  est"
    assert_contains "$v: line the solo thread touched, shared later: its reload too" $v.rep \
        "FALSE sharing  reloads: 1 true, 1998 false  est"
    assert_contains "$v: the solo thread's reload" $v.rep "\(main\): T1 reads pg.d\[1\]: 1 accesses, reloads 1 true, 0 false"
    assert_contains "$v: 2 lines with sharing" $v.rep "2 with sharing; reloads: 1 true, 3996 false\)$"
done
unset PERFINST_SHARING_SAMPLE
# the prediction still sees the workers' bytes of pg.c and pg.d
assert_contains "prediction: pg seen in false sharing" claims.rep "pg \(global, [0-9]+ bytes.*FALSE sharing: threads write different parts of it"

# locals: a local whose address does not escape is not checked (GCC's
# points-to sets); one whose address goes to another thread is, exactly
for v in escaped addressable; do
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-locals=$v \
        -c "$T/sharing/locals.c" -o locals-$v.o
    pi_ld -O2 -o locals-$v locals-$v.o
    objdump -d --no-show-raw-insn locals-$v > locals-$v.dis
    for f in private_sum shared_pair; do
        awk "/<$f>:/,/^\$/" locals-$v.dis | grep -c 'call.*<__perfinst_share@' > $f-$v.n || true
    done
    PERFINST_SHARING_PERIOD=1 PERFINST_OUT=locals-$v.pit ./locals-$v > locals-$v.out
    assert_contains "locals $v: output" locals-$v.out "^1581 2000$"
    "$PMOPT" report --sharing locals-$v locals-$v.pit > locals-$v.rep
    # main's R writes of pr.b reload (the worker wrote pr.a since), the worker's R-1 of pr.a
    assert_contains "locals $v: the escaped local's line, exact" locals-$v.rep \
        "FALSE sharing  reloads: 0 true, 1999 false  est"
    [ "$(cat shared_pair-$v.n)" -ge 2 ] || fail "locals $v: shared_pair's accesses are not checked"
done
assert_eq "a local whose address does not escape: no check" 0 "$(cat private_sum-escaped.n)"
[ "$(cat private_sum-addressable.n)" -ge 1 ] || fail "sharing-locals=addressable: private_sum not checked"
ok "sharing-locals=addressable checks it ($(cat private_sum-addressable.n))"
