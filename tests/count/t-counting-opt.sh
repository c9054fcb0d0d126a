# counting-opt= (gcc-plugin/pass-countfn.cc): the counting copies f.count.N
# get options of their own, and GCC honours them.  A pass a copy's options
# turn off leaves the copy out of its dump while the clean f is in it:
# fast (the default) drops the second scheduling pass (sched2) but keeps
# VRP and tree PRE; lean drops both but keeps redundant extension elimination (ree),
# which plain -O1 lacks, and also drops ten RTL passes of -O1's (fwprop,
# both if-conversions, loop2's invariant motion, RTL DSE, the hard-register
# copy propagation, the compare elimination and the stack adjustments'
# combination after reload, cse1 and postreload, the last two through
# PLUGIN_OVERRIDE_GATE), with clean-copies=late too; full keeps every pass
# of -O2.  Whatever the
# options, the counts are exact (loops.c's expect-count lines) and the
# output is the program's.  With clean-copies=all (or late where said):
# clean-copies=final, the default, compiles each counting copy at fast's
# options whatever counting-opt says, its code being the off mode's too.
. "$PERFINST_TOP/tests/lib.sh"
ALL=-fplugin-arg-perfinst-clean-copies=all
src=$T/count/loops.c
# the functions in the dump of pass $2 of a compile with counting-opt=$1
# (default: no counting-opt= argument)
# (late-lean: counting-opt=lean with clean-copies=late)
rtllean="fwprop1 ce2 loop2_invariant dse1 cprop_hardreg cmpelim csa cse1 postreload" # (ce1 runs its CFG cleanup whatever -fif-conversion says)
dumped() {
    local arg=-fplugin-arg-perfinst-counting-opt="$1"
    [ "$1" = default ] && arg=
    [ "$1" = late-lean ] && arg="-fplugin-arg-perfinst-counting-opt=lean -fplugin-arg-perfinst-clean-copies=late"
    if [ ! -d "d-$1" ]; then
        mkdir "d-$1"
        pi_cc -O2 -fplugin-arg-perfinst-all=count $ALL $arg -fdump-tree-vrp2 -fdump-rtl-sched2 -fdump-rtl-ree \
            $(for p in $rtllean; do echo "-fdump-rtl-$p"; done) -dumpdir "d-$1/" -c "$src" -o "d-$1/o.o" ||
            fail "counting-opt=$1: compile failed"
    fi
    sed -n 's/^;; Function \([^ ]*\) .*/\1/p' "d-$1"/*."$2" | sort
}
rm -rf d-*
for opt in full fast lean default late-lean; do
    for pass in vrp2 sched2 ree $rtllean; do
        dumped "$opt" "$pass" > "$opt.$pass"
        grep -qx sum_to "$opt.$pass" || fail "counting-opt=$opt: the clean sum_to is not in the $pass dump"
    done
done
for pass in vrp2 sched2 ree; do
    assert_contains "counting-opt=full: sum_to's counting copy goes through $pass" "full.$pass" '^sum_to\.count\.[0-9]+$'
    cmp -s "fast.$pass" "default.$pass" || fail "no counting-opt= argument is not counting-opt=fast ($pass dump)"
done
assert_contains "counting-opt=fast: the counting copy goes through VRP" fast.vrp2 '^sum_to\.count\.[0-9]+$'
assert_not_contains "counting-opt=fast: no counting copy goes through sched2" fast.sched2 '\.count\.[0-9]+$'
for pass in vrp2 sched2; do
    assert_not_contains "counting-opt=lean: no counting copy goes through $pass" "lean.$pass" '\.count\.[0-9]+$'
done
assert_contains "counting-opt=lean: the counting copy goes through ree" lean.ree '^sum_to\.count\.[0-9]+$'
for pass in $rtllean; do
    assert_contains "counting-opt=fast: the counting copy goes through $pass" "fast.$pass" '^sum_to\.count\.[0-9]+$'
    assert_not_contains "counting-opt=lean: no counting copy goes through $pass" "lean.$pass" '\.count\.[0-9]+$'
    assert_not_contains "counting-opt=lean, clean-copies=late: no counting copy goes through $pass" "late-lean.$pass" '\.count\.[0-9]+$'
done
assert_contains "counting-opt=lean, clean-copies=late: the counting copy goes through ree" late-lean.ree '^sum_to\.count\.[0-9]+$'
ok "the counting copies' options: full every pass, fast (the default) no sched2, lean no sched2, no VRP and none of: $rtllean but ree"

# fast keeps tree PRE, which lean (-O1) has not: the copy of pre.c's pr gets
# PRE's new PHI as the clean pr does (the pass itself runs in every -O2 copy
# for its code hoisting, so its dump alone would not tell)
for opt in fast lean; do
    mkdir -p "st-$opt"
    pi_cc -O2 -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-counting-opt=$opt -fdump-statistics \
        -dumpdir "st-$opt/" -c "$T/count/pre.c" -o "st-$opt/o.o" || fail "pre.c, counting-opt=$opt: compile failed"
    assert_contains "counting-opt=$opt: PRE's PHI in the clean pr" st-$opt/*.statistics '^[0-9]+ pre "New PHIs" "pr" 1$'
done
assert_contains "counting-opt=fast: PRE's PHI in the counting copy" st-fast/*.statistics '^[0-9]+ pre "New PHIs" "pr\.count\.[0-9]+" 1$'
assert_not_contains "counting-opt=lean: no PRE in the counting copy" st-lean/*.statistics ' pre "New PHIs" "pr\.count\.'

# lean keeps the unit's -fipa-ra: the clean caller of a counted function
# saves as many registers as with fast (ipa-ra.c says why)
pushes() {
    pi_cc -O2 -fplugin-arg-perfinst-all=count $ALL "$@" -S "$T/count/ipa-ra.c" -o - |
        awk '/^caller:/ { f = 1 } f && /push/ { n++ } /^\t\.size\tcaller,/ { f = 0 } END { print n + 0 }'
}
assert_eq "registers the clean caller saves with lean, as with fast" "$(pushes -fplugin-arg-perfinst-counting-opt=fast)" "$(pushes -fplugin-arg-perfinst-counting-opt=lean)"

# exact counts with the lean copies (full and fast: t-variants.sh)
pi_cc -O2 -g -fplugin-arg-perfinst-all=count $ALL -fplugin-arg-perfinst-counting-opt=lean -c "$src" -o lean.o
pi_ld -O2 -o lean lean.o
assert_eq "counting-opt=lean: program output" 822 "$(PERFINST_OUT=lean.pit ./lean)"
python3 "$T/count/check-counts.py" --all "$PMOPT" ./lean "$src" lean.pit > lean.check ||
    { cat lean.check >&2; fail "counting-opt=lean: counts differ"; }
ok "counting-opt=lean: $(tail -1 lean.check)"
