# The off mode's copy of a loop whose counter GCC kept in a register
# (clean-copies=final, finalcopy.cc): hashwalk.c's byte compare, as nginx's
# ngx_hash_find has it.  The counting copy sets a flag in the loop that
# its counter changed and tests it after the loop, where one way goes to
# the counter's store and the other through a block of just a jump; F
# leaves out the test, the jump and the flag's settings (dead_jump looks
# through such blocks), and the loop, its flag gone, is tested at its
# bottom (bottom_test: `je out; jmp top` made `jne top; jmp out`).
# Checked on the assembly (F tests no flag where F.count.0 tests some; no
# conditional jump followed by a jump back), the counts (PERFINST_MODE=on:
# the same answers, lookup entered once a question), and callgrind's
# instructions of F in the off mode: under 1.45x -O2's (1.55x before;
# nginx's own ngx_hash_find 1.65x, bench/RESULTS.md).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/hashwalk.c
gcc -O2 -g -o plain "$src"
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -S "$src" -o l.s
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$src" -o l.o
pi_ld -O2 -o counted l.o
python3 - l.s <<'PY' || fail "the assembly of lookup's clean copy"
import re, sys
text = open(sys.argv[1]).read()
def body(name):
    m = re.search(r"^" + re.escape(name) + r":\n(.*?)\t\.cfi_endproc", text, re.S | re.M)
    assert m, name
    return m.group(1).splitlines()
f, c = body("lookup"), body("lookup.count.0")
flag = re.compile(r"\ttestb\t%(\w+), %\1$")
assert any(flag.match(l) for l in c), "the counting copy tests no flag (the fixture no longer has the shape)"
assert not any(flag.match(l) for l in f), [l for l in f if flag.match(l)]
labels = {}
code = []
for l in f:
    m = re.match(r"^(\.L\w+):", l)
    if m:
        labels[m.group(1)] = len(code)
    elif l.startswith("\t") and not l.startswith("\t.") and not l.startswith("\t#"):
        code.append(l)
for k in range(1, len(code)):
    m = re.match(r"\tjmp\t(\.L\w+)$", code[k])
    if m and re.match(r"\tj(?!mp)\w+\t", code[k - 1]) and labels.get(m.group(1), 1 << 30) < k:
        raise SystemExit("a conditional jump, then a jump back: " + code[k - 1] + " / " + code[k])
print("F tests no flag; its loops are tested at the bottom")
PY
ok "lookup: F tests no flag, its loop tested at its bottom"
assert_eq "the counted build's answers" "$(./plain 1000)" "$(PERFINST_OUT=on.pit ./counted 1000)"
"$PMOPT" report --by=function --format=csv ./counted on.pit > on.csv
assert_eq "lookup entered once a question" 9000 "$(awk -F, '$4 == "lookup" { print $2 }' on.csv)"
command -v valgrind > /dev/null || skip "valgrind not installed (the instruction count)"
valgrind --tool=callgrind --callgrind-out-file=cg.plain ./plain > /dev/null 2>&1
PERFINST_MODE=off PERFINST_OUT=/dev/null valgrind --tool=callgrind --callgrind-out-file=cg.off ./counted > /dev/null 2>&1
ir() { callgrind_annotate "$1" 2> /dev/null | awk '/[:]lookup(\.count\.[0-9]+)? \[/ { gsub(/,/, "", $1); s += $1 } END { print s + 0 }'; }
p=$(ir cg.plain) o=$(ir cg.off)
[ "$p" -gt 0 ] || fail "no instructions of lookup in the plain build"
python3 -c "import sys; r = $o / $p; print('off/plain: %.3f' % r); sys.exit(r > 1.45)" ||
    fail "lookup's off mode: $o instructions, -O2 $p"
ok "lookup's off mode: $o instructions, -O2's $p"
