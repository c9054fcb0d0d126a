# The COUNTS record's all-zero chunks of 64 counters get their CRC from a
# precomputed linear map (runtime/trace.c, out_put_zero_chunk), not byte by
# byte: a unit of 300+ counters where only some chunks count (case 7 of a
# 300-way switch) must give a trace whose record CRCs pmopt accepts, with
# exact counts; a run with PERFINST_MODE=off, every counter 0, writes no
# COUNTS record for the unit (docs/formats.md) and reads as all 0.
. "$PERFINST_TOP/tests/lib.sh"
{
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    echo 'static volatile int sink;'
    echo '__attribute__((noinline)) static void many(int x) {'
    echo '    switch (x) {'
    for i in $(seq 0 299); do echo "    case $i: sink = $i * 3 + (sink & 1); break;"; done
    echo '    }'
    echo '}'
    echo 'int main(int argc, char **argv) { int k = argc > 1 ? atoi(argv[1]) : 7;'
    echo '    for (int i = 0; i < 5; i++) many(k); printf("%d\n", sink); return 0; }'
} > z.c
pi_cc -O1 -g -fplugin-arg-perfinst-all=count -c z.c -o z.o
pi_ld -O1 -o z z.o
PERFINST_OUT=on.pit ./z > out
assert_eq "output" 21 "$(cat out)"
"$PMOPT" report ./z on.pit --by=function --format=csv > on.csv 2> err || { cat err; fail "pmopt rejected the trace"; }
assert_eq "many entered 5 times" 5 "$(awk -F, '$4 == "many" { print $2 }' on.csv)"
assert_eq "a case block of many counted 5 times, 290+ of its blocks 0" yes \
    "$("$PMOPT" report ./z on.pit --format=csv | awk -F, '$4 == "many" { n[$1]++ } END { print (n[5] >= 1 && n[0] >= 290) ? "yes" : "no: " n[5] + 0 " x5, " n[0] + 0 " x0" }')"
PERFINST_MODE=off PERFINST_OUT=off.pit ./z > out
assert_eq "output, mode off" 21 "$(cat out)"
"$PMOPT" report ./z off.pit --by=function --format=csv > off.csv 2> err || { cat err; fail "pmopt rejected the mode-off trace"; }
assert_eq "nothing counted with the mode off" "" "$(awk -F, 'NR > 1 && $1 != 0' off.csv)"
python3 "$T/runtime/pitdump.py" off.pit > dump.off
assert_eq "mode off: no COUNTS record" "" "$(grep '^counts ' dump.off)"
python3 "$T/runtime/pitdump.py" on.pit > dump
ncounters=$(grep -o 'ncounters=[0-9]*' dump | head -1 | cut -d= -f2)
[ "${ncounters:-0}" -ge 128 ] || fail "the unit has '$ncounters' counters: fewer than two chunks of 64"
ok "the unit has $ncounters counters (several all-zero chunks)"

# The one case that ran at every position of the unit's counters: the
# exit's flush and the trace's scan test 16, then 8, then single counters
# at once (runtime/core.c, pi_all_zero): a count in any of them must be
# flushed and written, in the main thread and in another.
for k in 0 1 7 8 15 16 17 31 32 63 64 65 127 128 129 191 200 255 256 270 297 298 299; do
    rm -f k.pit
    PERFINST_OUT=k.pit ./z "$k" > /dev/null
    got=$("$PMOPT" report ./z k.pit --format=csv | awk -F, '$4 == "many" && $1 == 5 { n++ } END { print n + 0 }')
    [ "$got" -ge 1 ] || fail "case $k: no block of many counted 5 times (its count lost)"
done
ok "a single case's count kept wherever its counter lies (23 positions)"
# ... and pi_all_zero itself, every length to 200, every position
. "$T/runtime/fixture.sh"
gcc $CFIX -pthread -o allzero "$R/allzero.c" "$B/libperfinst.a" -ldl || fail "allzero does not build"
assert_eq "pi_all_zero (and its SSE2 path): a nonzero counter found at every position of 200 lengths" "ok 40602" "$(PERFINST_OUT=/dev/null ./allzero)"
