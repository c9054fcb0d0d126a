/* html.c — for t-html.sh: one hot function (hot_kernel, 100 calls of 1000
 * iterations), a cold one, and a threshold on leaf, called through outer →
 * middle → leaf 30 times (3 events, each with that stack). */
#include <perfinst.h>
#include <stdio.h>

PERFINST("count")
__attribute__((noinline)) long hot_kernel(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i * i;
    return s;
}

PERFINST("count")
__attribute__((noinline)) long cold_setup(long x)
{
    return x + 1;
}

PERFINST("threshold(count=10)")
__attribute__((noinline)) long leaf(long x) { return x * 2; }
__attribute__((noinline)) long middle(long x) { return leaf(x) + 1; }
__attribute__((noinline)) long outer(long x) { return middle(x) + 1; }

int main(void)
{
    long s = cold_setup(1);
    for (int i = 0; i < 100; i++)
        s += hot_kernel(1000);
    for (int i = 0; i < 30; i++)
        s += outer(i);
    printf("%ld\n", s);
    return 0;
}
