# The dynamic statistics of a layout whose blocks have copies (`pmopt plan
# --stats`, docs/layout.md "Dynamic statistics"): dynstats.c's is_prime,
# whose loop test and body test GCC lays out twice at -O2 (checked here on
# the code ranges and with objdump).  dynstats-model.py walks every call's
# path (known trip counts: is_prime(i), i < 1000) over the machine code and
# counts the edges that do not fall through; the statistics must bracket
# that exactly: taken (all that may be taken) >= true >= taken - copied
# (the part the shared counter of a copied block cannot attribute).
# Counting an edge as a fall-through because SOME copy of the source falls
# into the target (the old rule) puts the back edge's 4291 taken jumps
# among the fall-throughs and fails here.  The executed instructions are
# bracketed the same way.
. "$PERFINST_TOP/tests/lib.sh"
# counting=inline: this test studies the counting build's own layout, and a
# counting=function build's counting copies are f.count.N sections the relink
# leaves in ld's order (docs/layout.md)
pi_cc -O2 -g -fplugin-arg-perfinst-counting=inline -c "$T/relink/dynstats.c" -o d.o
pi_ld -O2 -o d d.o
PERFINST_OUT=d.pit ./d 1000 > out
assert_eq "168 primes below 1000" 168 "$(cat out)"
"$PMOPT" dump-meta d > meta
objdump -d --no-show-raw-insn d > dis
read -r edges taken copies back insns <<< "$(python3 "$T/relink/dynstats-model.py" 1000 meta dis)" ||
    fail "dynstats-model.py failed"
assert_eq "GCC copied the loop test (two code ranges)" 2 "$copies"
# the trip counts: 996 calls enter the loop (i >= 4), 5287 loop tests run
# in all, so 5287 - 996 = 4291 of them go back into the body by the latch
# copy's jump
assert_eq "the back edge's taken jumps" 4291 "$back"
grep -Eq '\sj(ge|le|l|g)\s+[0-9a-f]+ <is_prime\+0x[0-9a-f]+>' dis || fail "objdump: no backward jump in is_prime"
"$PMOPT" plan --stats ./d d.pit > st
cat st
num() { sed -n "s/^  $1 *\([0-9]*\).*/\1/p" st; }
assert_eq "executed edges: every step of every call's path" "$edges" "$(num 'executed edges')"
t=$(num 'taken branches')
c=$(num 'of which copied')
c=${c:-0}
echo "true taken $taken; measured taken $t, of which $c copied"
[ "$t" -ge "$taken" ] || fail "taken branches $t below the $taken the code takes"
[ $((t - c)) -le "$taken" ] || fail "taken branches $t less copied $c above the $taken the code takes"
ok "taken branches bracket the code's $taken: $((t - c)) .. $t"
# executed instructions: each copy's runs x its instructions; the copies'
# runs are bounded like the edges, so the true sum lies in the interval
# (the old count x mean of the ranges gave 65001, outside it)
read -r mid lo hi <<< "$(sed -n 's/^  executed instructions *\([0-9]*\) (\([0-9]*\) to \([0-9]*\): copied blocks)$/\1 \2 \3/p' st)"
[ -n "${hi:-}" ] || fail "executed instructions: no interval for copied blocks"
[ "$lo" -le "$insns" ] && [ "$insns" -le "$hi" ] || fail "executed instructions $lo .. $hi miss the $insns the code runs"
[ "$lo" -le "$mid" ] && [ "$mid" -le "$hi" ] || fail "executed instructions $mid outside its own interval"
ok "executed instructions bracket the code's $insns: $lo .. $hi"
# the predicted layout chains one copy per block, nothing copied
"$PMOPT" plan -o d.fb ./d d.pit > plan
sed -n '/predicted/,$p' plan > pred
assert_contains "predicted: statistics" pred "^  taken branches  "
assert_not_contains "predicted: one copy per block" pred "of which copied"
