# Counters do not change what GCC inlines: pick() (inline-parity.c, five
# tiny conditional blocks) is inlined into its four callers by gcc -O2, and
# by an all=count build too, because the plugin takes the counters out of
# GCC's function summaries (pass-inlsize.cc).  Without that, the counters
# made pick look 3-4 times bigger and all four calls stayed (as with the
# inline limits scaled x2.5, the fix before it).  The inlined copies still
# count exactly, and PERFINST_MODE=off counts nothing.
. "$PERFINST_TOP/tests/lib.sh"
calls() { objdump -d --no-show-raw-insn "$1" | grep -cE 'call +[0-9a-f]+ <pick' || true; }
gcc -O2 -c "$T/count/inline-parity.c" -o o2.o
assert_eq "gcc -O2 inlines pick everywhere (the fixture is valid)" 0 "$(calls o2.o)"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/count/inline-parity.c" -o ip.o
assert_eq "all=count inlines pick everywhere too" 0 "$(calls ip.o)"
pi_ld -O2 -o ip ip.o
PERFINST_OUT=ip.pit ./ip > out
assert_eq "output" "140 132" "$(cat out)"
"$PMOPT" report ./ip ip.pit --format=csv | awk -F, '$4 == "pick" { print $6 ":" $1 }' | sort -t: -k1,1n > pick
assert_eq "pick's blocks by line (entry, the five tests and their bodies, return)" \
    "16:40 17:20 18:40 19:16 20:40 21:16 22:40 23:8 24:40 25:0 26:40" "$(tr '\n' ' ' < pick | sed 's/ $//')"
off_counts_nothing ip "140 132"
