# 8 threads × 1e6 iterations counted exactly, joined or still running at
# exit; the counters are thread-local and cache-line aligned, so the
# instrumentation itself shares no cache line between threads.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/count/threads.c" -o t.o
    pi_ld $opt -o threads t.o
    PERFINST_OUT=joined.pit ./threads
    python3 "$T/count/check-counts.py" "$PMOPT" ./threads "$T/count/threads.c" joined.pit > c1 || { cat c1; fail "$opt joined"; }
    ok "$opt joined threads: $(tail -1 c1)"
    PERFINST_OUT=detached.pit ./threads detach
    python3 "$T/count/check-counts.py" "$PMOPT" ./threads "$T/count/threads.c" detached.pit > c2 || { cat c2; fail "$opt detached"; }
    ok "$opt threads running at exit: $(tail -1 c2)"
    rm -f joined.pit detached.pit
done
readelf -sW t.o | grep -E "TLS +LOCAL.*__perfinst_ctr" > sym || fail "counter array is not thread-local"
align=$(readelf -SW t.o | awk '/\.tbss/ { print $NF }')
[ "$align" -ge 64 ] || fail ".tbss alignment $align < 64"
ok "counters are thread-local and 64-byte aligned"
