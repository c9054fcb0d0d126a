/* types.c — types(load,store,call,branch) on a loop whose memory accesses
 * and calls are known from the source: scale() reads src[i] once per
 * iteration, and when it is odd (a[i] = i: 500 of the 1000) calls triple()
 * and writes dst[i]; one call of scale.  The call keeps the counting copy's
 * counters in memory inside the loop, updated through an address GCC
 * computed into a register (addq $1, %fs:OFF(%reg)): those increments are
 * perfinst's, not the program's, and must not count as loads and stores.
 * fscale() reads, multiplies and writes a double 1000 times: three fp
 * instructions, a load and a store per iteration.  copy() copies with
 * `rep movsb` (the test compiles with -mstringop-strategy=rep_byte) on 10
 * of its 10 iterations: 10 string instructions. */
#include <perfinst.h>
#include <stdio.h>

#define N 1000
static long a[N], b[N];
static double d[N], e[N];
static char buf[64], text[64] = "0123456789abcdef0123456789abcdef";

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

#pragma perfinst types(fp,load,store)
__attribute__((noinline)) void fscale(double *dst, const double *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i] * 1.5;
}

#pragma perfinst types(string)
__attribute__((noinline)) void copy(char *dst, const char *src, unsigned long n, int times)
{
    for (int i = 0; i < times; i++)
        if (src[i] != 'x')
            __builtin_memcpy(dst + i, src, n);
}

int main(int argc, char **argv)
{
    for (int i = 0; i < N; i++)
        a[i] = e[i] = i;
    scale(b, a, N);
    fscale(d, e, N);
    copy(buf, text, 20 + argc, 10);
    printf("%ld %g %s\n", b[N - 1], d[N - 1], buf);
    return 0;
}
