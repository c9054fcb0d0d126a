/* tests/layout/t-i1sim.sh: one function of one cache line in an object of
 * its own; the test links nine of them (F = 0..8) at chosen distances. */
__attribute__((noinline, aligned(64))) int FNAME(int x) { return x * 3 + 1; }
