# The analysis finishes on large traces: a generated trace of 100 MB
# (gentrace.c: a misaligned matrix factorised by two threads, 20000
# allocations at 100 addresses, an mmap'd input no allocation record holds
# beside per-thread results) is reported and planned with a bounded amount
# of work per record (the model's work counter, not the clock: near-linear
# in the trace), memory under 1 GiB, and the unrecorded input as one
# object, not one per line.  bench/sharing.sh records the time.
# timeout: 600
. "$PERFINST_TOP/tests/lib.sh"
gcc -O2 -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/common" "$T/sharing/gentrace.c" "$B/libpicommon.a" -lelf -lz \
    -o gentrace
./gentrace big.pit 100 > gen.out
size=$(stat -c %s big.pit)
[ "$size" -ge $((100 << 20)) ] || fail "the trace is $size bytes, not 100 MB"
ok "a trace of $size bytes"
# PROG: any program of ours (the trace has no module: nothing to match)
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/adjacent.c" -o p.o
pi_ld -O2 -o prog p.o
measure() { # OUT CMD...: run with the peak memory in OUT.mem (kB) when /usr/bin/time is there
    local out=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%M" -o "$out.mem" "$@"
    else
        "$@"
    fi
}
measure rep "$PMOPT" report --sharing --stats --top=20 prog big.pit > rep 2> rep.err || { cat rep.err >&2; fail "report"; }
measure plan "$PMOPT" plan --sharing --stats -o big.fb prog big.pit 2> plan.err || { cat plan.err >&2; fail "plan"; }
for f in rep plan; do
    line=$(grep "sharing analysis:" $f.err) || fail "$f: no --stats line"
    echo "$line"
    work=$(echo "$line" | sed -n 's/.*; work \([0-9]*\) (.*/\1/p')
    recs=$(echo "$line" | sed -n 's/.*analysis: \([0-9]*\) lines, \([0-9]*\) sites, \([0-9]*\) allocations, \([0-9]*\) mappings, \([0-9]*\) threads.*/\1 \2 \3 \4 \5/p' |
        awk '{print $1 + $2 + $3 + $4 + $5}')
    [ "$recs" -gt 300000 ] || fail "$f: only $recs records"
    # near-linear: the old analysis did windows x footprints x placements and a
    # scan of every object per byte (work in the 10^11s here); this one a few
    # hundred steps per record
    [ "$work" -le $((recs * 1000)) ] || fail "$f: work $work for $recs records (more than 1000 per record)"
    ok "$f: work $work for $recs records"
    objs=$(echo "$line" | sed -n 's/.*threads, \([0-9]*\) objects.*/\1/p')
    [ "$objs" -lt 1000 ] || fail "$f: $objs objects: unrecorded memory is not one object per mapping"
    ok "$f: $objs objects"
    if [ -e $f.mem ]; then
        [ "$(cat $f.mem)" -lt $((1 << 20)) ] || fail "$f: $(cat $f.mem) kB of memory (1 GiB allowed)"
        ok "$f: $(cat $f.mem) kB of memory"
    fi
done
assert_contains "the input mapping is one object" rep \
    "^  memory 0x7f0000000000-0x[0-9a-f]+ \(an anonymous mapping.*\): FALSE sharing"
assert_contains "the plan advises on it once" big.fb "^# advice \(not applied automatically\): memory 0x7f0000000000-"
rm -f big.pit
# what the report lists: the lines of largest gain (--top=20 above: 20 of
# them), then how many more there are; by default 50, --top=all every one
# (a smaller trace of the same kind: its listing is as large as the trace)
nsh=$(sed -n '1s/.* \([0-9]*\) with sharing.*/\1/p' rep)
[ "$nsh" -gt 50 ] || fail "only $nsh lines with sharing in the generated trace"
[ "$(grep -c '^#[0-9]* ' rep)" = 20 ] || fail "--top=20 lists $(grep -c '^#[0-9]* ' rep) lines"
assert_contains "  ... and says how many more" rep "^\($((nsh - 20)) more lines with sharing, of smaller gain: --top=all lists every one\)"
./gentrace small.pit 2 > /dev/null
"$PMOPT" report --sharing prog small.pit > small.rep
"$PMOPT" report --sharing --top=all prog small.pit > small-all.rep
nsm=$(sed -n '1s/.* \([0-9]*\) with sharing.*/\1/p' small.rep)
[ "$nsm" -gt 50 ] || fail "only $nsm lines with sharing in the 2 MB trace"
[ "$(grep -c '^#[0-9]* ' small.rep)" = 50 ] || fail "by default $(grep -c '^#[0-9]* ' small.rep) lines listed, not 50"
assert_contains "  ... by default 50, and how many more" small.rep "^\($((nsm - 50)) more lines with sharing"
[ "$(grep -c '^#[0-9]* ' small-all.rep)" = "$nsm" ] || fail "--top=all lists $(grep -c '^#[0-9]* ' small-all.rep) of $nsm lines"
assert_not_contains "  ... --top=all: none left out" small-all.rep "more lines with sharing"
ok "the report lists 20, 50 (the default) or all $nsm lines, and says how many it left out"
rm -f small.pit
