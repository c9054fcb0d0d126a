/* Narrow counters with spills.  spin runs its loop body 200000 times with
 * 16-bit counters: 3 spills of 65536 and 3392 left in the counter.  The
 * statement in twice counts with 8 bits (1000 executions: 3 spills of 256,
 * 232 left).  wide keeps 64-bit counters. */
#include <perfinst.h>
#include <stdio.h>

PERFINST("count(width=16)")
__attribute__((noinline)) long spin(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i & 7;
    return s;
}

__attribute__((noinline)) long twice(int n)
{
    long s = 0;
    #pragma perfinst count(width=8)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

PERFINST("count") __attribute__((noinline)) long wide(long n) { return n * 3; }

int main(void)
{
    long s = spin(200000) + twice(1000) + wide(5);
    printf("%ld\n", s);
    return 0;
}
