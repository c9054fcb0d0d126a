# What every process pays at its start and exit, whatever it runs: a
# shared library of three counted units (-fPIC) looks up glibc's static
# TLS information once, not once per unit's constructor (two dlsym of
# RTLD_DEFAULT each, which walk every loaded object's symbols: 121,000
# instructions of libjpeg-turbo's djpeg, a third of its run on a small
# image); and a process that made no indirect call does not scan the
# 8,192 slots of the indirect-call table when it writes its trace
# (57,000 instructions).  Counted under callgrind, instructions being
# deterministic: calls of dlsym from __perfinst_tls_static_offset, and
# pi_icall_write's instructions.  Nor does a process measure the cycles
# probes' own cost unless it runs one (1,000 rdtsc pairs: 15,000
# instructions), make the CRC's slicing tables for a trace of a few hundred
# bytes (15,000), make a trace at all for PERFINST_OUT=/dev/null, or load
# libgcc_s.so for an unwinder (19,000): the
# runtime needs libc alone, and a threshold event's stack in a thread the
# program started is walked by its own unwinder (threadstack.c).
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "a sanitized runtime's instructions are the sanitizer's (and ASan does not run under valgrind)"
command -v valgrind > /dev/null || skip "valgrind not installed"
command -v callgrind_annotate > /dev/null || skip "callgrind_annotate not installed"
for u in 1 2 3; do
    printf 'int lib%d(int x)\n{\n    return x > %d ? x * %d : x + %d;\n}\n' $u $u $u $u > u$u.c
    pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -c u$u.c -o u$u.o
done
pi_ld -shared -o libu.so u1.o u2.o u3.o
cat > main.c << 'C'
#include <stdio.h>
int lib1(int), lib2(int), lib3(int);
int main(void) { printf("%d\n", lib1(5) + lib2(5) + lib3(5)); return 0; }
C
pi_cc -O2 -fplugin-arg-perfinst-all=count -c main.c -o main.o
pi_ld -O2 -o prog main.o -L. -lu -Wl,-rpath,"$PWD"
assert_eq "the program runs" 30 "$(PERFINST_OUT=/dev/null ./prog)"
for mode in on off; do
    m=; [ $mode = off ] && m=off
    PERFINST_MODE=$m PERFINST_OUT=$mode.pit valgrind --tool=callgrind --callgrind-out-file=cg.$mode ./prog > /dev/null 2> vg.err ||
        { cat vg.err; fail "$mode: prog under callgrind"; }
    n=$(awk '/^fn=/ { f = $0; sub(/^fn=\([0-9]+\) ?/, "", f); if (f != "") name[$1] = f; split($1, a, ")"); id = a[1] ")"; sub(/^fn=/, "", id);
                      if (f != "") nm[id] = f; cur = nm[id] }
             /^cfn=/ { c = $0; sub(/^cfn=\([0-9]+\) ?/, "", c); split($1, a, ")"); id = a[1] ")"; sub(/^cfn=/, "", id);
                       if (c != "") nm[id] = c; callee = nm[id] }
             /^calls=/ && cur ~ /^__perfinst_tls_static_offset/ && callee ~ /^dlsym/ { split($1, x, "="); n += x[2] }
             END { print n + 0 }' cg.$mode)
    [ "$n" -le 2 ] || fail "$mode: dlsym called $n times from __perfinst_tls_static_offset (three units)"
    ir=$(callgrind_annotate --inclusive=yes cg.$mode 2> /dev/null | awk '/pi_icall_write/ { gsub(/,/, "", $1); print $1; exit }')
    [ -n "$ir" ] || fail "$mode: the trace was written without pi_icall_write"
    [ "$ir" -lt 1000 ] || fail "$mode: pi_icall_write ran $ir instructions without an indirect call"
    ok "$mode: dlsym $n times for three units' TLS offsets, pi_icall_write ${ir:-0} instructions"
done

# a process that made an indirect call writes its targets from the
# table's slots taken (a bit each), not from a scan of its 8,192 slots
# (57,000 instructions at every exit of busybox)
cat > ic.c << 'C'
#include <stdio.h>
static int f1(int x) { return x + 1; }
static int f2(int x) { return x * 2; }
int (*volatile fp[2])(int) = {f1, f2};
int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += fp[i & 1](i); printf("%d\n", s); return 0; }
C
pi_cc -O2 -fplugin-arg-perfinst-all=count -c ic.c -o ic.o
pi_ld -O2 -o ic ic.o
PERFINST_OUT=ic.pit valgrind --tool=callgrind --callgrind-out-file=cg.ic ./ic > /dev/null 2> vg.err || { cat vg.err; fail "ic under callgrind"; }
"$PMOPT" dump ic.pit | grep ' ICALL ' | sed 's/.* count \([0-9]*\)$/\1/' | sort > ic.counts
assert_eq "two indirect targets, each called 5 times" "5 5" "$(tr '\n' ' ' < ic.counts | sed 's/ $//')"
ir=$(callgrind_annotate --inclusive=yes cg.ic 2> /dev/null | awk '/pi_icall_write/ { gsub(/,/, "", $1); print $1; exit }')
[ -n "$ir" ] && [ "$ir" -lt 10000 ] || fail "pi_icall_write ran ${ir:-?} instructions for two targets"
ok "two targets written in $ir instructions"

# libperfinst.so needs libc alone: no libgcc_s (the runtime walks stacks
# itself)
readelf -d "$PERFINST_TOP/build/libperfinst.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort > needed
assert_eq "libperfinst.so needs libc and the loader only" "ld-linux-x86-64.so.2 libc.so.6" "$(tr '\n' ' ' < needed | sed 's/ $//')"
assert_not_contains "no unwinder of libgcc's" <(nm -D --undefined-only "$PERFINST_TOP/build/libperfinst.so") "_Unwind_"

# PERFINST_OUT=/dev/null: the device is opened, no trace is made
PERFINST_OUT=/dev/null valgrind --tool=callgrind --callgrind-out-file=cg.null ./prog > /dev/null 2> vg.err ||
    { cat vg.err; fail "prog under callgrind, PERFINST_OUT=/dev/null"; }
assert_eq "PERFINST_OUT=/dev/null: no record made" 0 "$(cg_calls cg.null pi_icall_write)"
assert_eq "a file: its records made" 1 "$(cg_calls cg.on pi_icall_write)"
assert_eq "count only: the probes' cost is not measured" 0 "$(cg_calls cg.on measure_probe_cost)"
assert_eq "a trace of a few hundred bytes: no slicing tables" 0 "$(cg_calls cg.on make_crc_tables)"

# a threshold event in a thread the program started: its stack through
# the runtime's unwinder, C < B < worker; with a cycles region the probes'
# cost is measured once
pi_cc -O2 -g -c "$T/runtime/threadstack.c" -o ts.o
pi_ld -O2 -rdynamic -o ts ts.o -ldl -pthread
PERFINST_OUT=ts.pit ./ts > ts.out
assert_contains "2 events in the thread" ts.out "^events 2, sum 100$"
assert_contains "the thread's stack: C < B < worker" ts.out "^event 1: C<B<worker$"
PERFINST_OUT=/dev/null valgrind --tool=callgrind --callgrind-out-file=cg.ts ./ts cycles > /dev/null 2> vg.err ||
    { cat vg.err; fail "ts cycles under callgrind"; }
assert_eq "a cycles region: the probes' cost measured once" 1 "$(cg_calls cg.ts measure_probe_cost)"
# a trace past 4 KiB (a unit of 1,000 counters): its CRCs right
{ echo 'int big(int x) {'; for i in $(seq 1000); do echo "    if (x == $i) return $((i * 3));"; done; echo '    return 0; }'
  echo 'int main(int argc, char **argv) { (void)argv; return big(argc) == 3 ? 0 : 1; }'; } > big.c
pi_cc -O0 -fplugin-arg-perfinst-all=count -c big.c -o big.o
pi_ld -O0 -o big big.o
PERFINST_OUT=big.pit valgrind --tool=callgrind --callgrind-out-file=cg.big ./big 2> vg.err || { cat vg.err; fail "big under callgrind"; }
[ "$(stat -c %s big.pit)" -gt 4096 ] || fail "big.pit is not over 4 KiB"
# (its COUNTS record by carry-less multiplication where the CPU has it)
t=$(cg_calls cg.big make_crc_tables)
[ "$t" -le 1 ] || fail "a trace past 4 KiB: the slicing tables made $t times"
# a hundred units' small records: past 2 KiB byte by byte the tables are made,
# once, and the CRCs of the records before and after are right
for u in $(seq 100); do printf 'int f%d(int x) { return x > %d ? x * 3 : x + 1; }\n' $u $u > s$u.c; done
{ for u in $(seq 100); do echo "int f$u(int);"; done
  echo 'int main(void) { int s = 0;'; for u in $(seq 100); do echo "s += f$u(7);"; done; echo 'return s == 0; }'; } > smain.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-entry=jump -c s[0-9]*.c smain.c
pi_ld -O2 -o small100 s[0-9]*.o smain.o
PERFINST_OUT=s100.pit valgrind --tool=callgrind --callgrind-out-file=cg.s100 ./small100 2> vg.err || { cat vg.err; fail "small100 under callgrind"; }
assert_eq "a hundred units' records: the slicing tables made once" 1 "$(cg_calls cg.s100 make_crc_tables)"
"$PMOPT" report --format=csv --by=function ./small100 s100.pit > s100.csv || fail "pmopt cannot read s100.pit"
assert_eq "a hundred units' functions, each entered once" 100 "$(awk -F, '$4 ~ /^f[0-9]+$/ && $2 == 1' s100.csv | wc -l)"
# and their registration is linear in the units: each unit's constructor
# finds its registration by its id's chain (not by walking every unit's),
# and syncs its own functions' jump slots (the range of its own infos),
# not the module's every slot
# (the infos: one per split function)
infos=$(readelf -SW small100 | awk '$2 == "__perfinst_jumpinfo" { print $6 }')
[ -n "$infos" ] || fail "small100 has no jump infos (entry=jump)"
splits=$(( 0x$infos / 16 ))
[ "$splits" -ge 100 ] || fail "only $splits split functions of 101"
assert_eq "each split function's slot synced once at start" "$splits" "$(cg_calls cg.s100 sync_one)"
# Each unit registers in one call: its record, its functions' switches and
# its jump slots (__perfinst_register_unit2), not three locked calls of
# which two looked the unit up again by its id; in a process of one thread
# it takes no lock, nor does a unit's end (t-stress.sh registers units
# while threads run)
calls=$(cg_calls cg.s100 __perfinst_register_unit2)
assert_eq "one registration call a unit" 101 "$calls"
assert_eq "no unit registers its functions or slots apart" 0 \
    "$(( $(cg_calls cg.s100 __perfinst_register_functions) + $(cg_calls cg.s100 __perfinst_register_jumps) + $(cg_calls cg.s100 pi_unit_of_id_locked) ))"
locks=$(awk '/^fn=/ { f = $0; sub(/^fn=\([0-9]+\) ?/, "", f); split($1, a, ")"); id = a[1] ")"; sub(/^fn=/, "", id);
                      if (f != "") nm[id] = f; cur = nm[id] }
             /^cfn=/ { c = $0; sub(/^cfn=\([0-9]+\) ?/, "", c); split($1, a, ")"); id = a[1] ")"; sub(/^cfn=/, "", id);
                       if (c != "") nm[id] = c; callee = nm[id] }
             /^calls=/ && (cur == "__perfinst_register_unit2" || cur == "__perfinst_unregister_unit") && callee == "pthread_mutex_lock" { split($1, x, "="); n += x[2] }
             END { print n + 0 }' cg.s100)
assert_eq "one thread: no lock for a unit's start and end" 0 "$locks"
# (about 420 instructions a unit, the module's look-up and its jump slots
# included; 530 with the lock, 650 when each unit searched the module's jump
# infos for its own)
per=$(callgrind_annotate --inclusive=yes cg.s100 2> /dev/null | awk '/__perfinst_register_unit2/ { gsub(/,/, "", $1); print $1; exit }')
[ -n "$per" ] && [ "$((per / calls))" -lt 480 ] ||
    fail "registering 101 units: ${per:-?} instructions"
ok "registering 101 units: $per instructions"
"$PMOPT" report --format=csv ./big big.pit > /dev/null || fail "pmopt cannot read big.pit"
ok "big.pit ($(stat -c %s big.pit) bytes) reads back"
# at exit each unit's counters go into its totals: most are 0 (all but a
# path's), tested sixteen at once with SSE2 (pi_all_zero), not one by one
# (8.6 instructions a counter) or eight ORed in general registers (4.3)
nctr=$("$PMOPT" dump-meta big | sed -n 's/.* \([0-9]*\) counters,.*/\1/p' | head -1)
unreg=$(callgrind_annotate --inclusive=yes --threshold=100 cg.big 2> /dev/null | awk '/__perfinst_unregister_unit/ { gsub(/,/, "", $1); print $1; exit }')
[ -n "$nctr" ] && [ "$nctr" -ge 1000 ] && [ -n "$unreg" ] || fail "big: $nctr counters, unregister $unreg instructions"
[ "$unreg" -lt $((nctr * 4)) ] || fail "big: unregistering $nctr counters took $unreg instructions"
ok "big: $nctr counters unregistered in $unreg instructions"
