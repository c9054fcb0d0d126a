#!/bin/bash
# timeout: 1500
# The bounded sanitizer subset inside `make check` (so CI, which runs the
# README's test command, runs it too): the runtime's and the load tests
# against an ASan+UBSan build, the thread tests against a TSan build
# (scripts/check-sanitize.sh --ci; `make check-sanitize` runs everything).
# Any sanitizer report fails it.
source "$PERFINST_TOP/tests/lib.sh"
# On failure: the failing tests' lines and the reports first (the log's
# tail alone may not name them), then the log's end.
"$PERFINST_TOP/scripts/check-sanitize.sh" --ci > log 2>&1 || {
    grep -E '^(FAIL |== |check-sanitize: )' log | head -80
    echo "-- end of the log:"; tail -30 log
    fail "sanitizer subset: $(grep -c '^FAIL ' log) failed test(s), $(grep -c '^== .*/reports/' log) report(s)"
}
tail -5 log
ok "runtime and load tests clean under ASan+UBSan, thread tests under TSan"
