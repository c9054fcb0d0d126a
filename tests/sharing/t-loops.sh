# checks made once for several accesses (pass-sharing.cc), beyond a
# block's accesses through one base (t-coalesce.sh): a block operation of
# a constant length of at most a line (memset of 16 bytes) gets the
# inlined check of its lines, so the runtime sees it only while the check
# would not skip it.  What the runtime records is what it recorded with a
# call each (sharing-coalesce=no): the same report in the exact mode; and
# the number of block operations that reached the runtime (SHARE_STATS
# blocks) is known exactly: in the exact mode every one on the shared line
# (2 a round) and, on each worker's own line, those of its footprint
# (PERFINST_SHARING_SAMPLE=64 accesses, two a round: 32 rounds), then none.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/sharing/loops.c
for v in yes no; do
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-coalesce=$v -c "$src" -o l$v.o
    pi_ld -O2 -o l$v l$v.o
done
blocks() { "$PMOPT" dump "$1" | sed -n 's/.* SHARE_STATS .*, blocks \([0-9]*\)$/\1/p'; }
mask() { sed -E 's/0x[0-9a-f]+//g; s/tid [0-9]+//; s/cpu [0-9]+//; s/ in e(yes|no)[0-9]*\.pit//; s/T[23]/T/g' "$1" | sort; }
for R in 1000 2000; do
    for v in yes no; do
        PERFINST_SHARING_PERIOD=1 PERFINST_OUT=e$v$R.pit ./l$v $R > e$v$R.out
        "$PMOPT" report --sharing l$v e$v$R.pit > e$v$R.rep
    done
    cmp -s eyes$R.out eno$R.out || fail "the program's output differs between the builds"
    assert_contains "exact, R=$R: the shared line's false sharing" eyes$R.rep \
        "objects: heap object from loops.c:[0-9]+ \(main\) \(heap, 64 bytes"
    assert_contains "exact, R=$R: 2*(R-1) false reloads" eyes$R.rep "reloads: 0 true, $((2 * R - 2)) false\)$"
    mask eyes$R.rep > eyes$R.m
    mask eno$R.rep > eno$R.m
    diff -u eno$R.m eyes$R.m || fail "exact mode, R=$R: the inlined block check changed the report"
    assert_eq "exact, R=$R: block operations seen with a call each" $((4 * R)) "$(blocks eno$R.pit)"
    assert_eq "exact, R=$R: block operations seen behind the inlined check" $((2 * R + 64)) "$(blocks eyes$R.pit)"
done
# sampled mode (the default period): the same verdict
PERFINST_OUT=s.pit ./lyes > /dev/null
"$PMOPT" report --sharing lyes s.pit > s.rep
assert_contains "sampled: the shared line's false sharing" s.rep "^#1  line 0x[0-9a-f]+  FALSE sharing"
