# An indirect call site rotating over more targets than the inline cache's
# two ways (runtime/icall.c: two victim ways per slot in the runtime):
# icall3.c's call() over three targets, then four, then two.  With
# PERFINST_ICALL=exact (by default such a site, whose calls miss the ways
# more than a quarter of the time, is sampled: checked last) every pair
# (site, target) is counted exactly, and (under callgrind) the runtime's
# table of pairs is updated only when the trace is written — once per
# target still held, four — not at every miss of the rotation (two ways
# alone: about 7,000 updates); and a victim goes back into the slot only
# in place of a way not hit since the slot's last miss (victim_hit), so
# the turns of three miss the slot once a turn, not at every call: 4,337
# misses in all (1,002 + 3,333 + 2), where putting every victim hit back
# in place of the older way missed 7,002 times.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$T/count/icall3.c" -o icall3.o
pi_ld -O2 -o icall3 icall3.o
PERFINST_ICALL=exact PERFINST_OUT=t.pit ./icall3 > out || fail "icall3 failed"
assert_eq "output" "sum 23490500" "$(cat out)"
icalls() { # TRACE: "TARGET COUNT" per ICALL record, link-time targets
    "$PMOPT" merge -o m.pit "$1" > /dev/null
    "$PMOPT" dump m.pit | grep ' ICALL ' | sed 's/.* target \(0x[0-9a-f]*\) count \([0-9]*\)$/\1 \2/' | sort
}
for fn in f g h k; do
    eval "$fn=0x\$(nm icall3 | awk '\$3 == \"$fn\" { sub(/^0+/, \"\", \$1); print \$1 }')"
done
icalls t.pit > got
printf '%s\n' "$f 3000" "$g 3000" "$h 2000" "$k 1000" | sort > want
diff want got || fail "ICALL pairs: want f 3000, g 3000, h 2000, k 1000"
ok "f 3000, g 3000, h 2000, k 1000 calls through one site, exact"
# by default: sampled from the 256th miss (a third of the first turns'
# calls miss), each pair flagged, the estimates adding up to the 9,000 calls
rm -f m.pit s.pit
PERFINST_OUT=s.pit ./icall3 > out || fail "icall3 failed, sampled"
assert_eq "sampled: output" "sum 23490500" "$(cat out)"
"$PMOPT" merge -o m.pit s.pit > /dev/null
"$PMOPT" dump m.pit | grep ' ICALL ' > sampled
assert_eq "sampled: four pairs, each an estimate" 4 "$(grep -c ' (sampled: an estimate)$' sampled)"
total=$(sed 's/.* count \([0-9]*\).*/\1/' sampled | awk '{ n += $1 } END { print n }')
[ "$total" -gt 8550 ] && [ "$total" -lt 9450 ] || fail "sampled: the estimates add up to $total calls, want 9000 within 5 %"
ok "sampled: four estimates, $total calls in all for 9000"
command -v valgrind > /dev/null || skip "no valgrind for the table's updates"
rm -f t.pit
PERFINST_ICALL=exact PERFINST_OUT=v.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./icall3 > /dev/null 2> vg.err ||
    { cat vg.err >&2; fail "icall3 under callgrind"; }
# the miss path: __perfinst_icall_miss2 (clean-copies=all's cache, a call in
# GIMPLE) or __perfinst_icall_stub (clean-copies=final's, the default: one asm)
misses=$(($(cg_calls cg.out __perfinst_icall_miss2) + $(cg_calls cg.out __perfinst_icall_stub)))
assert_eq "misses of the two ways (the miss path's calls)" 4337 "$misses"
assert_eq "table updates ($misses misses of the inline ways)" 4 "$(cg_calls cg.out icall_add)"
