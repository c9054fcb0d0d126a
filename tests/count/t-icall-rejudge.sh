# A sampled indirect call site is judged again (runtime/icall.c,
# sampled_miss): every 128 samples its slot goes back to two exact ways
# for a window.  icallphase.c's site rotates over five targets for 20,000
# calls (sampled: one way, every call a miss), then alternates between two
# others for 200,000: judged again, it holds both and stops missing, where
# a slot sampled for good would miss every call of the second phase (its
# one way keeps a target of the first).  The pairs of the second phase
# stay within 3 % of their 100,000 calls each.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$T/count/icallphase.c" -o icallphase.o
pi_ld -O2 -o icallphase icallphase.o
gcc -O2 -o plain "$T/count/icallphase.c"
PERFINST_OUT=t.pit ./icallphase > out || fail "icallphase failed"
assert_eq "output" "$(./plain)" "$(cat out)"
"$PMOPT" merge -o m.pit t.pit > /dev/null
"$PMOPT" dump m.pit | grep ' ICALL ' > pairs
for fn in f5 f6; do
    a=0x$(nm icallphase | awk -v f="$fn" '$3 == f { sub(/^0+/, "", $1); print $1 }')
    n=$(grep " target $a count " pairs | sed 's/.* count \([0-9]*\).*/\1/')
    [ -n "$n" ] && [ "$n" -gt 97000 ] && [ "$n" -lt 103000 ] || { cat pairs >&2; fail "$fn: ${n:-no} calls counted for 100000"; }
    ok "$fn: $n calls for 100000"
done
command -v valgrind > /dev/null || skip "no valgrind for the miss path's calls"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitizer build: its stub takes the whole miss path"
PERFINST_OUT=v.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./icallphase > /dev/null 2> vg.err ||
    { cat vg.err >&2; fail "icallphase under callgrind"; }
stub=$(cg_calls cg.out __perfinst_icall_stub)
# the first phase's misses (at least the four fifths its one sampled way
# misses), then at most 128 samples of at most 95 misses before the slot is
# judged again, and the two ways' first misses; sampled for good, the
# second phase alone would miss 200,000 times
[ "$stub" -ge 16000 ] && [ "$stub" -le $((20000 + 128 * 95 + 2)) ] ||
    fail "the stub was called $stub times, want 16000 to $((20000 + 128 * 95 + 2))"
ok "the stub called $stub times: the second phase's pair of targets hits the two ways once judged again"
