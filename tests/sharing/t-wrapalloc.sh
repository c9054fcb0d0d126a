# An allocation wrapper whose `return malloc(n)` GCC makes a tail call
# (xz's lzma_alloc): the object is named by the wrapper's malloc, its
# caller next on the stack, and the plan's align-alloc names that call, so
# the rebuild applies it with its padding.  Before, the recording twin was
# jumped to, named the wrapper's caller (where no call can be aligned) and
# the rebuild stopped: "recommendations 2 and 1 are applied together or
# not at all ... no allocation call at wrapalloc.c:31 in main".
. "$PERFINST_TOP/tests/lib.sh"
export PERFINST_SHARING_PERIOD=1
src=$T/sharing/wrapalloc.c
cp "$src" .
mline=$(grep -n '/\* site malloc \*/' wrapalloc.c | cut -d: -f1)
cline=$(grep -n '/\* site caller \*/' wrapalloc.c | cut -d: -f1)
pi_cc -O2 -g -fplugin-arg-perfinst-sharing=all -c wrapalloc.c -o w.o || fail "the sharing build"
pi_ld -O2 -o w w.o -lpthread || fail "the sharing link"
objdump -d --no-show-raw-insn w | awk '/<xalloc>:/ { on = 1 } on && /^$/ { exit } on' > xalloc.s
assert_contains "the wrapper calls the recording twin" xalloc.s "call.*<__perfinst_share_malloc"
assert_not_contains "... and does not jump to it" xalloc.s "jmp.*<__perfinst_share_malloc"
PERFINST_OUT=w.pit ./w > w.out || fail "the run"
assert_eq "the run's result" "$(cat w.out)" 399980000
"$PMOPT" report --sharing w w.pit > report || fail "pmopt report --sharing"
assert_contains "the object is named by the wrapper's malloc" report "objects: heap object from wrapalloc\.c:$mline \(xalloc\)"
assert_contains "its caller next on the stack" report "allocated at: wrapalloc\.c:$mline \(xalloc\) <- wrapalloc\.c:$cline \(main\)"
"$PMOPT" plan --sharing -o w.fb w w.pit > plan.out || fail "pmopt plan --sharing"
assert_contains "the plan aligns the wrapper's call" w.fb "align-alloc func=xalloc file=wrapalloc\.c line=$mline "
pi_cc -O2 -g -fplugin-arg-perfinst-feedback=w.fb -c wrapalloc.c -o r.o 2> r.err || { cat r.err >&2; fail "the repaired rebuild"; }
assert_not_contains "every recommendation applied" r.err "not applied|error"
pi_ld -O2 -o r r.o -lpthread && ./r > r.out || fail "the repaired program"
assert_eq "the repaired run's result" "$(cat r.out)" 399980000
