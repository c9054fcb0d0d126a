# timeout: 1200
# The verdict is a property of the program, not of one interleaving: every
# sharing fixture of tests/sharing (fixtures.c's patterns, verdict.c's,
# arrays.c's, threads.c's, the C++ pool and the single-pattern programs),
# run 10 times beside a busy thread per CPU (busy.c) in the default sampled
# mode, gives the same verdict for every object and the same plan (the
# recommendations, without their figures) each time -- sampled reload
# counts may vary, the verdict and the repair may not; and the report's
# messages agree with each other and with the plan's (check-messages.py:
# one figure per object, the plan's reloads=).  verdict.c's `late` case fails when the solo phase
# ends at the second thread's first access instead of at pthread_create.
. "$PERFINST_TOP/tests/lib.sh"
RUNS=${LOADED_RUNS:-10}
gcc -O2 -pthread "$T/sharing/busy.c" -o busy
# build NAME SOURCE [CC-ARGS...]: an instrumented program
build() {
    name=$1 src=$2
    shift 2
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -I"$T/sharing" "$@" -c "$src" -o $name.o
    case $src in
    *.cc) pi_ld -O2 -o $name $name.o -lstdc++ ;;
    *foreign.c) gcc -O2 -g -c "$T/sharing/foreign-lib.c" -o lib.o && pi_ld -O2 -o $name $name.o lib.o ;;
    *) pi_ld -O2 -o $name $name.o ;;
    esac
}
build f "$T/sharing/fixtures.c"
build v "$T/sharing/verdict.c"
build pool "$T/sharing/ctor-pool.cc" -x c++
build a "$T/sharing/arrays.c"
build th "$T/sharing/threads.c"
for p in adjacent coalesce footprint locals foreign ctor solo reuse; do
    build $p "$T/sharing/$p.c"
done
pi_cc -O2 -g -c "$T/sharing/marked.c" -o marked.o
pi_ld -O2 -o marked marked.o

./busy &
busy=$!
trap 'kill $busy 2> /dev/null' EXIT

# verdicts CASE: one line per object: its name, placement and verdict (the
# figures after ';' left out, and the addresses in the names of memory no
# global or recorded allocation holds: they move with ASLR).  The objects
# libstdc++ allocates for std::thread count too: the pool's second thread's
# state is often given the first one's freed memory, and is judged by its
# own accesses alone (docs/sharing.md, "Heap reuse").
verdicts() {
    sed -n '/^Objects:/,$p' "$1" | grep '^  [^ ]' | sed 's/; .*//' |
        sed -E 's/0x[0-9a-f]+/0x_/g' | sort
}

# plan_of FEEDBACK: its recommendations without their figures (reloads=,
# why=): the same repair in every run
plan_of() {
    grep -E '^[0-9]+ ' "$1" | sed -E 's/^[0-9]+ /plan: /; s/ (reloads|why)=[^ ]*//g' | sort
}

cases="f:adjacent:200 f:atomic:200 f:padded:200 f:mixed:200 f:linreg:200 f:hist:200 f:flags:200 f:locks:200 f:hidden:200 f:globals:200
v:hist v:macro v:bzero v:copy v:matrix v:flag v:late:200 pool::200000
a:scalars a:flags a:hist a:locks a:escape a:pointer a:global a:big th:phases th:crowd th:allocs th:lines
adjacent coalesce footprint locals foreign marked solo ctor reuse reuse:strdup"
for c in $cases; do
    IFS=: read -r prog mode arg <<< "$c"
    name=$prog${mode:+-$mode}
    for i in $(seq 1 "$RUNS"); do
        rm -f run.pit
        PERFINST_OUT=run.pit ./$prog $mode $arg > /dev/null 2>&1 || fail "$name: run $i"
        "$PMOPT" report --sharing $prog run.pit > $name.$i.rep
        "$PMOPT" plan --sharing -o $name.$i.fb $prog run.pit
        { verdicts $name.$i.rep; plan_of $name.$i.fb; } > $name.$i.v
        if [ "$i" -gt 1 ] && ! cmp -s $name.1.v $name.$i.v; then
            diff -u $name.1.v $name.$i.v >&2
            fail "$name: run $i's verdict differs from run 1's (loaded machine)"
        fi
    done
    # (threads.c's allocs: the two objects lie on lines of their own)
    [ -s $name.1.v ] || [ $name = th-allocs ] || fail "$name: no verdict at all"
    python3 "$T/sharing/check-messages.py" $name.1.rep $name.1.fb > /dev/null ||
        fail "$name: the report contradicts itself or the plan"
    ok "$name: the same verdict in $RUNS runs beside a busy thread per CPU: $(tr '\n' '|' < $name.1.v | cut -c1-160)"
done
# and the verdicts are the ones expected (t-detect.sh and t-verdict.sh check their details)
assert_contains "adjacent: false" f-adjacent.1.v "^  c \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it$"
assert_not_contains "atomic: never false" f-atomic.1.v "FALSE"
assert_not_contains "padded: no false sharing" f-padded.1.v "FALSE"
assert_contains "padded: only through adjacent-line prefetch" f-padded.1.v "false sharing only through adjacent-line prefetch$"
assert_contains "globals: both" f-globals.1.v "^  hits_a .*FALSE sharing"
assert_contains "v-flag: the flag the writer" v-flag.1.v "^  modified .*: FALSE sharing: it is written while threads use other data on its lines$"
assert_contains "v-late: main's writes after pthread_create count, whenever the worker starts" v-late.1.v "^  pair \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it$"
assert_contains "adjacent: c named by DWARF in every run (its module listed without any site)" adjacent.1.v "^  c \(global, 16 bytes, .*\): FALSE sharing"
assert_contains "foreign: the object a library allocated named by its mapping" foreign.1.v "^  memory 0x_-0x_ \(the heap, allocated outside instrumented code\)"
assert_contains "reuse: pair's false sharing" reuse.1.v "^  pair \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it$"
assert_not_contains "reuse: the block B got from A's free is not shared" reuse.1.v "^  heap object from reuse"
assert_contains "reuse strdup: pair's false sharing" reuse-strdup.1.v "^  pair \(global, 16 bytes, .*\): FALSE sharing: threads write different parts of it$"
assert_not_contains "reuse strdup: the block libc's strdup got from A's free is not shared" reuse-strdup.1.v "^  (heap object from reuse|memory )"
assert_contains "v-bzero: bzero's writes" v-bzero.1.v "FALSE sharing: it is written while threads use other data on its lines$"
