# sharing detection with coalesced checks (pass-sharing.cc): a block's
# accesses through one base that fit in a line share one inlined check.
# The plugin says which groups it made; in the exact mode the report —
# reloads per line, thread, area and site — is the one of the build with a
# check per access (sharing-coalesce=no); in the sampled mode the estimates
# stay near the exact counts (the countdown goes down by the group's size);
# a bad value of the argument is refused.  Also: the runtime records under
# valgrind (smaller shadows), so callgrind can count the inlined checks.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/sharing/coalesce.c
for v in yes no; do
    pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-coalesce=$v \
        -fplugin-arg-perfinst-verbose -c "$src" -o c$v.o 2> c$v.notes
    pi_ld -O2 -o c$v c$v.o
done
assert_contains "the turns' four accesses: one check" cyes.notes \
    "coalesce.c:54:[0-9]+: note: perfinst: sharing: one check for 4 accesses through .p. \(bytes 0 to 31\)"
# (the private loop's four, a long loop's accesses at one address each: one
# check every 64 iterations, t-loops.sh)
assert_contains "the private loop's four: one check every 64 iterations" cyes.notes \
    "coalesce.c:44:[0-9]+: note: perfinst: sharing: one check every 64 iterations of a loop for its 4 accesses"
assert_not_contains "sharing-coalesce=no: no groups" cno.notes "one check"
# the .init_array entry that maps the shadow at start-up, before the
# unit's own constructors (priority 100; t-check.sh runs one): a stub in
# the unit's .text that calls __perfinst_share_start
objdump -r cyes.o | grep -A3 "RELOCATION RECORDS FOR \[.init_array.00100\]" | grep -q "R_X86_64_64 *\.text" ||
    fail "no .init_array.00100 entry pointing into the unit's .text"
objdump -r -j .text cyes.o | grep -q "R_X86_64_PLT32 *__perfinst_share_start" ||
    fail "no call of __perfinst_share_start in the unit's .text"
ok "the shadow is mapped at start-up (.init_array.00100 -> the unit's stub -> __perfinst_share_start)"

# exact mode: the same report, count for count, as a check per access
mask() { sed -E 's/0x[0-9a-f]+//g; s/tid [0-9]+//; s/cpu [0-9]+//; s/ in e(yes|no)\.pit//; s/T[23]/T/g' "$1" | sort; }
for v in yes no; do
    PERFINST_SHARING_PERIOD=1 PERFINST_OUT=e$v.pit ./c$v > e$v.out
    "$PMOPT" report --sharing c$v e$v.pit > e$v.rep
done
assert_contains "exact: 2*(R-1) false reloads" eyes.rep "reloads: 0 true, 1998 false\)$"
assert_contains "exact: per area, each thread's first field" eyes.rep "areas: \+0: 0 true 999 false; \+32: 0 true 999 false;$"
assert_contains "exact: each thread's reads and writes" eyes.rep \
    "4000 reads \[quad\[1\]\.a, quad\[1\]\.b, quad\[1\]\.c, quad\[1\]\.d\], 4000 writes .*; reloads 0 true, 999 false$"
assert_contains "exact: the reloading site" eyes.rep "at coalesce.c:54 \(worker\): T[23] reads\+writes quad\[1\]\.a: 2000 accesses, reloads 0 true, 999 false"
assert_contains "exact: the others' sites" eyes.rep "at coalesce.c:57 \(worker\): T[23] reads\+writes quad\[1\]\.d: 2000 accesses, reloads 0 true, 0 false"
mask eyes.rep > eyes.m
mask eno.rep > eno.m
diff -u eno.m eyes.m || fail "exact mode: coalesced checks changed the report"
ok "exact mode: the report of the coalesced build is the one with a check per access"
cmp -s eyes.out eno.out || fail "the program's output differs between the builds"

# sampled mode (default period 1024): estimates near the exact counts
R=20000 # 2*(R-1) = 39998 false reloads, 4R = 80000 reads per thread
PERFINST_OUT=s.pit ./cyes $R > /dev/null
"$PMOPT" report --sharing cyes s.pit > s.rep
assert_contains "sampled: false sharing only" s.rep "reloads: 0 true, [1-9][0-9]* false\)$"
n=$(sed -n 's/.*reloads: 0 true, \([0-9]*\) false)$/\1/p' s.rep)
[ -n "$n" ] && [ "$n" -ge 20000 ] && [ "$n" -le 80000 ] || fail "sampled: estimated false reloads $n, expected about 39998"
ok "sampled: estimated false reloads $n, about 2*(R-1) = 39998"
k=0
for r in $(sed -n 's/.*thread T[0-9]* ([^)]*): \([0-9]*\) reads \[quad.*/\1/p' s.rep); do
    [ "$r" -ge 40000 ] && [ "$r" -le 160000 ] || fail "sampled: a thread's estimated reads $r, expected about 80000"
    k=$((k + 1))
done
assert_eq "sampled: threads with estimated reads near 4R" 2 "$k"

# the argument's values
echo 'int x; void f(void) { x++; }' > bad.c
expect_fail "sharing-coalesce=maybe" pi_cc -O2 -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-sharing-coalesce=maybe -c bad.c -o bad.o
assert_contains "says what it expects" err "sharing-coalesce=maybe.*expected .yes. or .no."

# under valgrind the runtime maps smaller shadows and records (callgrind
# counts of the inlined check are the deterministic cost measure, bench/)
command -v valgrind > /dev/null || skip "valgrind not installed"
PERFINST_SHARING_PERIOD=1 PERFINST_OUT=v.pit valgrind -q --tool=none ./cyes 200 > v.out 2> v.err
assert_not_contains "valgrind: the shadows were mapped" v.err "cannot map"
"$PMOPT" report --sharing cyes v.pit > v.rep
assert_contains "valgrind: exact 2*(R-1) false reloads" v.rep "reloads: 0 true, 398 false\)$"
