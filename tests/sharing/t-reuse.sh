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
# `reuse strdup`: the same with B's block from libc's strdup (below).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/reuse.c" -o reuse.o
pi_ld -O2 -o reuse reuse.o
# run MODE PERIOD: a run of `reuse MODE` (the trace dumped: dump, the
# report: rep, the block's address: addr), skipped when glibc did not give
# B's block A's address
run() {
    rm -f run.pit
    PERFINST_SHARING_PERIOD=$2 PERFINST_OUT=run.pit ./reuse $1 > out 2> err || fail "reuse $1: the run failed"
    grep -q '^reuse same ' err || skip "glibc did not give B's block A's address ($(cat err))"
    "$PMOPT" dump run.pit > dump
    "$PMOPT" report --sharing reuse run.pit > rep
    addr=$(awk '{print $3}' err)
}
# judged WHAT: pair's false sharing, the reused block not shared, and on
# its line B's second word alone (A's entry has no byte left), no site of
# A's object (old_blk.first: in the sampled mode a private line keeps the
# site of a struct's bytes first touched; it goes with A's bytes)
judged() {
    assert_contains "$1: pair's false sharing" rep "^  pair \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it"
    assert_not_contains "$1: no sharing of the reused block" rep "^  heap object from reuse\.c"
    local line off bmask other n
    line=$(printf '0x%x' $(( addr & ~63 )))
    off=$(( addr - (addr & ~63) + 8 ))
    bmask=$(printf '0x%016x' $(( 0xff << off )))
    grep -A3 "SHARE_LINE line $line," dump > block
    assert_contains "$1: B's word on the block's line" block "read 0x[0-9a-f]+ written $bmask,"
    other=$(grep -oE '(read|written) 0x[0-9a-f]+' block | grep -v -e ' 0x0000000000000000$' -e " $bmask\$" || true)
    assert_eq "$1: no other byte of the line (A's word forgotten)" "" "$other"
    n=$(grep -c "SHARE_SITE.* line $line, .*what old_blk" dump || true)
    assert_eq "$1: no site of A's object on the line" 0 "$n"
}
for period in 1 1024 1 1024 1 1024; do
    run "" $period
    n=$(grep -c "SHARE_ALLOC $addr, 2048 bytes, seq [0-9]*, T[0-9]*, kind 1 (freed)" dump)
    assert_eq "period $period: both allocations recorded at one address" 2 "$n"
    # (the recording twin's own malloc goes through libperfinst.so's too,
    # which leaves it to the twin: no record of unrecorded memory)
    assert_eq "period $period: no unrecorded allocation" 0 "$(grep -c 'SHARE_ALLOC .*kind 7' dump || true)"
    judged "period $period"
done
ok "reuse: the reused block never shared, pair false sharing, in 6 runs"

# The same when B's block comes from libc's strdup, an allocation no
# instrumented call makes: libperfinst.so's malloc tells the runtime, A's
# bytes are forgotten, and the block is recorded as unrecorded memory
# (kind 7: named by its mapping, not by A's object) -- before, the line
# kept A's word beside B's, named by A's allocation: "heap object from
# reuse.c:... (thread_a) ...: FALSE sharing".
for period in 1 1024 1 1024 1 1024; do
    run strdup $period
    assert_eq "strdup, period $period: A's allocation recorded" 1 \
        "$(grep -c "SHARE_ALLOC $addr, 2048 bytes, seq [0-9]*, T[0-9]*, kind 1 (freed)" dump)"
    assert_eq "strdup, period $period: libc's allocation over A's bytes recorded as unrecorded memory" 1 \
        "$(grep -c "SHARE_ALLOC $addr, 2048 bytes, seq [0-9]*, T[0-9]*, kind 7 (freed), 0 frames" dump)"
    assert_not_contains "strdup, period $period: nor its mapping" rep "^  memory .*allocated outside instrumented code"
    judged "strdup, period $period"
done
ok "reuse strdup: the block libc reused never shared, pair false sharing, in 6 runs"
