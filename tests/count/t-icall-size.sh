# The inliner sees a function with indirect calls at its -O2 size in an
# all=count build, up to rounding where the inline limits are doubled
# (pass-inlsize.cc): each call's inline cache of targets
# (two tests of the thread's slot, two hit counters, the runtime call on a
# miss; pass-count.cc add_icall_cache) is taken out of GCC's summary with
# the counters.  Without that, dispatch() (icall-size.c, four calls through
# pointers) looked 58 units big instead of 30, and gawk's eval.c 13 %
# bigger, so that GCC's unit growth limit kept hot calls out of line in
# both copies (bench/RESULTS.md, 2026-11-29 15:00).  The program still
# counts its calls' targets.
. "$PERFINST_TOP/tests/lib.sh"
size_of() { # DUMP FUNCTION: the self size of FUNCTION's first summary
    awk -v f="$2" '$0 ~ "^IPA function summary for " f "/" { s = 1; next } s && /self size:/ { print $3; exit }' "$1"
}
gcc -O2 -fdump-ipa-inline -c "$T/count/icall-size.c" -o o2.o
pi_cc -O2 -fplugin-arg-perfinst-all=count -fdump-ipa-inline -c "$T/count/icall-size.c" -o c.o
want=$(size_of o2.c.*i.inline dispatch)
[ -n "$want" ] || fail "no summary of dispatch in gcc -O2's inline dump"
# where the plugin doubles the inline limits (clean-copies=final, the
# default, and all) every entry of the summary is scaled, the call
# overhead's too (pass-inlsize.cc, body_entry): -O2's size up to the
# rounding of the scaled entries; with -O's limits (late) exactly -O2's
got=$(size_of c.c.*i.inline dispatch)
[ -n "$got" ] && [ $((got - want)) -ge -1 ] && [ $((got - want)) -le 1 ] ||
    fail "dispatch's size to the inliner: want -O2's $want (+-1), got '$got'"
ok "dispatch's size to the inliner: -O2's $want, $got"
mkdir -p late && (cd late && pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=late \
    -fdump-ipa-inline -c "$T/count/icall-size.c" -o c.o)
assert_eq "clean-copies=late: dispatch's size to the inliner: -O2's" "$want" "$(size_of late/c.c.*i.inline dispatch)"
objdump -d --no-show-raw-insn c.o | awk '/<dispatch[.a-z0-9]*count[.0-9]*>:|<run_[abc].count[.0-9]*>:/,/^$/' > count.s
assert_contains "the counting copies still test the caches" count.s 'cmp .*%fs:'
pi_ld -O2 -o ic c.o
PERFINST_OUT=ic.pit ./ic > out
assert_eq "output" "$(gcc -O2 -o plain "$T/count/icall-size.c" && ./plain)" "$(cat out)"
# dispatch's sites (counted before the IPA inliner copied them): get and
# put each two targets, 200 and 100 calls; cmp one, 300; fin never runs
assert_eq "ICALL pairs' counts" "100 100 200 200 300" \
    "$("$PMOPT" dump ic.pit | sed -n 's/.* ICALL .* count \([0-9]*\)$/\1/p' | sort -n | tr '\n' ' ' | sed 's/ $//')"
