/* tiername.c — for t-tiername.sh: functions named like GCC's tier prefixes
 * (hot, startup), each cloned (hot.constprop.0, startup.constprop.0), so
 * their sections read .text.hot.constprop.0 and .text.startup.constprop.0:
 * not the hot tier's or the startup tier's function constprop.0. */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) long hot(long n, int k)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += (i * k) ^ (i >> 3);
    return s;
}

static __attribute__((noinline)) long startup(long n, int k)
{
    long s = 1;
    for (long i = 0; i < n; i++)
        s = s * k + (i & 15);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    printf("%ld %ld\n", hot(n, 7), startup(n / 2, 3));
    return 0;
}
