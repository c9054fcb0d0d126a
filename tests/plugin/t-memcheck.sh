# timeout: 300
# The plugin under valgrind's memcheck: cc1 compiles fixtures that take
# the plugin's main paths (all=count at the late point with the early
# ipa-split's parts, with -g; clean-copies=final's tail calls rewritten
# in the assembly, without; the demo's directives; a rebuild from a
# plan).  About ten seconds
# each, valgrind's own start in cc1 most of it.  No error may
# touch the plugin: no invalid read, write or free anywhere in cc1 (cc1
# has none of its own), and no use of an uninitialised value whose first
# frame is the plugin's (cc1's register allocator has some of its own,
# which are not ours).  The fixtures' objects must be the same as without
# valgrind.  (finalcopy.cc read the rewritten lines after freeing them;
# feedback.cc gave libcpp a buffer without the 16 bytes of padding its
# line scanner reads past the end.)
# scripts/check-memcheck.sh runs whole test scripts so (make check-memcheck).
. "$PERFINST_TOP/tests/lib.sh"
command -v valgrind > /dev/null || skip "valgrind is missing"
[ -z "${PERFINST_MEMCHECK:-}" ] || skip "every compile runs under memcheck already (scripts/check-memcheck.sh)"
n=0
# vg NAME ARGS...: compile under memcheck; fail on an error of the plugin's
vg() {
    local name=$1
    shift
    "$PERFINST_TOP/scripts/memcheck-run.sh" "$name.vg.%p" \
        gcc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" "$@" -c -o "$name.o" ||
        fail "$name: the compile under valgrind failed"
    awk -f "$PERFINST_TOP/scripts/memcheck-errors.awk" "$name".vg.* > "$name.errs" ||
        { cat "$name.errs"; fail "$name: memcheck found errors of the plugin's"; }
    gcc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" "$@" -c -o "$name.ref.o"
    cmp -s "$name.o" "$name.ref.o" || fail "$name: the object under valgrind differs from the one without"
    n=$((n + 1))
}
vg late-split -O2 -g -fplugin-arg-perfinst-all=count "$T/count/late-split.c"
vg finaltails -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=final "$T/count/finaltails.c"
vg demo -O2 -g "$PERFINST_TOP/examples/demo.c"
# the rebuild: the plugin hands libcpp three lines naming the feedback
# file and the source, which libcpp's line scanner reads 16 bytes at a
# time, past their end (with these names, x.c and p.pip, the last load
# crossed the end of the buffer before it had its padding)
cp "$T/count/late.c" x.c
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c x.c -o train.o
pi_ld -O2 -o train train.o
PERFINST_OUT=train.pit ./train > /dev/null
"$PMOPT" plan -o p.pip ./train train.pit > /dev/null
vg rebuild -O2 -g -fplugin-arg-perfinst-feedback=p.pip x.c
ok "$n compiles under memcheck: no error of the plugin's, the same objects"
