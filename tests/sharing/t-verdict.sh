# Issue 19's programs, each with its expected verdict and its repaired
# layout checked by address (verdict.c, ctor-pool.cc; free-running threads
# in the default sampled mode):
#   hist    per-thread structs behind a typedef (no tag): named through the
#           typedef, padded with the array's alignment as one group; either
#           half alone is refused (feedback-only), and a unit that could
#           apply only half fails to build
#   macro   an allocation inside a header's macro: found where GCC sees it
#   bzero   buffers written only by bzero (expanded inline): detected
#   copy    buffers written by memcpy, memmove (expanded inline) and strcpy,
#           read by strlen and strcmp: each seen at its source line
#   matrix  rows of a line-misaligned matrix: the placement that removes it
#   flag    read-mostly globals beside a flag all threads set: only the flag
#           moves (true sharing of the flag is never padded)
#   ctor    a C++ pool of spin locks allocated by a global's constructor:
#           recorded, named by its site, padded
# The report's and the plan's messages agree (check-messages.py).
# Every repaired build prints what the plain build prints, its threads'
# data start lines of their own, and `pmopt plan --sharing --check` passes
# on a run of it built with detection too.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -I"$T/sharing" -c "$T/sharing/verdict.c" -o v.o
pi_ld -O2 -o v v.o
gcc -O2 -pthread -I"$T/sharing" "$T/sharing/verdict.c" -o plain
pi_cc -x c++ -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/ctor-pool.cc" -o c.o
pi_ld -O2 -o ctor c.o -lstdc++
g++ -O2 -pthread "$T/sharing/ctor-pool.cc" -o ctor-plain

# check_addrs FILE: lines "addr T<k> LO HI": each LO starts a line, no two
# threads' data share a line
check_addrs() {
    python3 "$T/sharing/check-addrs.py" "$1" || fail "$1: written data not on lines of their own"
    ok "$1: each thread's written data starts a line; no line shared"
}

# detect MODE PROG PLAIN [ARGS]: MODE.rep, MODE.fb; the output as the plain build's
detect() {
    local m=$1 prog=$2 pl=$3
    shift 3
    rm -f $m.pit
    PERFINST_OUT=$m.pit ./$prog "$@" > $m.out 2> /dev/null
    ./$pl "$@" > $m.want 2> /dev/null
    diff -u $m.want $m.out || fail "$m: instrumented output differs"
    "$PMOPT" report --sharing $prog $m.pit > $m.rep
    "$PMOPT" plan --sharing -o $m.fb $prog $m.pit
}

# repaired MODE SRC LANG FLAGS...: the repaired build (and one with detection
# too), run; the output, the addresses, the check
repaired() {
    local m=$1 src=$2 cc=$3
    shift 3
    { $cc -O2 -pthread -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=$m.fb -I"$T/sharing" -c "$src" \
        -o $m.fixed.o && pi_ld -O2 -o $m.fixed $m.fixed.o "$@"; } 2> $m.build || { cat $m.build >&2; fail "$m: repaired build"; }
    assert_not_contains "$m: the repaired build applied everything" $m.build "not applied"
    # the link stage adds no runtime to a repaired build: the allocators of
    # align-alloc alone (libperfinst-line.a), no start-up, libc's pthread_create
    nm $m.fixed > $m.nm
    readelf -d $m.fixed > $m.dyn
    assert_not_contains "$m: no runtime linked (no libperfinst.so)" $m.dyn "libperfinst"
    assert_not_contains "$m: no runtime linked (libc's pthread_create, no start-up)" $m.nm " T (pthread_create|__perfinst_share_start)$"
    if grep -q "align-alloc" $m.fb && [ "$cc" = gcc ]; then
        assert_contains "$m: align-alloc applied: libc's aligned_alloc called, or the line allocators linked" $m.nm \
            "( U aligned_alloc@| T __perfinst_line_(calloc|realloc)$)"
    fi
    ./$m.fixed $(cat $m.args) > $m.got 2> $m.addr
    diff -u $m.want $m.got || fail "$m: the repaired program's output differs"
    ok "$m: output unchanged after the repair"
    $cc -O2 -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-feedback=$m.fb \
        -I"$PERFINST_TOP/include" -I"$T/sharing" -c "$src" -o $m.r.o
    pi_ld -O2 -o $m.r $m.r.o "$@"
    rm -f $m.r.pit
    PERFINST_OUT=$m.r.pit ./$m.r $(cat $m.args) > /dev/null 2>&1
    "$PMOPT" plan --sharing --check $m.r $m.r.pit > $m.check || { cat $m.check >&2; fail "$m: check of the repair"; }
    assert_contains "$m: check: every recommendation applied, no false sharing left" $m.check "^check passed"
}

for m in hist macro bzero copy matrix flag; do
    echo "$m" > $m.args
    detect $m v plain $m
done
echo 200000 > ctor.args
detect ctor ctor ctor-plain 200000

# the messages agree: one verdict and one figure per object, the plan's
# reloads= the report's, ranges, each allocation stack and `at` line once
for m in hist macro bzero copy matrix flag ctor; do
    python3 "$T/sharing/check-messages.py" $m.rep $m.fb || fail "$m: the report and the plan contradict each other"
done
ok "the reports' and plans' messages agree"

# the verdicts
assert_contains "hist: named through its typedef" hist.rep "reads\+writes hist_t\[[0-9]\]\.count"
assert_contains "hist: false sharing inside the array" hist.rep \
    "^  heap object from verdict.c:[0-9]+ \(main\) \(heap, 144 bytes, at \+[0-9]+ of its line this run\): FALSE sharing: threads write different parts of it"
assert_contains "macro: false sharing" macro.rep "^  heap object from verdict.c:[0-9]+ \(main\) \(heap, 48 bytes, .*\): FALSE sharing"
assert_contains "bzero: bzero's writes seen" bzero.rep "^  heap object from verdict.c:[0-9]+ \(main\), block [12] of 2 \(heap, 24 bytes, .*\): FALSE sharing: it is written while threads use other data on its lines"
assert_contains "bzero: ... at the bzero" bzero.rep "at verdict.c:[0-9]+ \(worker\): T[0-9] writes"
for op in memcpy memmove strcpy strlen strcmp; do
    n=$(grep -n "/\* copy: $op" "$T/sharing/verdict.c" | cut -d: -f1)
    case $op in strlen | strcmp) how=reads ;; *) how=writes ;; esac
    assert_contains "copy: $op's ${how} seen at its line" copy.rep "^    at verdict.c:$n \(worker\): T[0-9]+ $how heap\+"
done
assert_contains "copy: false sharing" copy.rep "^  heap object from verdict.c:[0-9]+ \(main\), block [12] of 2 \(heap, 24 bytes, .*\): FALSE sharing"
assert_contains "matrix: false sharing at the blocks' boundary" matrix.rep "^  heap object from verdict.c:[0-9]+ \(main\) \(heap, 524288 bytes, at \+16 of its line this run\): FALSE sharing"
assert_contains "matrix: none when it starts a line" matrix.rep "line placements: \+0:0 "
assert_contains "flag: the flag is the writer" flag.rep "^  modified \(global, 4 bytes, .*\): FALSE sharing: it is written while threads use other data on its lines"
assert_contains "flag: its neighbours the victims" flag.rep "^  (dims|num_means) \(global, 8 bytes, .*\): FALSE sharing: other data on its lines is written while threads use it"
assert_contains "flag: the flag itself is true sharing" flag.rep "TRUE and FALSE sharing"
assert_contains "ctor: recorded, named by its site" ctor.rep "^  heap object from ctor-pool.cc:[0-9]+ \(.*\) \(heap, 64 bytes"
assert_not_contains "ctor: not 'allocated outside instrumented code'" ctor.rep "allocated outside instrumented code"

# the plans
assert_contains "hist: padded through the typedef's name" hist.fb "^[12] pad-field type=hist_t field=\* scope=whole-program group=1 members=2 "
assert_contains "hist: with the array's alignment, one group" hist.fb "^[12] align-alloc func=main file=verdict.c line=[0-9]+ group=1 members=2 "
assert_not_contains "hist: no <anonymous>" hist.fb "anonymous"
assert_contains "macro: the allocation in the macro" macro.fb "align-alloc func=main file=verdict.c line=[0-9]+ "
assert_contains "bzero: the buffers aligned" bzero.fb "^1 align-alloc func=main file=verdict.c line=[0-9]+ "
assert_contains "copy: the buffers aligned" copy.fb "^1 align-alloc func=main file=verdict.c line=[0-9]+ "
assert_contains "matrix: the placement that removes it" matrix.fb "^1 align-alloc func=main file=verdict.c line=[0-9]+ "
assert_contains "flag: the flag moves" flag.fb "^1 align-global name=modified "
assert_not_contains "flag: the read-mostly globals stay" flag.fb "align-global name=(dims|num_means|num_points)"
assert_contains "ctor: the lock struct padded" ctor.fb "pad-field type=Spin field=\* "

# the repairs
for m in hist macro bzero copy matrix; do
    repaired $m "$T/sharing/verdict.c" gcc
    [ $m = flag ] || check_addrs $m.addr
done
for m in hist macro bzero matrix; do
    assert_contains "$m: the repaired malloc or calloc is libc's aligned_alloc(64, ...)" $m.nm " U aligned_alloc@"
    assert_not_contains "$m: no allocator of perfinst's linked" $m.nm "__perfinst_line_"
done
repaired flag "$T/sharing/verdict.c" gcc
nm flag.fixed | awk '$3 ~ /^(modified|dims|num_means)$/ {print $1, $3}' > flag.nm
python3 - flag.nm <<'PY' || fail "flag: the flag is not on a line of its own"
import sys
a = {n: int(x, 16) for x, n in (l.split() for l in open(sys.argv[1]))}
assert a["modified"] % 64 == 0, "modified at +%d" % (a["modified"] % 64)
for n in ("dims", "num_means"):
    assert a[n] // 64 != a["modified"] // 64, "%s shares the flag's line" % n
PY
ok "flag: the flag alone on its line"
repaired ctor "$T/sharing/ctor-pool.cc" g++ -lstdc++
check_addrs ctor.addr

# dependent recommendations: applied together or not at all
n_pad=$(sed -n 's/^\([0-9]\) pad-field .*/\1/p' hist.fb)
n_al=$(sed -n 's/^\([0-9]\) align-alloc .*/\1/p' hist.fb)
for only in $n_pad $n_al; do
    gcc -O2 -pthread -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=hist.fb -fplugin-arg-perfinst-feedback-only=$only \
        -I"$T/sharing" "$T/sharing/verdict.c" "$B/libperfinst.a" -o half 2> half.err || { cat half.err >&2; fail "half build"; }
    assert_contains "feedback-only=$only: half a group is not applied, and says why" half.err \
        "warning: perfinst: hist.fb:[0-9]+: recommendation $only \((pad-field|align-alloc)\) not applied: it is one of 2 recommendations applied together"
    # (the same offsets in their pages: the heap starts at a random page)
    pages() { python3 -c '
import sys
for l in sorted(sys.stdin):
    w = l.split()
    print(w[1], int(w[2], 16) % 4096, int(w[3], 16) % 4096)'; }
    ./half hist 2>&1 > /dev/null | pages > half.addr
    ./plain hist 2>&1 > /dev/null | pages > plain.addr
    diff -u plain.addr half.addr || fail "feedback-only=$only changed the layout"
    ok "feedback-only=$only: the layout is the plain build's"
done
# a unit that could apply only half of a group fails to build
sed "s/^$n_al align-alloc func=main file=verdict.c line=[0-9]*/$n_al align-alloc func=main file=verdict.c line=1/" hist.fb |
    python3 -c '
import sys, zlib
body = "".join(l for l in sys.stdin if not l.startswith("end ") and not l.startswith("#"))
n = sum(1 for l in body.splitlines() if l[:1].isdigit())
sys.stdout.write(body + "end %d 0x%08x\n" % (n, zlib.crc32(body.encode())))' > broken.fb
expect_fail "half a group applied: the build stops" gcc -O2 -pthread -fplugin="$PLUGIN" \
    -fplugin-arg-perfinst-feedback=broken.fb -I"$T/sharing" -c "$T/sharing/verdict.c" -o broken.o
assert_contains "  ... naming both and why" err "error: perfinst: broken.fb: recommendations [12] and [12] are applied together or not at all"
assert_contains "  ... the allocation not found, with the calls there are" err "not applied: no allocation call at verdict.c:1 in main \(its allocation calls: verdict.c:[0-9]+"
# --check of a program that did not apply a recommendation
gcc -O2 -g -fplugin="$PLUGIN" -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-feedback=hist.fb \
    -fplugin-arg-perfinst-feedback-only=$n_pad -I"$PERFINST_TOP/include" -I"$T/sharing" -c "$T/sharing/verdict.c" \
    -o h1.o 2> /dev/null
pi_ld -O2 -o h1 h1.o
PERFINST_OUT=h1.pit ./h1 hist > /dev/null 2>&1
expect_fail "--check of a half repair fails" "$PMOPT" plan --sharing --check h1 h1.pit
assert_contains "  ... saying which and why" err "^recommendation $n_pad \(pad-field type=hist_t field=\*\): NOT applied: verdict.c: it is one of 2 recommendations"
assert_contains "  ... and the false sharing left in what it repaired" err "^false sharing left in h1.pit, in what the plan repaired:"

# the plain build's placement of globals (they move with the link)
"$PMOPT" report --sharing --plain=plain v flag.pit > plain.rep
off=$(nm plain | awk '$3 == "modified" {print $1}' | python3 -c 'import sys; print(int(sys.stdin.read(), 16) % 64)')
assert_contains "--plain: each global judged at the plain build's placement too" plain.rep \
    "^  modified \(global, 4 bytes, .*\): FALSE sharing: .*; at the plain build's placement \(\+$off\): FALSE sharing$"
