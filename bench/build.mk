# Benchmarks (bench/): slow, not part of `make check`.  See bench/README.md.
#
#   make bench         full run of bench/count-overhead.sh; the result is
#                      appended to bench/RESULTS.md (about 10-12 minutes)
#   make bench-quick   one round of everything, printed only (about 5 minutes
#                      with cached builds, 8 on a fresh tree)
#
# BENCH_ARGS adds arguments, e.g. make bench-quick BENCH_ARGS='--no-compile'.
# SQLite is fetched into bench/.cache/ (npm registry) and never committed.
BENCH_ARGS ?=

.PHONY: bench bench-quick bench-clean
bench: all
	bench/count-overhead.sh --record $(BENCH_ARGS)

bench-quick: all
	bench/count-overhead.sh --quick $(BENCH_ARGS)

# Drops the builds; the fetched SQLite in bench/.cache/ is kept.
bench-clean:
	rm -rf bench/.work
