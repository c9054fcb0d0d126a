# The fields one thread writes are told from the bytes each thread touched
# and when, not from which threads' sites the runtime kept nor from the
# reloads it saw (issue 19: fsbench's `mixed` in the exact mode got
# pad-field in 2 of 4 runs and advice in the others -- a thread's sites
# missing, its field looked unwritten).  bench/sharing/fsbench.c's `mixed`
# (a struct with a rarely written shared field and one field per thread)
# run 10 times beside a busy thread per CPU, in the exact and in the
# sampled mode: the plan pads `a` and `b` every time.
. "$PERFINST_TOP/tests/lib.sh"
RUNS=${LOADED_RUNS:-10}
gcc -O2 -pthread "$T/sharing/busy.c" -o busy
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$PERFINST_TOP/bench/sharing/fsbench.c" -o fields.o
pi_ld -O2 -o fields fields.o
./busy &
busy=$!
trap 'kill $busy 2> /dev/null' EXIT
expect='plan: pad-field type=mixed field=a scope=whole-program
plan: pad-field type=mixed field=b scope=whole-program'
for mode in exact sampled; do
    period=
    [ $mode = exact ] && period=PERFINST_SHARING_PERIOD=1
    for i in $(seq 1 "$RUNS"); do
        rm -f run.pit
        env $period PERFINST_OUT=run.pit ./fields mixed 200000 > /dev/null || fail "$mode: run $i"
        "$PMOPT" plan --sharing -o $mode.$i.fb fields run.pit
        got=$(grep -E '^[0-9]+ ' $mode.$i.fb | sed -E 's/^[0-9]+ /plan: /; s/ (reloads|why)=[^ ]*//g' | sort)
        if [ "$got" != "$expect" ]; then
            "$PMOPT" report --sharing fields run.pit | grep -E '^    (thread|at) ' >&2
            cat $mode.$i.fb >&2
            fail "$mode: run $i's plan is not pad-field a and b"
        fi
    done
    ok "$mode: pad-field mixed.a and mixed.b in $RUNS runs beside a busy thread per CPU"
done
