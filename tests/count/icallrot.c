/* icallrot.c — three indirect call sites (tests/count/t-icall-sampled.sh):
 * wide() rotates over ten targets, more than the inline cache's two ways
 * and the runtime's two victims hold, so that every call misses; narrow()
 * over three, which the victims take, but a third of its calls miss the
 * ways: both sampled; skewed() calls f0 four times, f1, f0 four times, f2:
 * two misses a turn of ten, four hits a miss: exact; dominant() calls f0
 * eight times a turn and two of f1..f8 in turn: its misses evict f0 from
 * the ways (sampled), but the way kept once sampled is f0's.
 * `./icallrot N`: N turns of each, ten calls of wide, three of narrow,
 * ten of skewed and ten of dominant a turn. */
#include <stdio.h>
#include <stdlib.h>

#define F(i) __attribute__((noinline)) static long f##i(long x) { return x * 3 + i; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9)
static long (*const ops[10])(long) = {f0, f1, f2, f3, f4, f5, f6, f7, f8, f9};

__attribute__((noinline)) long wide(long (*fn)(long), long x) { return fn(x); }
__attribute__((noinline)) long narrow(long (*fn)(long), long x) { return fn(x); }
__attribute__((noinline)) long skewed(long (*fn)(long), long x) { return fn(x); }
__attribute__((noinline)) long dominant(long (*fn)(long), long x) { return fn(x); }

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, acc = 0;
    for (long t = 0; t < n; t++) {
        for (int i = 0; i < 10; i++)
            acc = wide(ops[i], acc) & 0xffff;
        for (int i = 0; i < 3; i++)
            acc = narrow(ops[i], acc) & 0xffff;
        for (int i = 0; i < 10; i++)
            acc = skewed(ops[i == 4 ? 1 : i == 9 ? 2 : 0], acc) & 0xffff;
        for (int i = 0; i < 10; i++)
            acc = dominant(ops[i == 3 ? 1 + t % 4 : i == 7 ? 5 + t % 4 : 0], acc) & 0xffff;
    }
    printf("acc %ld\n", acc);
    return 0;
}
