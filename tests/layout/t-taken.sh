# bench/taken-branches.py counts the taken branches of a program's own code
# from a callgrind profile (docs/layout.md "Taken branches under callgrind"),
# exactly, on taken.c's known control flow, compiled with the hot arm as the
# fall-through (HOT_HINT=1) and out of line (HOT_HINT=0).  work(100000):
# the 5% arm runs 5000 times, the 95% arm 95000; the loop's back edge is
# taken 99999 times; rare() is called 100 times from work's .cold part (a
# jump into another symbol's first instruction, and one back); 25 of its
# calls tail-call leaf() (jmp to a function's entry), the other 75 take its
# jne; copy()'s rep movsb (a loop to itself under valgrind) is no branch.
. "$PERFINST_TOP/tests/lib.sh"
TB="python3 $PERFINST_TOP/bench/taken-branches.py"
cg() { valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes --callgrind-out-file="$1" "${@:2}" > /dev/null 2> "$1.err" ||
    { cat "$1.err" >&2; fail "callgrind $*"; }; }
fn_count() { awk -v f="$2" '$2 == f { print $1; n++ } END { if (!n) print 0 }' "$1"; }

for hint in 1 0; do
    gcc -O2 -DHOT_HINT=$hint -o t$hint "$T/layout/taken.c"
    objdump -d --no-show-raw-insn t$hint > t$hint.dis
done
# the layouts the counts below assume (GCC 12 at -O2)
for hint in 1 0; do
    awk '/<work>:/ { on = 1; next } on && /^$/ { exit } on' t$hint.dis > work$hint.dis
    assert_contains "t$hint: work jumps into work.cold" work$hint.dis 'je +[0-9a-f]+ <work\.cold>'
    assert_contains "t$hint: work.cold jumps back into work" t$hint.dis 'jmp +[0-9a-f]+ <work\+0x'
    assert_contains "t$hint: rare tail-calls leaf" t$hint.dis 'jmp +[0-9a-f]+ <leaf>'
    assert_contains "t$hint: copy's rep movsb" t$hint.dis 'rep movsb'
done
# HOT_HINT=1: the 5% arm is out of line (jbe to it, jmp back); HOT_HINT=0:
# the 95% arm is (ja to it, jmp back)
assert_contains "t1: the jcc goes to the 5% arm (sink += 3)" work1.dis 'jbe '
assert_contains "t0: the jcc goes to the 95% arm (sink += 1)" work0.dis 'ja '

cg cg1.out ./t1
cg cg0.out ./t0
$TB --by-function t1 cg1.out > tb1
$TB --by-function t0 cg0.out > tb0
cat tb1 tb0
# work: the out-of-line arm's jcc and jmp back, the jcc into work.cold 100,
# the back edge 99999
assert_eq "t1: work" $((5000 + 5000 + 100 + 99999)) "$(fn_count tb1 work)"
assert_eq "t0: work" $((95000 + 95000 + 100 + 99999)) "$(fn_count tb0 work)"
for hint in 1 0; do
    assert_eq "t$hint: work.cold (its jmp back)" 100 "$(fn_count tb$hint work.cold)"
    assert_eq "t$hint: rare (75 jne, 25 jmp leaf)" 100 "$(fn_count tb$hint rare)"
    assert_eq "t$hint: copy (rep movsb is no branch)" 0 "$(fn_count tb$hint copy)"
    assert_contains "t$hint: 125 jumps into a function's first instruction" tb$hint "first instruction 125;"
done
t1=$(awk 'NR == 1 { print $3 }' tb1)
t0=$(awk 'NR == 1 { print $3 }' tb0)
assert_eq "the two layouts differ by 2 x 90000 taken branches" 180000 $((t0 - t1))

# callgrind's own totals (jump= + taken jcnd=) per source line do not see it
valgrind --tool=callgrind --collect-jumps=yes --callgrind-out-file=line1.out ./t1 > /dev/null 2>&1
valgrind --tool=callgrind --collect-jumps=yes --callgrind-out-file=line0.out ./t0 > /dev/null 2>&1
sum() { awk -F'[= /]' '/^jump=/ { t += $2 } /^jcnd=/ { t += $2 } END { print t + 0 }' "$1"; }
assert_eq "per-line jump totals are blind to the layout" "$(sum line1.out)" "$(sum line0.out)"
# ... and the reader refuses such a profile, and one without jumps
expect_fail "a profile per line" $TB t1 line1.out
assert_contains "it says why" err "dump-instr=yes"
valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=nojumps.out ./t1 > /dev/null 2>&1
expect_fail "a profile without jumps" $TB t1 nojumps.out
assert_contains "it says why" err "collect-jumps=yes"
expect_fail "a missing profile" $TB t1 missing.out
assert_contains "it names the file" err "missing.out"
