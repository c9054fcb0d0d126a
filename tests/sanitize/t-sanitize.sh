#!/bin/bash
# timeout: 1500
# The bounded sanitizer subset inside `make check` (so CI, which runs the
# README's test command, runs it too): the runtime's and the load tests
# against an ASan+UBSan build, the thread tests against a TSan build
# (scripts/check-sanitize.sh --ci; `make check-sanitize` runs everything).
# Any sanitizer report fails it.
source "$PERFINST_TOP/tests/lib.sh"
"$PERFINST_TOP/scripts/check-sanitize.sh" --ci > log 2>&1 || { tail -60 log; fail "sanitizer subset"; }
tail -5 log
ok "runtime and load tests clean under ASan+UBSan, thread tests under TSan"
