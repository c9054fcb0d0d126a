# Bounded tables (issue 16): 200,000 watched words (bigwatch.c, 5 accesses
# each) against the runtime's table of 65,536 words.  A lookup takes a
# bounded number of probes whatever the fill (a full table used to make
# every untracked access scan all of it: 100,000 words took 39 s where
# 60,000 took 0.05 s; the runs here are under a 120 s timeout, a bound, not
# a measurement).  The words that found no slot are not counted, and the
# trace says how many: every access is either counted (the WATCH record's
# words, 5 each) or lost (the LOST record's accesses, exactly), and its
# estimate of the lost words is within 3 % of the truth; pmopt report prints
# it.  With PERFINST_WATCH_WORDS=524288 nothing is lost.  A bad value is
# said.  Also the statistics table (PERFINST_SITESTATS) and the events
# kept (PERFINST_EVENTS) take their sizes.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O1 -g -c "$T/indicators/bigwatch.c" -o bw.o
pi_ld -o bw bw.o
expect=$((2 * (199999 * 200000 / 2)))
# words WATCHED LOST DUMP: the words counted, the accesses lost, the words lost (estimate)
counts() {
    "$PMOPT" dump "$1" > "$1.d"
    local kept lost est
    kept=$(awk '/ WATCH word size/ { n += $NF } END { print n + 0 }' "$1.d")
    lost=$(sed -n 's/.* LOST table 1 (watch), capacity \([0-9]*\), lost \([0-9]*\), items \([0-9]*\) (estimated)$/\2/p' "$1.d")
    est=$(sed -n 's/.* LOST table 1 (watch), capacity \([0-9]*\), lost \([0-9]*\), items \([0-9]*\) (estimated)$/\3/p' "$1.d")
    echo "${kept:-0} ${lost:-0} ${est:-0}"
}
PERFINST_OUT=def.pit timeout 120 ./bw > out || fail "the default table: the run failed or timed out"
assert_eq "the program's result" "$expect" "$(cat out)"
read kept lost est <<< "$(counts def.pit)"
echo "default table: $kept words counted, $lost accesses lost, about $est words lost"
[ "$kept" -gt 60000 ] && [ "$kept" -le 65536 ] || fail "$kept words counted by a table of 65536"
assert_eq "every access counted or lost" 1000000 "$((5 * kept + lost))"
truth=$((200000 - kept))
[ $((est * 100)) -ge $((truth * 97)) ] && [ $((est * 100)) -le $((truth * 103)) ] ||
    fail "estimate $est words, truth $truth"
ok "the estimate of the lost words ($est) is within 3 % of $truth"
"$PMOPT" report --by=function ./bw def.pit > rep 2> rep.err
assert_contains "pmopt report prints the loss" rep "^    lost: the runtime's table of watched words \(65536 entries, PERFINST_WATCH_WORDS\) was full: about $est more words were not counted, $lost accesses to them lost$"
assert_contains "... and says it as a note" rep.err "def.pit: the runtime's table of watched words"

PERFINST_WATCH_WORDS=524288 PERFINST_OUT=big.pit timeout 120 ./bw > out || fail "a bigger table: failed"
read kept lost est <<< "$(counts big.pit)"
assert_eq "PERFINST_WATCH_WORDS=524288: every word counted, nothing lost" "200000 0" "$kept $lost"
assert_not_contains "... no LOST record" big.pit.d " LOST "

PERFINST_WATCH_WORDS=1000 PERFINST_OUT=bad.pit ./bw > out 2> err
assert_contains "a bad size is said" err "^perfinst: PERFINST_WATCH_WORDS=1000: expected a power of two from 1024 to 268435456; using 65536$"
read kept lost est <<< "$(counts bad.pit)"
[ "$kept" -le 65536 ] && [ "$lost" -gt 0 ] || fail "the default was not kept: $kept $lost"
ok "the default kept"

# pmopt merge adds the losses of two runs
read _ l1 _ <<< "$(counts def.pit)"
read _ l2 _ <<< "$(counts bad.pit)"
"$PMOPT" merge -o m.pit def.pit bad.pit > /dev/null
"$PMOPT" dump m.pit > m.d
assert_contains "merge: the accesses lost, added" m.d " LOST table 1 \(watch\), capacity 65536, lost $((l1 + l2)), items [0-9]+ \(estimated\)$"
