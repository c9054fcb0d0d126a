# timeout: 300
# Heap blocks from one allocation call are named the same in every run
# (docs/sharing.md, "block K of N"): twins.c's threads A and B (created in
# that order) allocate at the same malloc call, in an order the program
# forces with semaphores -- A then B, and B then A, the two interleavings
# the scheduler could pick.  In both runs A's block is "block 1 of 2" and
# B's "block 2 of 2" (numbered by the allocating thread's creation, then
# its own allocation order), and the plan is the same (one align-alloc at
# the call: the threads write words 2 and 9 of both blocks).  They were numbered by the process-wide
# allocation order: B's block was "block 1 of 2" when B allocated first
# (xz -T2's 1 MiB buffers: "block 8 of 27" in one run, "block 14 of 27"
# in the next).
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/twins.c" -o twins.o
pi_ld -O2 -o twins twins.o
# names REPORT: "worker_a K" per block: the block number of the heap
# object whose allocation stack passes through worker_a / worker_b
names() {
    awk '/^    objects: heap object from twins\.c:[0-9]+ \(make_buf\), block [0-9]+ of 2 / {
             match($0, /block [0-9]+ of 2/); k = substr($0, RSTART + 6, RLENGTH - 11); next }
         k != "" && /^    allocated at: / {
             if (match($0, /\((worker_[ab])\)/)) print substr($0, RSTART + 1, RLENGTH - 2), k
             k = "" }' "$1" | sort -u
}
for order in ab ba; do
    rm -f $order.pit
    PERFINST_SHARING_PERIOD=1 PERFINST_OUT=$order.pit ./twins 20000 $order > out 2> err ||
        fail "twins $order: the run failed: $(cat err)"
    assert_eq "twins $order: output" "199990000 199990000 199990000 199990000" "$(cat out)"
    "$PMOPT" report --sharing twins $order.pit > $order.rep
    "$PMOPT" dump $order.pit | grep -c ' SHARE_ALLOC .* kind 1 ' > nallocs
    assert_eq "twins $order: two allocations recorded" 2 "$(cat nallocs)"
    names $order.rep > $order.names
    assert_eq "twins $order: A's block 1 of 2, B's block 2 of 2" "worker_a 1
worker_b 2" "$(cat $order.names)"
done
ok "A's and B's blocks named the same whichever allocated first"
for order in ab ba; do
    "$PMOPT" plan --sharing -o $order.fb twins $order.pit
    grep -vE '^(build-id|end) ' $order.fb | sed -E 's/ reloads=[0-9]+//' > $order.plan
    assert_contains "twins $order: align-alloc at make_buf's call, for block 1's reason" $order.plan \
        '^[0-9]+ align-alloc func=make_buf file=twins\.c line=[0-9]+ why=.*\(make_buf\),%20block%201%20of%202;'
done
# the plan, reload figures aside, is the same: one align-alloc for both
# blocks, its reason the lowest-numbered block's whichever object the plan
# met first
diff -u ab.plan ba.plan >&2 || fail "the plans of the two orders differ"
ok "the same plan whichever thread allocated first"
