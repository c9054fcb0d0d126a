# the `sharing` directive (default -fplugin-arg-perfinst-sharing=marked):
# a marked variable, struct type, fields and function are instrumented,
# each line exactly 2*(R-1) false reloads; unmarked data is not seen.
. "$PERFINST_TOP/tests/lib.sh"
# exact mode: every access to a shared line checked (the default samples; t-sampled.sh)
export PERFINST_SHARING_PERIOD=1
for opt in -O0 -O2; do   # at -O2 the marked function is inlined into its caller
    pi_cc $opt -g -c "$T/sharing/marked.c" -o m.o
    pi_ld $opt -o m m.o
    rm -f m.pit
    PERFINST_OUT=m.pit ./m > out
    assert_contains "$opt output" out "^200 200 200 200 200$"
    "$PMOPT" report --sharing m m.pit > rep
    assert_contains "$opt: four marked lines, 4*2*(R-1) false reloads" rep "4 with sharing; reloads: 0 true, 792 false\)$"
    for what in "pair_var\[1\]" "by_type.b" "by_field.y" "in_func\[1\]"; do
        assert_contains "$opt $what: its thread, 99 false reloads" rep "writes \[$what\]; reloads 0 true, 99 false$"
    done
    assert_not_contains "$opt: unmarked data is not instrumented" rep "unmarked"
done
