# Heap reuse (docs/sharing.md, "Heap reuse"): reuse.c's thread A mallocs
# a block, writes its first word and frees it; thread B, running at the
# same time, then mallocs the same size at the same address and writes
# its second word.  Each object is judged by its own life's accesses: A's
# bytes are forgotten when B's allocation is recorded over them, so the
# block is not called shared (it was "FALSE sharing: threads write
# different parts of it" while the line kept both objects' bytes), and
# the false sharing of `pair` beside it is still reported -- in the exact
# and the sampled mode, in every run.  The sites of A's accesses go with
# its bytes (a site names its struct: old_blk would name B's object).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/reuse.c" -o reuse.o
pi_ld -O2 -o reuse reuse.o
for period in 1 1024 1 1024 1 1024; do
    rm -f run.pit
    PERFINST_SHARING_PERIOD=$period PERFINST_OUT=run.pit ./reuse > out 2> err || fail "reuse: the run failed"
    grep -q '^reuse same ' err || skip "glibc did not give B's block A's address ($(cat err))"
    "$PMOPT" dump run.pit > dump
    addr=$(awk '{print $3}' err)
    n=$(grep -c "SHARE_ALLOC $addr, 2048 bytes, seq [0-9]*, T[0-9]*, kind 1 (freed)" dump)
    assert_eq "period $period: both allocations recorded at one address" 2 "$n"
    "$PMOPT" report --sharing reuse run.pit > rep
    assert_contains "period $period: pair's false sharing" rep "^  pair \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it"
    assert_not_contains "period $period: no sharing of the reused block" rep "^  heap object from reuse\.c"
    # the block's line: A's entry has no byte left, B's holds its second word
    line=$(printf '0x%x' $(( addr & ~63 )))
    off=$(( addr - (addr & ~63) + 8 ))
    bmask=$(printf '0x%016x' $(( 0xff << off )))
    grep -A3 "SHARE_LINE line $line," dump > block
    assert_contains "period $period: B's word on the block's line" block "read 0x[0-9a-f]+ written $bmask,"
    other=$(grep -oE '(read|written) 0x[0-9a-f]+' block | grep -v -e ' 0x0000000000000000$' -e " $bmask\$" || true)
    assert_eq "period $period: no other byte of the line (A's word forgotten)" "" "$other"
    # A's site (old_blk.first: in the sampled mode a private line keeps the
    # site of a struct's bytes first touched) went with A's bytes
    n=$(grep -c "SHARE_SITE.* line $line, .*what old_blk" dump || true)
    assert_eq "period $period: no site of A's object on the line" 0 "$n"
done
ok "reuse: the reused block never shared, pair false sharing, in 6 runs"
