# target_clones: the versions GCC makes of a function (sum.avx2,
# sum.default: artificial, gcov counts them) are counted as the function
# is, whichever the resolver picks on this machine; pmopt report shows one
# row, sum, of one unit, with its entries and its loop's body exact
# (tclones.c).
. "$PERFINST_TOP/tests/lib.sh"
gcc -O2 -c "$T/count/tclones.c" -o probe.o 2> /dev/null || skip "gcc cannot compile target_clones here"
n=7
for at in late cfg; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=$at -c "$T/count/tclones.c" -o $at.o
    pi_ld -O2 -o $at $at.o
    rm -f $at.pit
    PERFINST_OUT=$at.pit ./$at $n > $at.out
    assert_eq "$at: the output" "$((n * 14850))" "$(cat $at.out)"
    # (the columns: blocks, entries, unit, function, file, line, sites, linkage, nunits, units)
    "$PMOPT" report --by=function --format=csv ./$at $at.pit | awk -F, 'NR > 1 { print $4, $2, $9, $10 }' | sort > fn
    grep -qx "sum $n 1 tclones.c" fn || { cat fn; fail "$at: sum's entries are not $n in one unit, tclones.c"; }
    "$PMOPT" report --by=function ./$at $at.pit > fn.txt
    grep -qE "^ +$n +[0-9]+ +[0-9.]+% +sum +tclones\.c:[0-9]+ +tclones\.c\$" fn.txt ||
        { cat fn.txt; fail "$at: sum's row does not name its one unit"; }
    "$PMOPT" report --by=line ./$at $at.pit > lines
    l=$(grep -n "the loop's body" "$T/count/tclones.c" | cut -d: -f1)
    grep -qE "^ +$((100 * n)) +[0-9.]+% +tclones\.c:$l\$" lines || { cat lines; fail "$at: the loop's body not counted $((100 * n)) times"; }
    ok "$at: sum's versions counted: $n entries, the loop's body $((100 * n)) times"
done
