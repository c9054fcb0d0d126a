# timeout: 600
# `make demo`'s loop (make run-demo, into a scratch directory): the flags
# route from pkg-config to a relinked program with the training run's
# output.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
[ "$B" = "$PERFINST_TOP/build" ] || skip "the demo runs with the default build directory, not $B"
make -C "$PERFINST_TOP" run-demo DEMO="$PWD/demo" > demo.log 2>&1 || { tail -40 demo.log; fail "make run-demo"; }
assert_contains "compiled with the flags of pkg-config" demo.log '^gcc -O2 -g \$\(PKG_CONFIG_PATH=.* pkg-config --cflags perfinst\) -c examples/demo.c'
assert_contains "linked with them" demo.log '^gcc -O2 \$\(PKG_CONFIG_PATH=.* pkg-config --libs perfinst\) -o '
assert_contains "the report" demo.log 'is_prime'
assert_contains "the relink" demo.log '^pmopt relink: wrote '
assert_contains "the end" demo.log '^demo.opt: same output, laid out for its training run$'
