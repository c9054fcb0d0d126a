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
