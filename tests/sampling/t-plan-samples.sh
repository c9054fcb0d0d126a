# pmopt plan --hot --samples: a sampling run (counting off) ranks functions
# by sampled self time.  In planhot.c slow_div holds the time and
# many_blocks the block executions: --samples chooses slow_div, the counts
# choose many_blocks, and the overlay from the samples turns slow_div on.
. "$PERFINST_TOP/tests/lib.sh"

pi_cc -fplugin-arg-perfinst-all=count -O2 -g -c "$T/sampling/planhot.c" -o planhot.o
pi_ld -O2 -o planhot planhot.o
PERFINST_MODE=off PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s.pit ./planhot > /dev/null
"$PMOPT" plan --hot=50 --samples --advise ./planhot s.pit > advise 2> notes
cat advise
assert_contains "ranked by samples" advise "^1 of 4 functions have [0-9]+ of [0-9]+ sampled periods \(self\)"
assert_contains "slow_div chosen" advise "^ +[0-9]+ +[0-9.]+% +[0-9.]+% +slow_div "
assert_not_contains "no unknown-record note" notes "do not know"
"$PMOPT" plan --hot=50 --samples -o hot.overlay ./planhot s.pit
func=$(sed -n 's/.*slow_div  0x[0-9a-f]* \([0-9]*\) .*/\1/p' advise)
assert_contains "overlay turns slow_div on" hot.overlay "^on 0x[0-9a-f]{16} $func$"

PERFINST_OUT=c.pit ./planhot > /dev/null
"$PMOPT" plan --hot=50 --advise ./planhot c.pit > advise-counts 2> /dev/null
assert_contains "counts choose many_blocks" advise-counts "^ +[0-9]+ +[0-9.]+% +[0-9.]+% +many_blocks "

expect_fail "no samples" "$PMOPT" plan --hot --samples --advise ./planhot c.pit
assert_contains "says why" err "the traces have no timer samples"

# periods outside the instrumented functions (a unit built without the
# plugin): the percentages are of the instrumented ones' periods, and a
# line says how many of all the sampled periods fell outside
cat > outside.c <<'C'
__attribute__((noinline)) double outside_spin(long n)
{
    double x = 1e6;
    for (long i = 0; i < n; i++)
        x = x / 1.0000001 + 1e-9;
    return x;
}
C
printf 'double outside_spin(long);\ndouble slow_div(long);\nint main(void) { return outside_spin(100000000) + slow_div(2000000) < 0; }\n' > inside.c
printf 'double slow_div(long n) { double x = 1e6; for (long i = 0; i < n; i++) x = x / 1.0000001 + 1e-9; return x; }\n' > slow.c
gcc -O2 -g -c outside.c -o outside.o
pi_cc -fplugin-arg-perfinst-all=count -O2 -g -c inside.c -o inside.o
pi_cc -fplugin-arg-perfinst-all=count -O2 -g -c slow.c -o slow.o
pi_ld -O2 -o inout inside.o slow.o outside.o
PERFINST_MODE=off PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=o.pit ./inout
"$PMOPT" report --tree o.pit > otree
all=$(sed -n 's/^sampled stacks: .* samples for \([0-9]*\) periods,.*/\1/p' otree)
"$PMOPT" plan --hot=100 --samples --advise ./inout o.pit > oadvise 2> /dev/null
cat oadvise
inside=$(sed -n 's/^[0-9]* of [0-9]* functions have [0-9]* of \([0-9]*\) sampled periods.*/\1/p' oadvise)
[ -n "$all" ] && [ -n "$inside" ] && [ "$inside" -lt "$all" ] ||
    fail "outside_spin's periods are not among the instrumented ones' ($inside of $all)"
assert_contains "the periods outside, said" oadvise "^\(of all $all sampled periods, $((all - inside)) \([0-9.]+%\) fell outside the instrumented functions"
"$PMOPT" plan --hot=100 --samples -o o.overlay ./inout o.pit
assert_contains "and in the overlay's header" o.overlay "^# \(of all $all sampled periods, $((all - inside)) "
