# With clean-copies=final an indirect call's inline cache is one asm that
# GCC sees change no register (pass-count.cc add_icall_asm): its miss
# calls the runtime's stub (runtime/icall.c __perfinst_icall_stub), which
# must give every register back.  icallregs.c's keep() holds values in
# %rax ... %r11 and %xmm0 ... %xmm15 across its cache, whose target
# changes at every call: every result must be right, and every (site,
# target) pair exact; the off mode's too; a stack taken in the miss
# unwinds to main.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=final -c "$T/count/icallregs.c" -o icallregs.o
pi_ld -O2 -o icallregs icallregs.o
objdump -d --no-show-raw-insn icallregs.o > all.s
awk '/<keep\.count\.[0-9]+>:/,/^$/' all.s > keep.s
# the cache between the asm that pins the registers and their sum: the
# counting copy's code keeps them there (no store of one to the stack)
assert_contains "keep.count.N tests the cache inline" keep.s 'cmp +%[a-z0-9]+,%fs:'
assert_eq "keep.count.N calls nothing directly (no miss call GCC sees)" 0 "$(grep -cE '\scall +[0-9a-f]+ <' keep.s || true)"
assert_contains "the miss calls the stub through the GOT (out of line)" all.s 'call +\*0x0\(%rip\)'
PERFINST_OUT=t.pit ./icallregs > out || { cat out >&2; fail "icallregs: a register changed across the cache's miss"; }
assert_eq "every result right across 1000 calls, the target changing at each" "calls 1000 wrong 0" "$(cat out)"
"$PMOPT" dump t.pit | grep ' ICALL ' | sed 's/.* count \([0-9]*\)$/\1/' | sort -n | tr '\n' ' ' > pairs
assert_eq "five targets, 200 calls each" "200 200 200 200 200 " "$(cat pairs)"
# the miss path ran: more than the two ways' first misses
command -v valgrind > /dev/null || skip "no valgrind for the miss count"
PERFINST_OUT=v.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./icallregs > vout 2> vg.err ||
    { cat vg.err >&2; fail "icallregs under callgrind"; }
assert_eq "under valgrind too" "calls 1000 wrong 0" "$(cat vout)"
misses=$(awk '/^c?fn=\([0-9]+\) / { id = $1; sub(/^c?fn=/, "", id); name[id] = $2 }
         /^cfn=/ { id = $1; sub(/^cfn=/, "", id); callee = name[id] }
         /^calls=/ && callee == "pi_icall_miss" { split($1, c, "="); n += c[2] }
         END { print n + 0 }' cg.out)
[ "$misses" -gt 100 ] || fail "the stub called the miss $misses times, want more than 100"
ok "the stub called the runtime's miss $misses times"
PERFINST_MODE=off ./icallregs > off || fail "the off mode"
assert_eq "PERFINST_MODE=off" "calls 1000 wrong 0" "$(cat off)"
# the stub's frame description: a stack taken in the miss unwinds through
# the stub to the counted function and on to main
if command -v gdb > /dev/null; then
    PERFINST_OUT=gdb.pit gdb -batch -nx -ex 'set breakpoint pending on' -ex 'break pi_icall_miss' -ex run -ex bt \
        ./icallregs > gdb.out 2>&1
    assert_contains "gdb: in the runtime's miss, called by the stub" gdb.out '^#1 .* in __perfinst_icall_stub '
    assert_contains "gdb: then keep, at its indirect call's line" gdb.out '^#2 .* in keep(\.count\.0)? \(.*icallregs\.c:4[0-9]$'
    assert_contains "gdb: then main" gdb.out '^#3 .* in main \('
else
    echo "gdb not installed: no backtrace checked"
fi
