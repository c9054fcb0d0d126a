# target_clones: the versions GCC makes of a function (sum.avx2,
# sum.default: artificial, gcov counts them) are counted as the function
# is, whichever the resolver picks on this machine; pmopt report shows one
# row, sum, with its entries and its loop's body exact (tclones.c).
. "$PERFINST_TOP/tests/lib.sh"
gcc -O2 -c "$T/count/tclones.c" -o probe.o 2> /dev/null || skip "gcc cannot compile target_clones here"
n=7
for at in late cfg; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$T/count/tclones.c" -o $at.o
    pi_ld -O2 -o $at $at.o
    rm -f $at.pit
    PERFINST_OUT=$at.pit ./$at $n > $at.out
    assert_eq "$at: the output" "$((n * 14850))" "$(cat $at.out)"
    "$PMOPT" report --by=function --format=csv ./$at $at.pit | awk -F, 'NR > 1 { print $4, $2 }' | sort > fn
    grep -qx "sum $n" fn || { cat fn; fail "$at: sum's entries are not $n"; }
    "$PMOPT" report --by=line ./$at $at.pit > lines
    l=$(grep -n "the loop's body" "$T/count/tclones.c" | cut -d: -f1)
    grep -qE "^ +$((100 * n)) +[0-9.]+% +tclones\.c:$l\$" lines || { cat lines; fail "$at: the loop's body not counted $((100 * n)) times"; }
    ok "$at: sum's versions counted: $n entries, the loop's body $((100 * n)) times"
done
