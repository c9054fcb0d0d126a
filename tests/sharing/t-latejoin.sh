# timeout: 600
# A thread that first touches a line others already share after its
# introduction is over (latejoin.c: workers writing trio.a and trio.b; a
# third thread that spent its introduction on pre's line, then writes
# trio.c eight times -- far fewer accesses than a sampling period, none in
# its introduction) is seen there in every run: the inlined check of an
# access to a sampled line calls while the thread's known lines
# (docs/sharing.md, "Sampling shared lines") do not say it wrote (read)
# the line before.  Ten runs beside a busy thread per CPU in the default sampled
# mode: the third thread's write of trio.c in every report, the same
# verdicts and the same plan each time (align trio, pad b and c: one
# writer each).  Before, the third thread's write was in no report (a
# sample falls on one of its 16 accesses about once in 64 runs) and the
# plan left c on b's line.
. "$PERFINST_TOP/tests/lib.sh"
RUNS=${LOADED_RUNS:-10}
src=$T/sharing/latejoin.c
gcc -O2 -pthread "$T/sharing/busy.c" -o busy
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$src" -o j.o
pi_ld -O2 -o j j.o
gcc -O2 -pthread "$src" -o plain
./plain 200000 > want 2> /dev/null
./busy &
busy=$!
trap 'kill $busy 2> /dev/null' EXIT

verdicts() {
    sed -n '/^Objects:/,$p' "$1" | grep '^  [^ ]' | sed 's/; .*//' | sort
}
plan_of() {
    grep -E '^[0-9]+ ' "$1" | sed -E 's/^[0-9]+ /plan: /; s/ (reloads|why)=[^ ]*//g' | sort
}
for i in $(seq 1 "$RUNS"); do
    rm -f run.pit
    PERFINST_OUT=run.pit ./j 200000 > out 2> /dev/null || fail "run $i"
    diff -u want out || fail "run $i: the output differs"
    "$PMOPT" report --sharing j run.pit > $i.rep
    "$PMOPT" plan --sharing -o $i.fb j run.pit
    assert_contains "run $i: the late joiner's write of trio.c seen" $i.rep "^    thread T[0-9]+ .* writes \[(.*, )?trio\.c[],]"
    { verdicts $i.rep; plan_of $i.fb; } > $i.v
    if [ "$i" -gt 1 ] && ! cmp -s 1.v $i.v; then
        diff -u 1.v $i.v >&2
        fail "run $i's verdicts or plan differ from run 1's (loaded machine)"
    fi
done
ok "the same verdicts and plan in $RUNS runs beside a busy thread per CPU"
assert_contains "trio: false sharing" 1.rep "^  trio \(global, 24 bytes, .*\): FALSE sharing: threads write different parts of it"
assert_contains "trio aligned" 1.fb "^[0-9]+ align-global name=trio "
assert_contains "b padded" 1.fb "^[0-9]+ pad-field type=trio field=b "
assert_contains "c padded (the late joiner's field)" 1.fb "^[0-9]+ pad-field type=trio field=c "
