# heap objects allocated by uninstrumented code (a library built without
# the plugin): the accesses are instrumented but no allocation record names
# the object; the report still names it by its line's address range and the
# mapping it lies in ("heap, allocated outside instrumented code", from the
# trace's SHARE_REGION records), its struct fields by the sites, and the plan
# gives advice instead of a repair it cannot make.
. "$PERFINST_TOP/tests/lib.sh"
# Exact counts: every access judged, not the default 1 in N (docs/sharing.md).
export PERFINST_SHARING_PERIOD=1
gcc -O2 -g -c "$T/sharing/foreign-lib.c" -o lib.o
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/foreign.c" -o fo.o
pi_ld -O2 -o fo fo.o lib.o
PERFINST_OUT=fo.pit ./fo > fo.out
assert_contains "output" fo.out "^a 1000 b 1000$"
"$PMOPT" dump fo.pit > fo.dump
assert_contains "the trace has the writable mappings" fo.dump "SHARE_REGION 0x[0-9a-f]+-0x[0-9a-f]+, kind 1, \[heap\]$"
assert_not_contains "no allocation record names the object" fo.dump "SHARE_ALLOC"
"$PMOPT" report --sharing fo fo.pit > fo.rep
assert_contains "false sharing found" fo.rep "reloads: 0 true, 1998 false\)$"
assert_contains "the object: the mapping it lies in, heap allocated outside instrumented code" fo.rep \
    "objects: memory 0x([0-9a-f]+)-0x[0-9a-f]+ \(the heap, allocated outside instrumented code\) \(unrecorded, [0-9]+ bytes"
# one object for the mapping (not one per line): its range is the [heap] mapping's, which holds the line
sed -n 's/^#1  line 0x\([0-9a-f]*\) .*/\1/p' fo.rep > line
sed -n 's/.*objects: memory 0x\([0-9a-f]*\)-0x\([0-9a-f]*\) .*/\1 \2/p' fo.rep > range
read lo hi < range
"$PMOPT" dump fo.pit | sed -n 's/.*SHARE_REGION 0x\([0-9a-f]*\)-0x\([0-9a-f]*\), kind 1, \[heap\]$/\1 \2/p' > heap
read hlo hhi < heap
[ $((0x$lo)) = $((0x$hlo)) ] && [ $((0x$hi + 1)) = $((0x$hhi)) ] || fail "the range $lo-$hi is not the heap's $hlo-$hhi"
[ $((0x$lo)) -le $((0x$(cat line))) ] && [ $((0x$(cat line) + 63)) -le $((0x$hi)) ] || fail "the line is not in $lo-$hi"
ok "the object is the heap mapping, holding the line"
assert_contains "fields named by the sites" fo.rep "writes \[pair\.a\]; reloads 0 true, 999 false$"
assert_contains "  ... both" fo.rep "writes \[pair\.b\]; reloads 0 true, 999 false$"
assert_contains "source lines" fo.rep "at foreign.c:[0-9]+ \(worker\): T[0-9] reads\+writes pair\.b: 2000 accesses, reloads 0 true, 999 false"
"$PMOPT" plan --sharing -o fo.fb fo fo.pit
assert_contains "plan: advice, not a repair" fo.fb "^# advice \(not applied automatically\): memory 0x[0-9a-f]+-0x[0-9a-f]+ \(the heap, allocated outside instrumented code\): falsely shared, but allocated where perfinst did not see it"
assert_contains "plan: nothing applied" fo.fb "^end 0 "
# two runs: the regions travel with the merged trace
PERFINST_OUT=fo2.pit ./fo > /dev/null
"$PMOPT" report --sharing fo fo.pit fo2.pit > two.rep
assert_contains "two runs: one line, heap-relative, summed, still named" two.rep "objects: memory heap\+0x[0-9a-f]+-0x[0-9a-f]+ \(the heap, allocated outside instrumented code\)"
assert_contains "  ... summed" two.rep "reloads: 0 true, 3996 false\)$"
