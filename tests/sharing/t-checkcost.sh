# The inlined check's fast path -- a line its thread owns -- costs six
# instructions an access in checkcost.c's byte loop (the address formed,
# copied and shifted, the shadow's byte loaded through the shadow's base
# and the index, compared with the thread's id, a branch), counted under
# callgrind: the instrumented again() against the plain build's, per
# access.  (Before, the byte's address was formed apart (lea) because the
# known-line test of the sampled path shared it: seven.)  The workers'
# first pass, each line's footprint, is left out (first()).
. "$PERFINST_TOP/tests/lib.sh"
command -v valgrind > /dev/null || skip "valgrind not installed"
# (no vectorisation: a byte a load in both builds)
pi_cc -O2 -fno-tree-vectorize -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/checkcost.c" -o c.o
pi_ld -O2 -o inst c.o
gcc -O2 -fno-tree-vectorize -g -pthread "$T/sharing/checkcost.c" -o plain
# irs PROG: again()'s instructions (both threads), and the output
irs() {
    PERFINST_OUT=cg.pit valgrind --tool=callgrind --callgrind-out-file=cg.$1 ./$1 4 > $1.out 2> /dev/null ||
        fail "$1 under callgrind"
    callgrind_annotate cg.$1 2>/dev/null | awk '/:again \[/ {gsub(/,/, "", $1); print $1; exit}'
}
ip=$(irs plain) ii=$(irs inst)
diff -u plain.out inst.out || fail "the instrumented build printed another sum"
[ -n "$ip" ] && [ -n "$ii" ] || fail "no count for again() (plain '$ip', instrumented '$ii')"
# 2 threads x 4 passes x 65536 accesses
n=$((2 * 4 * 65536))
extra=$(awk -v a="$ii" -v b="$ip" -v n="$n" 'BEGIN { printf "%.3f", (a - b) / n }')
echo "again(): plain $ip, instrumented $ii instructions: $extra more an access"
awk -v x="$extra" 'BEGIN { exit !(x > 5.5 && x < 6.5) }' ||
    fail "the check's fast path: $extra instructions an access, expected 6"
ok "the check's fast path: $extra instructions an access (6)"
