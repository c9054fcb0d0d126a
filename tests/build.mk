# Tests: `make check` builds everything and runs tests/run.sh.
.PHONY: check
check: all
	tests/run.sh -j 2

# `make check-sanitize`: ASan+UBSan build (build-asan/) and the tests against
# it, TSan build of the runtime (build-tsan/) and its thread tests.
.PHONY: check-sanitize
check-sanitize:
	scripts/check-sanitize.sh
