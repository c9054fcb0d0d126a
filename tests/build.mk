# Tests: `make check` builds everything and runs tests/run.sh.
.PHONY: check
check: all
	tests/run.sh -j 2

# `make check-sanitize`: ASan+UBSan build (build-asan/) and the tests against
# it, TSan build of the runtime (build-tsan/) and its thread tests.
.PHONY: check-sanitize
check-sanitize:
	scripts/check-sanitize.sh

# `make check-memcheck`: the test scripts of count/, cxx/, layout/, plugin/
# and relink/ with every compile that loads the plugin under valgrind's
# memcheck (PATTERN=... for others).
.PHONY: check-memcheck
check-memcheck: all
	scripts/check-memcheck.sh $(PATTERN)
