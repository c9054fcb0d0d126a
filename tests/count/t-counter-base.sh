# A counting copy's counter updates through one base register per function
# (gcc-plugin/pass-tls.cc) with counter-address=base: in an executable and
# under -fPIC (the base biased), steps.count.N (40
# conditions, more counters than a disp8 reaches) has no update at an
# absolute %fs offset, its hottest 32 counters at a disp8 from the base and
# the others at a disp32; the counts stay exact in 4 threads.
# counter-address=absolute (the default) keeps the absolute form in an
# executable, as exact.
. "$PERFINST_TOP/tests/lib.sh"

# the %fs-relative adds of steps' counting copy, one per line
updates() {
    objdump -d --no-show-raw-insn "$1" |
        awk '/^[0-9a-f]+ <steps\.count\.[0-9]+>:/ { p = 1; next } /^$/ { p = 0 } p && /add.*%fs:/'
}

for v in exe pic abs; do
    flags=-fplugin-arg-perfinst-counter-address=base
    [ $v = pic ] && flags="-fPIC $flags"
    [ $v = abs ] && flags=
    pi_cc -O2 -g $flags -fplugin-arg-perfinst-all=count -c "$T/count/ctrbase.c" -o $v.o
    pi_ld -O2 -o $v $v.o -pthread
    PERFINST_OUT=$v.pit ./$v > $v.out
    assert_eq "$v: the program's result" 4010835968 "$(cat $v.out)"
    python3 "$T/count/check-counts.py" --all "$PMOPT" ./$v "$T/count/ctrbase.c" $v.pit > c || { cat c; fail "$v: counts"; }
    ok "$v, 4 threads: $(tail -1 c)"
    updates $v > $v.upd
    # absolute: %fs:0xOFFSET with no register; based: %fs:DISP(%reg)
    abs=$(grep -cE '%fs:0x[0-9a-f]+$' $v.upd || true)
    based=$(grep -cE '%fs:(-?0x[0-9a-f]+)?\(%r[a-z0-9]+\)$' $v.upd || true)
    # a disp8: -0x80 .. 0x7f (none: 0)
    near=$(grep -cE '%fs:(-?0x[0-7]?[0-9a-f]|-0x80)?\(%r[a-z0-9]+\)$' $v.upd || true)
    if [ $v = abs ]; then
        [ "$abs" -ge 40 ] || fail "counter-address=absolute: $abs absolute updates in steps.count (want >= 40)"
        ok "counter-address=absolute: $abs updates at absolute %fs offsets"
        continue
    fi
    assert_eq "$v: updates at an absolute %fs offset in steps.count" 0 "$abs"
    [ "$based" -ge 40 ] || fail "$v: $based updates through a base register in steps.count (want >= 40)"
    [ "$near" -ge 24 ] && [ "$near" -le 32 ] || fail "$v: $near updates at a disp8 (want 24..32)"
    [ $((based - near)) -ge 1 ] || fail "$v: no update beyond the disp8 window"
    ok "$v: $based updates through a base register, $near of them at a disp8"
done
