#!/bin/bash
# _exit and _Exit write the final trace with libperfinst.so: a fork child
# that ends with _exit (as Python's multiprocessing ends every child it
# forks: os._exit) keeps its counts, and so does a parent ending with
# _Exit; a vfork child whose exec failed (`_exit(127)`) writes nothing and
# leaves the parent's trace to the parent.  libperfinst.a leaves _exit to
# libc.a: nothing is written there (docs/runtime.md, "Known limits").
. "$PERFINST_TOP/tests/lib.sh"
. "$T/runtime/fixture.sh"

build_prog prog "$R/prog.c"
st=0
./prog uexit 10 20 30 > out || st=$?
assert_eq "the parent's _Exit status" 3 "$st"
parent=$(sed -n 's/^parent //p' out)
child=$(sed -n 's/^child //p' out)
[ -n "$parent" ] && [ -n "$child" ] || fail "pids: $(cat out)"
[ -e "perfinst.prog.$child.pit" ] || { ls -la >&2; fail "the child that ended with _exit wrote no trace"; }
[ -e "perfinst.prog.$parent.pit" ] || { ls -la >&2; fail "the parent that ended with _Exit wrote no trace"; }
dump "perfinst.prog.$child.pit"
dump "perfinst.prog.$parent.pit"
assert_contains "_exit: the child's own counts" "perfinst.prog.$child.pit.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=20,0,0$"
assert_contains "_exit: the child's header" "perfinst.prog.$child.pit.txt" "^header .*flags=0x0 .* pid=$child ppid=$parent "
assert_contains "_Exit: the parent's counts before and after" "perfinst.prog.$parent.pit.txt" "^counts unit=0xa11ce module=0 ncounters=3 counts=40,0,0$"
assert_contains "_Exit: main counted once" "perfinst.prog.$parent.pit.txt" "^counts unit=0xb0b module=0 ncounters=1 counts=1$"
assert_eq "two traces" 2 "$(ls perfinst.prog.*.pit | wc -l)"
rm -f perfinst.*

# a vfork child's _exit: nothing of its own, and the parent still writes
# (the child must not take the trace's write lock it shares)
if [ "${PERFINST_SANITIZE:-}" = thread ]; then
    ok "vforkfail skipped: ThreadSanitizer turns vfork into fork"
else
    timeout 60 ./prog vforkfail 4 5 > out || fail "vforkfail: status $?"
    assert_eq "one trace, the parent's" 1 "$(ls perfinst.prog.*.pit | wc -l)"
    dump "$(only_trace 'perfinst.prog.*.pit')"
    assert_contains "the parent's counts" perfinst.prog.*.pit.txt "^counts unit=0xa11ce module=0 ncounters=3 counts=9,0,0$"
    rm -f perfinst.*
fi

# the static runtime: libc.a's _exit, no trace
./prog.static uexit 1 2 3 > out || true
assert_eq "libperfinst.a: no trace at _exit or _Exit" 0 "$(ls perfinst.prog.static.*.pit 2> /dev/null | wc -l)"
