# Count-mode sampling is exact: tick() is one unit a call (one block), so
# with every=7 over 100 calls there are 14 report groups, at units 7, 14,
# ..., 98, each with its instruction record in tick.  The directive's N is the default;
# PERFINST_RI every=N overrides it.  both() is also a directed sample point:
# every call stores a group, and where the count runs out at the same unit
# there is still one group (flags count|directed), not two.  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
units() { awk '/INSTRUCTION/ { for (i = 1; i <= NF; i++) if ($i == "units") printf "%s ", $(i+1) }' "$1"; }
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/ri/count.c" -o count.o
    pi_ld $opt -o count count.o
    tick=$(nm -S count | awk '$4 == "tick" { print $1 }')
    ticksize=$(( 0x$(nm -S count | awk '$4 == "tick" { print $2 }') ))
    PERFINST_OUT=c.pit ./count 100 tick > /dev/null
    "$PMOPT" dump c.pit > d
    assert_eq "$opt: groups at every 7th unit" "$(seq -s ' ' 7 7 100) " "$(units d)"
    assert_eq "$opt: all for the count" 14 "$(grep -c 'INSTRUCTION flags 0x1 (count)' d)"
    assert_eq "$opt: one BEGIN" 1 "$(grep -c '\] BEGIN' d)"
    assert_contains "$opt: BEGIN counts 14 groups" d "\] BEGIN flags 0x0 \(-\), rgs 2, mode count, nrg 14,"
    # the sample point is in tick: its address minus the load bias is inside tick
    bias=$(awk '/MODULE/ { for (i = 1; i <= NF; i++) if ($i == "load_bias") print $(i+1) }' d | tr -d ,)
    addr=$(awk '/INSTRUCTION/ { for (i = 1; i <= NF; i++) if ($i == "addr") { print $(i+1); exit } }' d | tr -d ,)
    off=$(( addr - bias - 0x$tick ))
    [ "$off" -ge 0 ] && [ "$off" -lt "$ticksize" ] || fail "$opt: the instruction record's address is not in tick (+$off)"
    ok "$opt: instruction record in tick (+$off)"

    PERFINST_RI=every=25 PERFINST_OUT=c2.pit ./count 100 tick > /dev/null
    "$PMOPT" dump c2.pit > d2
    assert_eq "$opt: PERFINST_RI every=25" "25 50 75 100 " "$(units d2)"
    PERFINST_RI=off PERFINST_OUT=c3.pit ./count 100 tick > /dev/null
    "$PMOPT" dump c3.pit > d3
    assert_not_contains "$opt: PERFINST_RI=off: no groups" d3 " RI "

    PERFINST_OUT=b.pit ./count 14 both > /dev/null
    "$PMOPT" dump b.pit > db
    # both(): every unit is directed; the count runs out at 7 and 14 too
    assert_eq "$opt: directed: a group per call" "$(seq -s ' ' 1 14) " "$(units db)"
    assert_eq "$opt: directed and count at one unit: one group" 2 "$(grep -c 'INSTRUCTION flags 0x5 (count|directed)' db)"
    PERFINST_RI=directed=off PERFINST_OUT=b2.pit ./count 14 both > /dev/null
    "$PMOPT" dump b2.pit > db2
    assert_eq "$opt: directed=off: the count alone" "7 14 " "$(units db2)"
    rm -f *.pit
done
PERFINST_RI=every=x PERFINST_OUT=x.pit ./count 10 tick > /dev/null 2> err
assert_contains "a bad PERFINST_RI value is said" err "PERFINST_RI=every=x: 'every=x' is not understood"
"$PMOPT" dump x.pit > dx
assert_not_contains "... and RI stays off" dx " RI "
