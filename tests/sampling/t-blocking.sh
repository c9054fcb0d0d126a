# `blocking` (pass-blocking.cc): the plugin brackets a marked function with
# __perfinst_block_enter/exit, so a thread waiting in it through a raw futex
# (which no wrapper sees) is blocked for the idle sampler: to-idle and
# from-idle stacks lead through wait_token, never through the unmarked
# wait_other, with the shared runtime and with the static one (which has no
# interposed wrappers at all).
. "$PERFINST_TOP/tests/lib.sh"

pi_cc -O2 -g -c "$T/sampling/marked.c" -o marked.o
objdump -dr marked.o | awk '/<wait_token>:/ {f=1} /<wait_other>:/ {f=0} f' > wt.s
assert_contains "enter call in wait_token" wt.s "__perfinst_block_enter"
assert_contains "exit call in wait_token" wt.s "__perfinst_block_exit"
objdump -dr marked.o | awk '/<wait_other>:/ {f=1} /^$/ {f=0} f' > wo.s
assert_not_contains "no calls in wait_other" wo.s "__perfinst_block_"

for rt in shared static; do
    if [ $rt = static ]; then pi_ld --pi-static-runtime -O2 -o marked marked.o -pthread
    else pi_ld -O2 -o marked marked.o -pthread; fi
    PERFINST_IDLE=both PERFINST_OUT=$rt.pit ./marked 120 > out
    assert_eq "$rt: rounds" 240 "$(cat out)"
    "$PMOPT" export --what=to --folded to.folded $rt.pit
    "$PMOPT" export --what=from --folded from.folded $rt.pit
    assert_contains "$rt: to-idle stacks through wait_token" to.folded ";worker;wait_token(;[^ ]+)? [0-9]+$"
    assert_contains "$rt: from-idle stacks through wait_token" from.folded ";worker;wait_token(;[^ ]+)? [0-9]+$"
    assert_not_contains "$rt: none through wait_other" to.folded "wait_other"
    assert_not_contains "$rt: none through wait_other (from)" from.folded "wait_other"
done
