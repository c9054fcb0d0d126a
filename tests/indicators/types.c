/* types.c — types(load,store,call,branch) on a loop whose memory accesses
 * and calls are known from the source: scale() reads src[i] once per
 * iteration, and when it is odd (a[i] = i: 500 of the 1000) calls triple()
 * and writes dst[i]; one call of scale.  The call keeps the counting copy's
 * counters in memory inside the loop, updated through an address GCC
 * computed into a register (addq $1, %fs:OFF(%reg)): those increments are
 * perfinst's, not the program's, and must not count as loads and stores. */
#include <perfinst.h>
#include <stdio.h>

#define N 1000
static long a[N], b[N];

__attribute__((noipa)) long triple(long x)
{
    return 3 * x;
}

#pragma perfinst types(load,store,call,branch)
__attribute__((noinline)) void scale(long *dst, const long *src, int n)
{
    for (int i = 0; i < n; i++)
        if (src[i] & 1)
            dst[i] = triple(src[i]);
}

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
    scale(b, a, N);
    printf("%ld\n", b[N - 1]);
    return 0;
}
