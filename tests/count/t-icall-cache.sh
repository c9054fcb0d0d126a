# The indirect-call profile of a training build is an inline cache of two
# targets per call site and thread (pass-count.cc add_icall_cache,
# runtime/icall.c): the runtime sees only targets that are neither of the
# last two, yet every pair (site, target) is counted exactly — with the
# target changing at every call, under threads whose hits are added when
# they end, at exit for the thread still running, and in a fork child
# (icallcache.c), also with clean-copies=final's one asm a cache, whose
# miss calls the runtime's stub; and (under callgrind) a site alternating between two
# targets calls the runtime once per new target, not at every call.
. "$PERFINST_TOP/tests/lib.sh"
# MODE: clean-copies=all, where the cache is GIMPLE and its miss a call of
# __perfinst_icall_miss2; then clean-copies=final (the default), where the
# cache is one asm (add_icall_asm) and the clean copy `call`, made of
# call.count.N's assembly, has none of it (its misses below: the stub's calls)
for mode in -fplugin-arg-perfinst-clean-copies=all ""; do
rm -f t.*.pit
# shellcheck disable=SC2086
pi_cc -O2 -fplugin-arg-perfinst-all=count $mode -c "$T/count/icallcache.c" -o icallcache.o
pi_ld -O2 -o icallcache icallcache.o -lpthread
objdump -d --no-show-raw-insn icallcache.o > all.s
awk '/<call\.count\.[0-9]+>:/,/^$/' all.s > call.s
assert_contains "the counting copy checks the cache inline" call.s 'cmp .*%fs:'
if [ -z "$mode" ]; then
    # final: one asm, the older way and the miss out of line (the
    # section's end), the miss a call of the stub through the GOT
    assert_eq "final: no direct call in call.count.N (no miss call GCC sees)" 0 "$(grep -cE 'call +[0-9a-f]+ <' call.s || true)"
    assert_contains "final: the miss calls the stub" all.s 'call +\*0x0\(%rip\)'
else
    assert_contains "and calls the runtime only on a miss" call.s '__perfinst_icall_miss2|call '
fi
assert_eq "two ways: two compares with the thread's slot" 2 "$(grep -c 'cmp .*%fs:' all.s)"
PERFINST_OUT=t.%p.pit ./icallcache > out || fail "icallcache failed"
assert_eq "output" "sum 3179003" "$(cat out)"
icalls() { # TRACE: "TARGET COUNT" per ICALL record, link-time targets
    "$PMOPT" merge -o m.pit "$1" > /dev/null
    "$PMOPT" dump m.pit | grep ' ICALL ' | sed 's/.* target \(0x[0-9a-f]*\) count \([0-9]*\)$/\1 \2/' | sort
}
parent="" child=""
for t in t.*.pit; do
    if [ "$(icalls "$t" | wc -l)" = 3 ]; then parent=$t; else child=$t; fi
done
[ -n "$parent" ] && [ -n "$child" ] || fail "want the parent's trace and the fork child's: $(ls t.*.pit)"
for fn in f g h; do
    eval "$fn=0x\$(nm icallcache | awk '\$3 == \"$fn\" { sub(/^0+/, \"\", \$1); print \$1 }')"
done
icalls "$parent" > got
printf '%s\n' "$f 5000" "$g 1000" "$h 1200" | sort > want
diff want got || fail "ICALL pairs: want f 4×1250, g 4×250, h 4×300"
ok "${mode:-final}: f 5000, g 1000, h 1200 calls over 4 threads, exact"
assert_eq "the fork child: its own 7 calls of h" "$h 7" "$(icalls "$child")"

if [ -z "$mode" ]; then
    objdump -d --no-show-raw-insn icallcache.o | awk '/<call>:/,/^$/' > clean.s
    assert_contains "final: the clean copy jumps through the pointer (a tail call, as -O2's)" clean.s 'jmp +\*%'
    assert_eq "final: the clean copy has no cache test, hit or miss call" 0 "$(grep -c '%fs:\|icall_miss' clean.s || true)"
    assert_eq "final: PERFINST_MODE=off output" "sum 3179003" "$(PERFINST_MODE=off PERFINST_OUT=off.pit ./icallcache)"
fi
done

# the misses: per thread f, then g (f and g alternating hit both ways),
# then h; the fork child's h hits the slot it inherited.  A one-target
# cache missed at every change (about 500 a thread).
command -v valgrind > /dev/null || skip "no valgrind for the miss count"
rm -f t.*.pit
PERFINST_OUT=v.%p.pit valgrind --tool=callgrind --callgrind-out-file=cg.%p.out ./icallcache > /dev/null 2> vg.err ||
    { cat vg.err >&2; fail "icallcache under callgrind"; }
# (callgrind's profile of the fork child starts with the parent's counts)
misses=$(for f in cg.*.out; do
    echo $(($(cg_calls "$f" __perfinst_icall_miss2) + $(cg_calls "$f" __perfinst_icall_stub)))
done | tr '\n' ' ')
assert_eq "calls of the miss path: 3 per thread, 4 threads (parent; the child inherited them, none of its own)" "12 12 " "$misses"
