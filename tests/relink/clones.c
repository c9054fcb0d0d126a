/* pmopt relink's matching of a rebuilt program's functions (t-hotrest.sh):
 * the plan is made on a build with -fno-ipa-cp -fno-ipa-sra -DPLAN, where `scale` keeps
 * its name and `tiny` is inlined into `work`; the relinked build, plain
 * -O2, has a clone `scale.constprop.0` (or `.isra.0`) and an
 * out-of-line `tiny` in .text.hot (attribute hot), which the plan does not
 * name.  `cold_usage` is in .text.unlikely (attribute cold). */
#include <stdio.h>
#include <stdlib.h>

#ifdef PLAN
#define TINY static inline __attribute__((always_inline))
#else
#define TINY static __attribute__((noinline, hot))
#endif

__attribute__((noinline, cold)) static void cold_usage(const char *p)
{
    fprintf(stderr, "usage: %s N\n", p);
    exit(2);
}

TINY long tiny(long x)
{
    return x * 2654435761u >> 7;
}

__attribute__((noinline)) static long scale(long x, long unused, long k)
{
    return x * k + (x >> 3);
}

__attribute__((noinline)) static long work(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += scale(i, 0, 3) ^ tiny(i);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        cold_usage(argv[0]);
    printf("%ld\n", work(atol(argv[1])));
    return 0;
}
