/* icall3.c — one call site rotating over three targets, then four, then
 * two (tests/count/t-icall-victims.sh): more than the inline cache's two
 * ways, within its two victims in the runtime. */
#include <stdio.h>

static __attribute__((noinline)) long f(long x) { return x + 1; }
static __attribute__((noinline)) long g(long x) { return x * 3; }
static __attribute__((noinline)) long h(long x) { return x - 2; }
static __attribute__((noinline)) long k(long x) { return x ^ 5; }

static long (*const fns[4])(long) = {f, g, h, k};

__attribute__((noinline)) long call(long (*fn)(long), long x) { return fn(x); }

int main(void)
{
    long s = 0;
    for (int i = 0; i < 3000; i++)
        s += call(fns[i % 3], i);     /* f, g, h: 1000 each */
    for (int i = 0; i < 4000; i++)
        s += call(fns[i % 4], i);     /* f, g, h, k: 1000 each */
    for (int i = 0; i < 2000; i++)
        s += call(fns[i % 2], i);     /* f, g: 1000 each */
    printf("sum %ld\n", s);
    return 0;
}
