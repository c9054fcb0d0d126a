# The runtime's sharing tables are bounded, their sizes configurable, and
# what does not fit is counted in the trace and printed by pmopt report
# (threads.c): 360 threads over a run (more than the 250 fast-path ids:
# ended threads' ids are given again, none lost, the verdict still found);
# 20 threads on one line (all 20 kept); and each table made small enough
# to lose something: threads, allocations, lines.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c "$T/sharing/threads.c" -o t.o
pi_ld -O2 -o th t.o
gcc -O2 -pthread "$T/sharing/threads.c" -o plain
for m in phases crowd; do
    PERFINST_OUT=$m.pit ./th $m > $m.out
    ./plain $m | diff - $m.out || fail "$m: output differs"
    "$PMOPT" dump $m.pit > $m.dump
    "$PMOPT" report --sharing th $m.pit > $m.rep
done
assert_contains "phases: 360 threads numbered, ids given again, none without one, none lost" phases.dump \
    "SHARE_STATS .* threads 4096 lost 0, .* ids recycled [1-9][0-9]*, no-fast threads 0,"
[ "$(grep -c 'SHARE_THREAD T' phases.dump)" -ge 360 ] || fail "phases: fewer than 360 THREAD records"
ok "phases: every thread has its number"
assert_contains "phases: the slots' false sharing" phases.rep "^  slot \(global, 96 bytes, .*\): FALSE sharing: threads write different parts of it"
assert_not_contains "phases: no loss reported" phases.rep "^\(lost:"
# (the main thread's reads of the sums after the join may be sampled too:
# it is then a 21st reader on the line; count the 20 writers)
writers=$(grep -c '^    thread T.*, [1-9][0-9]* writes \[crowd\[' crowd.rep)
[ "$writers" = 20 ] || fail "crowd: $writers threads writing the line, not 20"
ok "crowd: 20 threads writing one line, each its own entry"
assert_contains "crowd: false sharing" crowd.rep "^  crowd \(global, 20 bytes, .*\): FALSE sharing"

PERFINST_SHARING_THREADS=16 PERFINST_OUT=t16.pit ./th phases > /dev/null 2> t16.err
"$PMOPT" report --sharing th t16.pit > t16.rep
assert_contains "16 thread numbers: the rest counted" t16.rep "^\(lost: 345 threads beyond the 16 numbered, counted as the last: PERFINST_SHARING_THREADS\)"
assert_contains "  ... and the run says a table was full" t16.err "perfinst: sharing: a table was full"
PERFINST_SHARING_ALLOCS=1024 PERFINST_OUT=a.pit ./th allocs > /dev/null 2>&1
"$PMOPT" report --sharing th a.pit > a.rep
assert_contains "1024 allocation records: the rest counted" a.rep "^\(lost: 976 allocations beyond the 1024 recorded: PERFINST_SHARING_ALLOCS"
# every line of big shared (main reads each after the workers wrote it):
# 16,384 shared lines' states, more than one of the runtime's 4 MiB pools
# holds (6,553 each, runtime/sharing.c ext_new), each line's own -- the
# exact mode's records of all of them, and of their sites with the default
# pool (the old table of 65,536 lost 244 to 292 of them)
PERFINST_SHARING_PERIOD=1 PERFINST_OUT=all.pit ./th lines > /dev/null
"$PMOPT" report --sharing th all.pit > all.rep
"$PMOPT" dump all.pit > all.dump
assert_contains "16,384 shared lines and more, none lost" all.rep \
    "^Cache-line sharing in all.pit \(3 threads; 1638[4-9] lines touched by more than one thread"
assert_not_contains "  ... none lost" all.rep "^\(lost:"
n=$(grep -c 'SHARE_LINE .* 2 threads' all.dump || true)
[ "$n" -ge 16384 ] || { grep -m3 SHARE_LINE all.dump >&2; fail "$n line records with 2 threads, not 16384 or more"; }
ok "  ... a record with both threads for each"
# (site records: main's reads of big, 4 code addresses a line (a record of
# one access each at -O2), and the workers' few: more than 65,536, all
# kept; their accesses summed are the calls the exact mode made for sites)
sites_of() { awk '/SHARE_SITE/ {n++; for (i = 1; i <= NF; i++) if ($i == "accesses,") a += $(i - 1)}
                  /SHARE_STATS/ {for (i = 1; i <= NF; i++) if ($i == "sites") l = $(i + 3) + 0}
                  END {print n + 0, a + 0, l + 0}' "$1"; }
read -r ns acc lost <<< "$(sites_of all.dump)"
[ "$ns" -gt 65536 ] && [ "$lost" = 0 ] || fail "exact mode: $ns site records, $lost lost (wanted more than 65536, none lost)"
ok "  ... $ns site records, none lost"
# ... and a pool of 1024: exactly 1024 kept, and every other access's site
# counted lost -- the kept records' accesses and the lost ones add up to
# the full run's, and the report says so.  (Two runs of the two threads
# need not make the same number of site calls: on a loaded machine one run
# in four made 8 more than 65,547.  So the sum is compared with the full
# run's within 1 %: counting the lost calls wrong -- none, or each
# record's -- misses by far more.)
PERFINST_SHARING_PERIOD=1 PERFINST_SHARING_SITES=1024 PERFINST_OUT=s.pit ./th lines > /dev/null 2> s.err
"$PMOPT" dump s.pit > s.dump
"$PMOPT" report --sharing th s.pit > s.rep
read -r ns2 acc2 lost2 <<< "$(sites_of s.dump)"
d=$((acc2 + lost2 - acc))
[ "$ns2" = 1024 ] && [ $((d < 0 ? -d : d)) -le $((acc / 100)) ] ||
    fail "a pool of 1024: $ns2 records of $acc2 accesses and $lost2 lost (wanted 1024, and $acc in all, within 1 %)"
ok "  ... a pool of 1024: 1024 kept, $lost2 lost, $((acc2 + lost2)) in all (the full run: $acc)"
assert_contains "  ... the report says how many" s.rep \
    "^\(lost: the sites of $lost2 accesses, beyond the 1024 \(code address, line, thread\) records: PERFINST_SHARING_SITES"
assert_contains "  ... and the run that a table was full" s.err "perfinst: sharing: a table was full"
PERFINST_SHARING_LINES=1024 PERFINST_OUT=l.pit ./th lines > /dev/null 2>&1
"$PMOPT" report --sharing th l.pit > l.rep
assert_contains "1024 line records: the accesses beyond counted" l.rep "^\(lost: [1-9][0-9]* accesses to lines beyond the 1024 line records: PERFINST_SHARING_LINES\)"
PERFINST_SHARING_THREADS=7 PERFINST_OUT=bad.pit ./th crowd > /dev/null 2> bad.err
assert_contains "a bad size is reported" bad.err "PERFINST_SHARING_THREADS"
