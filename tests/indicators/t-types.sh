#!/bin/bash
# types(load,store,call,branch) counts the program's instructions, not
# perfinst's: types.c's loop reads src[i] 1000 times and, for the 500 odd
# values, calls triple() and writes dst[i].  Its counting copy keeps the
# block counters in memory around the call and updates them through an
# address held in a register (addq $1, %fs:OFF(%reg)) — a load and a store
# to the CPU, which gcc-plugin/pass-ranges.cc must leave out as it leaves
# out the counter updates that name __perfinst_ctr directly.  Per source
# line (csv of pmopt report --by=types): the test of line 29 runs 1000
# times with 1000 loads, 0 stores, 0 calls; the call and store of line 30
# run 500 times: 500 calls, 500 stores, 0 loads.  objdump shows that the
# fixture still has such a counter update (else the test proves nothing);
# it is RTL GCSE and CSE that put the address in a register, so the
# fixture's counting copies are compiled with counting-opt=full (the
# default, fast, leaves them out and updates %fs:OFF directly).
# fscale's line 37 (dst[i] = src[i] * 1.5, 1000 times): 3000 fp, 1000
# loads, 1000 stores; copy's memcpy (line 45, 10 times): 10 string.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -fno-tree-vectorize -minline-all-stringops -mstringop-strategy=rep_byte -g \
    -fplugin-arg-perfinst-counting-opt=full -c "$T/indicators/types.c" -o types.o
pi_ld -O2 -o types types.o
PERFINST_OUT=t.pit ./types > out
assert_eq "output" "2997 1498.5 0000000000123456789abcdef01234" "$(cat out)"
"$PMOPT" report types t.pit --by=types --format=csv > t.csv
# row FUNCTION LINE: COUNT LOAD STORE CALL STRING FP, summed over the line's sites
row() {
    awk -F, -v f="$1" -v l="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["function"] == f && $c["line"] == l {
            n += $c["count"]; ld += $c["load"]; st += $c["store"]; ca += $c["call"]
            sg += $c["string"]; fp += $c["fp"] }
        END { printf "count=%d load=%d store=%d call=%d string=%d fp=%d\n", n, ld, st, ca, sg, fp }' t.csv
}
# the counting copy: scale.count.N (counting=function, the default)
objdump -d --no-show-raw-insn types | awk '/<scale(\.count\.[0-9]+)?>:/,/^$/' > scale.s
assert_contains "scale's counting copy updates a counter through a register" scale.s 'addq +\$0x1,%fs:(0x[0-9a-f]+)?\(%r'
assert_eq "scale line 29 (src[i] & 1)" "count=1000 load=1000 store=0 call=0 string=0 fp=0" "$(row scale 29)"
assert_eq "scale line 30 (dst[i] = triple(src[i]))" "count=500 load=0 store=500 call=500 string=0 fp=0" "$(row scale 30)"
assert_eq "fscale line 37 (dst[i] = src[i] * 1.5)" "count=1000 load=1000 store=1000 call=0 string=0 fp=3000" "$(row fscale 37)"
assert_eq "copy line 45 (memcpy as rep movsb)" "count=10 load=0 store=0 call=0 string=10 fp=0" "$(row copy 45)"
