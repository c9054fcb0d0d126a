# With clean-copies=final an indirect call's inline cache is one asm that
# GCC sees change no register (pass-count.cc add_icall_asm): its miss
# calls the runtime's stub (runtime/icall.c __perfinst_icall_stub), which
# must give every register back.  icallregs.c's keep() holds values in
# %rax ... %r11 and %xmm0 ... %xmm15 across its cache, whose target
# changes at every call: every result must be right, and every (site,
# target) pair exact; the off mode's too; `icallregs wide` the same with
# whole %ymm0 ... %ymm15, %zmm16 ... %zmm31 and %k1 ... %k7 where the
# processor has them.  The stub saves no vector register but on the
# thread's first miss of a slot when it needs a new chunk of the runtime's
# (libc's calls: pi_icall_miss_libc, after XSAVE): under callgrind the
# stub calls the runtime's pi_icall_miss (general registers only,
# t-icall-stub.sh) at every miss and pi_icall_miss_libc once.  A stack
# taken in either unwinds to main.
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
# five targets in turn: after 256 misses the site is sampled, and its
# misses return from the stub's first instructions (t-icall-sampled.sh)
PERFINST_OUT=t.pit ./icallregs > out || { cat out >&2; fail "icallregs: a register changed across the cache's miss"; }
assert_eq "every result right across 1000 calls, the target changing at each" "calls 1000 wrong 0" "$(cat out)"
assert_eq "sampled: five targets' pairs, estimates" 5 "$("$PMOPT" dump t.pit | grep -c ' ICALL .* (sampled: an estimate)$')"
PERFINST_ICALL=exact PERFINST_OUT=x.pit ./icallregs > xout || { cat xout >&2; fail "icallregs, exact: a register changed across the cache's miss"; }
assert_eq "exact: every result right" "calls 1000 wrong 0" "$(cat xout)"
"$PMOPT" dump x.pit | grep ' ICALL ' | sed 's/.* count \([0-9]*\)$/\1/' | sort -n | tr '\n' ' ' > pairs
assert_eq "exact: five targets, 200 calls each" "200 200 200 200 200 " "$(cat pairs)"
# the miss path ran: more than the two ways' first misses
command -v valgrind > /dev/null || skip "no valgrind for the miss count"
PERFINST_OUT=v.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./icallregs > vout 2> vg.err ||
    { cat vg.err >&2; fail "icallregs under callgrind"; }
assert_eq "under valgrind too" "calls 1000 wrong 0" "$(cat vout)"
# stub_calls FN: the calls of FN by the stub
stub_calls() { cg_calls cg.out "$1" __perfinst_icall_stub; }
misses=$(stub_calls pi_icall_miss)
[ "$misses" -gt 100 ] || fail "the stub called the miss $misses times, want more than 100"
ok "the stub called the runtime's miss (general registers only) $misses times"
assert_eq "the stub saved the vector state and called the miss that calls libc once (the thread's one chunk)" 1 \
    "$(stub_calls pi_icall_miss_libc)"
# whole vector registers: each function's values stay in them across
# its cache (used after its test), and come back right where they run
for r in ymm zmm; do
    awk "/<keep_$r\\.count\\.[0-9]+>:/,/^\$/" all.s | awk '/cmp .*%fs:/ { f = 1 } f' > $r.after
done
assert_eq "keep_ymm.count.N: %ymm0 ... %ymm15 read after its cache's test" 16 \
    "$(grep -oE '%ymm[0-9]+' ymm.after | sort -u | wc -l)"
assert_eq "keep_zmm.count.N: %zmm16 ... %zmm31 and %k1 ... %k7 read after its cache's test" 23 \
    "$(grep -oE '%(zmm(1[6-9]|2[0-9]|3[01])|k[1-7])\b' zmm.after | sort -u | wc -l)"
PERFINST_OUT=w.pit ./icallregs wide > wide || { cat wide >&2; fail "icallregs wide"; }
for r in ymm zmm; do
    if grep -q "^$r: no " wide; then
        echo "SKIP (part): $(grep "^$r: no " wide): its registers not checked"
    else
        assert_contains "$r: every result right across 1000 calls" wide "^$r calls 1000 wrong 0\$"
    fi
done
PERFINST_MODE=off ./icallregs > off || fail "the off mode"
assert_eq "PERFINST_MODE=off" "calls 1000 wrong 0" "$(cat off)"
# the stub's frame description: a stack taken in the miss unwinds through
# the stub to the counted function and on to main
if command -v gdb > /dev/null; then
    PERFINST_OUT=gdb.pit gdb -batch -nx -ex 'set breakpoint pending on' -ex 'break pi_icall_miss' -ex run -ex bt \
        ./icallregs > gdb.out 2>&1
    assert_contains "gdb: in the runtime's miss, called by the stub" gdb.out '^#1 .* in __perfinst_icall_stub '
    assert_contains "gdb: then keep, at its indirect call's line" gdb.out '^#2 .* in keep(\.count\.0)? \(.*icallregs\.c:(4[4-9]|5[0-9]|6[0-3])$'
    assert_contains "gdb: then main" gdb.out '^#3 .* in main \('
    # the same from the stub's other path (after XSAVE)
    PERFINST_OUT=gdb2.pit gdb -batch -nx -ex 'set breakpoint pending on' -ex 'break pi_icall_miss_libc' -ex run \
        -ex bt ./icallregs > gdb2.out 2>&1
    assert_contains "gdb: in the miss that calls libc, called by the stub" gdb2.out '^#1 .* in __perfinst_icall_stub '
    assert_contains "gdb: then keep, at its indirect call's line" gdb2.out '^#2 .* in keep(\.count\.0)? \(.*icallregs\.c:(4[4-9]|5[0-9]|6[0-3])$'
    assert_contains "gdb: then main" gdb2.out '^#3 .* in main \('
else
    echo "gdb not installed: no backtrace checked"
fi
