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
assert_contains "exact: 2*(R-1) false reloads" ctor.rep "reloads: 0 true, 1998 false\)$"
# no address space for the shadow: a message and status 127, not a crash
st=0
(ulimit -v 4000000; PERFINST_OUT=lim.pit exec ./ctor) > lim.out 2> lim.err || st=$?
assert_eq "no shadow: exit status" 127 "$st"
assert_contains "no shadow: says why" lim.err "perfinst: sharing: cannot map the byte shadow .*ulimit -v"
