# The off mode of a function with an early exit (shrinkwrap.c): its clean
# copy, made of the counting copy's code (clean-copies=final), tests the
# flag and returns before pushing a register, as -O2 does, and so does the
# counting copy; the counts stay exact.  Before, perfinst's asms in the
# shared return block kept GCC from shrink-wrapping the counting copy, and
# its clean copy pushed three registers before its first test.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/shrinkwrap.c
gcc -O2 -c "$src" -o plain.o
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$src" -o count.o
# body OBJ FN: FN's instructions, mnemonic and first operand
body() {
    objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' |
        awk -F'\t' 'NF >= 2 { split($2, w, " "); print w[1], w[2] }'
}
body plain.o special > plain.ins
body count.o special > clean.ins
body count.o special.count.0 > counting.ins
[ -s plain.ins ] && [ -s clean.ins ] && [ -s counting.ins ] || fail "special's code not found"
assert_eq "-O2: the test and the return before the pushes" "testl jne ret" "$(head -3 plain.ins | awk '{ print $1 }' | xargs)"
assert_eq "the clean copy: its dispatch, then -O2's test and return" "cmpb jne testl jne ret" \
    "$(head -5 clean.ins | awk '{ print $1 }' | xargs)"
grep -v '%fs:' counting.ins | sed '1,2d' | head -3 | awk '{ print $1 }' | xargs > counting.head
assert_eq "the counting copy: the test and the return before the pushes" "testl jne ret" "$(cat counting.head)"
pi_ld -O2 -o prog count.o
rm -f c.pit
PERFINST_OUT=c.pit ./prog 80 > out
entries=$("$PMOPT" report --by=function --format=csv prog c.pit |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 && $c["linkage"] == "special" { print $c["entries"] }')
assert_eq "special entered 80 times" 80 "$entries"
