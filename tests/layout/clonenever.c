/* t-clone-never.sh: never() does not run (one argument), busy() does;
 * both are IPA clones (never.constprop.0, busy.constprop.0) and both
 * inline mix(), whose counters, placed before inlining (count-at=cfg), are
 * shared by its copies: never.constprop.0's section holds mix's ranges,
 * which ran 20000 times in busy, and none of its own that ran.
 * `./clonenever N [x]`. */
#include <stdio.h>
#include <stdlib.h>

struct S {
    long a[8];
    long unused;
};

static inline int mix(long x, int k)
{
    long h = x;
    for (int i = 0; i < k; i++)
        h = h * 31 + (h >> 7) + i;
    return (int)(h & 0xffff);
}

__attribute__((noinline)) static int busy(struct S *s, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        r += mix(s->a[i & 7], 5);
    return r;
}

__attribute__((noinline)) static int never(struct S *s, int n, int unused)
{
    return mix(s->a[n & 7], 9) + mix(s->a[1], 3);
}

int main(int argc, char **argv)
{
    static struct S s;
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long t = 0;
    for (int i = 0; i < 8; i++)
        s.a[i] = i * 7 + 1;
    t += busy(&s, n);
    if (argc > 2)
        t += never(&s, n, 3);
    printf("%ld\n", t);
    return 0;
}
