# pad=gcc|none (gcc-plugin/perfinst.cc, docs/layout.md "Padding"): with a
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
assert_contains "the error names the values" err "pad=some.: expected .gcc. or .none."
