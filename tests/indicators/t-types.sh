#!/bin/bash
# types(load,store,call,branch) counts the program's instructions, not
# perfinst's: types.c's loop reads src[i] 1000 times and, for the 500 odd
# values, calls triple() and writes dst[i].  Its counting copy keeps the
# block counters in memory around the call and updates them through an
# address held in a register (addq $1, %fs:OFF(%reg)) — a load and a store
# to the CPU, which gcc-plugin/pass-ranges.cc must leave out as it leaves
# out the counter updates that name __perfinst_ctr directly.  Per source
# line (csv of pmopt report --by=types): the test of line 23 runs 1000
# times with 1000 loads, 0 stores, 0 calls; the call and store of line 24
# run 500 times: 500 calls, 500 stores, 0 loads.  objdump shows that the
# fixture still has such a counter update (else the test proves nothing).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fno-tree-vectorize -g -c "$T/indicators/types.c" -o types.o
pi_ld -O2 -o types types.o
PERFINST_OUT=t.pit ./types > out
assert_eq "output" 2997 "$(cat out)"
"$PMOPT" report types t.pit --by=types --format=csv > t.csv
# LINE COUNT LOAD STORE CALL, summed over the line's sites
row() {
    awk -F, -v l="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["function"] == "scale" && $c["line"] == l {
            n += $c["count"]; ld += $c["load"]; st += $c["store"]; ca += $c["call"] }
        END { printf "count=%d load=%d store=%d call=%d\n", n, ld, st, ca }' t.csv
}
objdump -d --no-show-raw-insn types | awk '/<scale>:/,/^$/' > scale.s
assert_contains "scale's counting copy updates a counter through a register" scale.s 'addq +\$0x1,%fs:(0x[0-9a-f]+)?\(%r'
assert_eq "line 23 (src[i] & 1)" "count=1000 load=1000 store=0 call=0" "$(row 23)"
assert_eq "line 24 (dst[i] = triple(src[i]))" "count=500 load=0 store=500 call=500" "$(row 24)"
