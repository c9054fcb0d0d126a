# Tests: `make check` builds everything and runs tests/run.sh.
.PHONY: check
check: all
	tests/run.sh -j 2
