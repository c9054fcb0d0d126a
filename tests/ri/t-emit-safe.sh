# emit(EXPR) is checked like any C expression and never crashes a program
# that would not crash (emit-safe.c): GCC's own diagnostics (division by
# zero; no such member), and at run time the emits whose expression would
# fault are skipped while the others record their values.  At -O0 and -O2.
. "$PERFINST_TOP/tests/lib.sh"
for opt in -O0 -O2; do
    pi_cc $opt -g -c "$T/ri/emit-safe.c" -o es.o 2> warn
    assert_contains "$opt: GCC's own warning for emit(k / 0)" warn "emit-safe.c:32:.*warning: division by zero"
    pi_ld $opt -o es es.o
    PERFINST_RI=rgs=3 PERFINST_OUT=es.pit ./es > out
    assert_eq "$opt: the program's output" 30 "$(cat out)"
    "$PMOPT" dump es.pit > d
    assert_eq "$opt: the values that could be evaluated, newest first" "9 25 3 2 20 " \
        "$(awk '/\] EMIT/ { printf "%s ", $6 }' d)"
    rm -f *.pit
done
expect_fail "a member that does not exist" pi_cc -c "$T/ri/emit-bad.c" -o bad.o
assert_contains "... GCC's own error, at its line" err "emit-bad.c:6:.*error: request for member .field. in something not a structure or union"
