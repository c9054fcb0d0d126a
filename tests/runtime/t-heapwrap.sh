# The allocator wrappers of libperfinst.so (runtime/heap-wrap.c) cost a
# load, a test and a tail jump per call when sharing detection does not
# watch the heap (every run but a sharing run's): callgrind's count of the
# wrappers' own instructions (not glibc's under them) per call is at most
# 5 -- a wrapper that calls glibc's function and then tests, with a frame,
# runs 11 or more.  No timing: instruction counts.  The program is plain
# (no plugin): linking the runtime is what puts the wrappers in.
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "the sanitizer builds leave the allocator wrappers out"
command -v valgrind > /dev/null || skip "no valgrind for the instruction count"
command -v callgrind_annotate > /dev/null || skip "no callgrind_annotate"
gcc -O2 "$T/runtime/heapwrap.c" -o heapwrap -L"$B" -Wl,-rpath,"$B" -Wl,--no-as-needed -lperfinst
n=2000
valgrind --tool=callgrind --callgrind-out-file=cg.out ./heapwrap $n > out 2> vg || fail "callgrind run failed: $(tail -3 vg)"
[ -s out ] || fail "the program printed nothing"
callgrind_annotate --inclusive=no --threshold=100 cg.out > ann
# self instructions of each wrapper in libperfinst.so ("FILE:FN [LIB]")
for fn in malloc calloc realloc aligned_alloc; do
    ir=$(grep -E "heap-wrap\.c:$fn \[.*libperfinst\.so\]" ann | head -1 | awk '{gsub(",", "", $1); print $1}')
    [ -n "$ir" ] || fail "no $fn of libperfinst.so in callgrind's profile: are the wrappers linked?"
    # calls a round: malloc 4 (two of its own, two before a realloc), each other 2
    case $fn in malloc) calls=$((4 * n)) ;; *) calls=$((2 * n)) ;; esac
    per=$(( ir / calls ))
    [ "$per" -le 5 ] || fail "$fn: $ir instructions in the wrapper for >= $calls calls ($per a call; at most 5 expected)"
    ok "$fn: $per instructions a call in the wrapper ($ir for $calls+ calls)"
done
