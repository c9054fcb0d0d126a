# pad=gcc|none|hot (gcc-plugin/perfinst.cc, pass-pad.cc, docs/layout.md "Padding"): with a
# feedback file, pad=none compiles as -fno-align-loops -fno-align-jumps
# -fno-align-labels: blockorder.c's run (a loop with a switch) gets GCC's
# nop padding (.p2align 4,,10 before its loop head and jump targets) with
# the default pad=gcc and none with pad=none, where only the function's
# own .p2align 4 remains; the same instructions but nops, fewer bytes, the
# same output; without a feedback file pad=none changes nothing.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/layout/blockorder.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$src" -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > train.out
"$PMOPT" plan -o plan.fb ./train train.pit > plan.out
assert_contains "run has a branch profile" plan.fb "branch-profile fn=run "

pads() { grep -c '\.p2align.*,,' "$1" || true; }
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -S "$src" -o gcc.s
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-pad=none -S "$src" -o none.s
echo "padding directives: pad=gcc $(pads gcc.s), pad=none $(pads none.s)"
[ "$(pads gcc.s)" -gt 0 ] || fail "pad=gcc: GCC's loop and jump padding is missing"
assert_eq "pad=none: no padding inside functions" 0 "$(pads none.s)"
assert_contains "pad=none: functions stay aligned" none.s "^	\.p2align 4$"
# the instructions are the same but the nops
insns() { objdump -d --no-show-raw-insn "$1" | awk -F'\t' '/^ *[0-9a-f]+:/ && $2 !~ /^(nop|xchg +%ax,%ax|data16|cs nopw)/ { sub(/ .*/, "", $2); print $2 }' | sort | uniq -c; }
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -c "$src" -o gcc.o
pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-pad=none -c "$src" -o none.o
assert_eq "the same instructions but the padding" "$(insns gcc.o)" "$(insns none.o)"
sz() { size -A "$1" | awk '$1 ~ /^\.text/ { n += $2 } END { print n }'; }
[ "$(sz none.o)" -lt "$(sz gcc.o)" ] || fail "pad=none: code not smaller ($(sz none.o) against $(sz gcc.o) bytes)"
ok "pad=none: $(sz none.o) bytes of code against $(sz gcc.o)"
gcc -O2 -o none none.o
./none > none.out
cmp train.out none.out || fail "pad=none: the program prints something else"
ok "same output"
# without a feedback file: nothing changes
pi_cc -O2 -c "$src" -o plain.o
pi_cc -O2 -fplugin-arg-perfinst-pad=none -c "$src" -o plain-none.o
cmp plain.o plain-none.o || fail "pad=none without a feedback file changed the code"
ok "without a feedback file pad=none changes nothing"
expect_fail "a bad pad" pi_cc -O2 -fplugin-arg-perfinst-pad=some -c "$src" -o bad.o
assert_contains "the error names the values" err "pad=some.: expected .gcc., .none. or .hot."

# pad=hot (gcc-plugin/pass-pad.cc): GCC's padding in the functions of the
# hot tier alone.  padhot.c's hot() runs its loop 2,000,000 times and is
# the hot tier; setup() runs the same kind of loop 200 times, once: pad=gcc
# pads both, pad=hot hot() alone, and the code is the same but the nops
src=$T/layout/padhot.c
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$src" -o ph-train.o
pi_ld -O2 -o ph-train ph-train.o
PERFINST_OUT=ph.pit ./ph-train > ph-train.out
"$PMOPT" plan -o ph.fb ./ph-train ph.pit > ph-plan.out
assert_contains "hot() is the hot tier" ph.fb "function-tier fn=hot .*tier=hot"
assert_not_contains "setup() is not" ph.fb "function-tier fn=setup .*tier=hot"
# fnpads FILE FN: the padding directives inside FN and its parts
fnpads() { awk -v f="$2" '/^[A-Za-z_][A-Za-z0-9_.]*:/ { cur = $1; sub(/:$/, "", cur); sub(/\..*/, "", cur) }
    /\.p2align.*,,/ && cur == f { n++ } END { print n + 0 }' "$1"; }
for pad in gcc hot; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=ph.fb -fplugin-arg-perfinst-pad=$pad -S "$src" -o ph-$pad.s
    pi_cc -O2 -fplugin-arg-perfinst-feedback=ph.fb -fplugin-arg-perfinst-pad=$pad -c "$src" -o ph-$pad.o
done
echo "padding in hot(), setup(): pad=gcc $(fnpads ph-gcc.s hot), $(fnpads ph-gcc.s setup); pad=hot $(fnpads ph-hot.s hot), $(fnpads ph-hot.s setup)"
[ "$(fnpads ph-gcc.s setup)" -gt 0 ] || fail "pad=gcc: setup()'s loop not padded"
[ "$(fnpads ph-hot.s hot)" -gt 0 ] || fail "pad=hot: hot()'s padding is missing"
assert_eq "pad=hot: hot() padded as pad=gcc pads it" "$(fnpads ph-gcc.s hot)" "$(fnpads ph-hot.s hot)"
assert_eq "pad=hot: no padding in setup()" 0 "$(fnpads ph-hot.s setup)"
assert_eq "pad=hot: the same instructions but the padding" "$(insns ph-gcc.o)" "$(insns ph-hot.o)"
gcc -O2 -o ph-hot ph-hot.o
./ph-hot > ph-hot.out
cmp ph-train.out ph-hot.out || fail "pad=hot: the program prints something else"
ok "pad=hot: same output"
pi_cc -O2 -c "$src" -o ph-plain.o
pi_cc -O2 -fplugin-arg-perfinst-pad=hot -c "$src" -o ph-plain-hot.o
cmp ph-plain.o ph-plain-hot.o || fail "pad=hot without a feedback file changed the code"
ok "without a feedback file pad=hot changes nothing"
