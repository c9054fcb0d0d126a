# Processor characteristics (seed 001's core) on two CPUs, through
# the documented override PERFINST_TOPOLOGY and pinning the thread:
#   suppression: with CPUs that differ in capability, suppress=secondary
#   drops (and counts) the points on the secondary CPU, suppress=primary
#   those on the primary, all drops all, none keeps all with T set right;
#   on a homogeneous configuration every setting stores;
#   halt: a new CPU version (signature, or microcode alone), an rgs above the
#   new CPU's limit, or more migrations than allowed halt RI: nothing more
#   is stored (counted as lost), BEGIN carries H, the halted alert runs once;
#   rca = roa clears the halt and a fresh BEGIN follows.
. "$PERFINST_TOP/tests/lib.sh"
# Two CPUs this script may run on (its affinity mask: a cgroup or taskset
# may leave out any, CPU 0 and 1 included), called 0 and 1 below: cpus()
# prints the points' CPUs by those names.
set -- $(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2])')
c0=$1 c1=${2:-}
pi_cc -O2 -g -c "$T/ri/cpu.c" -o cpu.o
pi_ld -O2 -o cpu cpu.o
# run NAME TOPOLOGY RI [ARGS]: dump in NAME.d
run() {
    local name=$1 topo=$2 ri=$3; shift 3
    PERFINST_TOPOLOGY=$topo PERFINST_RI=mode=none,$ri PERFINST_OUT=$name.pit ./cpu "$@" > $name.out
    "$PMOPT" dump $name.pit > $name.d
}
cpus() { awk -v a="$c0" -v b="${c1:-none}" '/EXTRA sysinfo/ { c = $5; sub(",", "", c); printf "%s", c == a ? 0 : c == b ? 1 : "?" }' "$1"; }

if [ -z "$c1" ]; then
    # One CPU: what needs no move.  The suppression of a CPU's points by
    # its capability, and a homogeneous configuration storing all; the
    # halts (version, rgs limit, migrations) need a second CPU.
    echo "only CPU $c0 in this process's affinity mask: suppression on one CPU checked; halts and moves need two CPUs, not checked"
    run sec1 $c0:secondary:0x10 suppress=secondary $c0:5
    assert_contains "one CPU, secondary, suppress=secondary: all 5 suppressed" sec1.d " RI tid .*, ngroups 0, .*suppressed 5, lost 0$"
    run pri1 $c0:secondary:0x10 suppress=primary $c0:5
    assert_eq "one CPU, secondary, suppress=primary: all stored" 00000 "$(cpus pri1.d)"
    assert_contains "... BEGIN says T (secondary)" pri1.d "\] BEGIN flags 0x4 \(T\)"
    run none1 $c0:primary:0x10 suppress=all $c0:5
    assert_eq "one CPU, homogeneous: suppress=all is inert" 00000 "$(cpus none1.d)"
    exit 0
fi
steps=$c0:3,$c1:3,$c0:2
hetero=$c0:primary:0x10,$c1:secondary:0x10
run sec $hetero suppress=secondary $steps
assert_eq "suppress=secondary: the points on CPU 0 only" 00000 "$(cpus sec.d)"
assert_contains "... 3 suppressed" sec.d " RI tid .*, ngroups 5, .*suppressed 3, lost 0$"
assert_not_contains "... none marked secondary" sec.d "capability secondary"
run pri $hetero suppress=primary $steps
assert_eq "suppress=primary: the points on CPU 1 only" 111 "$(cpus pri.d)"
assert_contains "... 5 suppressed" pri.d "suppressed 5, lost 0$"
assert_contains "... BEGIN says T (secondary)" pri.d "\] BEGIN flags 0x4 \(T\)"
run all $hetero suppress=all $steps
assert_contains "suppress=all: no group, 8 suppressed" all.d " RI tid .*, ngroups 0, .*suppressed 8, lost 0$"
run none $hetero suppress=none $steps
assert_eq "suppress=none: all points" 00011100 "$(cpus none.d)"
assert_eq "... T on the 3 from CPU 1" 3 "$(grep -c 'TIMESTAMP flags 0x4 (T)' none.d)"
run homog $c0:primary:0x10,$c1:primary:0x10 suppress=all $steps
assert_eq "homogeneous: suppress=all is inert" 00011100 "$(cpus homog.d)"

# halts
run ver $c0:primary:0x10,$c1:primary:0x11 full=alert $steps
assert_eq "version change: stored until the move" 000 "$(cpus ver.d)"
assert_contains "... BEGIN has H" ver.d "\] BEGIN flags 0x2 \(H\), rgs 2, mode none, nrg 3,"
assert_contains "... 5 lost, halted" ver.d " RI tid .*, ngroups 3, flags 0x2 \(halted \), suppressed 0, lost 5$"
assert_contains "... one halted alert" ver.out "^alerts full 0 halted 1$"
run ucode $c0:primary:0x10/1,$c1:primary:0x10/2 full=alert $steps
assert_contains "microcode change halts too" ucode.d "ngroups 3, flags 0x2 \(halted \), suppressed 0, lost 5$"
run rgs $c0:primary:0x10,$c1:primary:0x10:maxrgs=1 rgs=2 $steps
assert_contains "rgs above the new CPU's limit halts" rgs.d "ngroups 3, flags 0x2 \(halted \), suppressed 0, lost 5$"
run rgsok $c0:primary:0x10,$c1:primary:0x10:maxrgs=2 rgs=2 $steps
assert_contains "rgs at the limit is fine" rgsok.d "ngroups 8, flags 0x0 \(-\), suppressed 0, lost 0$"
run mig $c0:primary:0x10,$c1:primary:0x10 migrations=1 $steps
assert_contains "the second migration halts (migrations=1)" mig.d "ngroups 6, flags 0x2 \(halted \), suppressed 0, lost 2$"
run nomig $c0:primary:0x10,$c1:primary:0x10 "" $steps
assert_contains "no limit: no halt" nomig.d "ngroups 8, flags 0x0 \(-\), suppressed 0, lost 0$"
# rewinding clears the halt: a new buffer with a fresh BEGIN
run rew $c0:primary:0x10,$c1:primary:0x11 full=alert $c0:2,$c1:2 rewind $c1:3
assert_contains "halted before the rewind" rew.out "^before rewind: halted$"
assert_contains "running after" rew.out "^after rewind: running$"
assert_contains "the halted buffer: 2 groups, 2 lost" rew.d " RI tid .*, seq 0, rgs 2, ngroups 2, flags 0x2 \(halted \), suppressed 0, lost 2$"
assert_contains "the new buffer: 3 groups on CPU 1" rew.d " RI tid .*, seq 1, rgs 2, ngroups 3, flags 0x0 \(-\)"
assert_eq "... a BEGIN each" 2 "$(grep -c '\] BEGIN' rew.d)"
