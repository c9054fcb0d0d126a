/* icallphase.c — one indirect call site in two phases
 * (tests/count/t-icall-rejudge.sh): 20,000 calls rotating over five
 * targets (every call misses the inline cache: the site is sampled), then
 * 200,000 alternating between two others, which two ways hold. */
#include <stdio.h>

#define F(i) __attribute__((noinline)) static long f##i(long x) { return x * 3 + i; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6)
static long (*const ops[7])(long) = {f0, f1, f2, f3, f4, f5, f6};

__attribute__((noinline)) long site(long (*fn)(long), long x) { return fn(x); }

int main(void)
{
    long acc = 0;
    for (int i = 0; i < 20000; i++)
        acc = site(ops[i % 5], acc) & 0xffff;
    for (int i = 0; i < 200000; i++)
        acc = site(ops[5 + i % 2], acc) & 0xffff;
    printf("acc %ld\n", acc);
    return 0;
}
