/* clonetier.c: clones GCC's IPA-CP makes in the rebuild (t-clonetier.sh).
 * scale, called by work with the constant 7, and fix, called by rare with
 * the constant 9, become scale.constprop.0 and fix.constprop.0; trained
 * with -fno-ipa-cp, the plan names scale (it ran) and fix (it never ran:
 * the cold tier) but neither clone. */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) int scale(int x, int k)
{
    return (x * k) ^ (x >> 3);
}

static __attribute__((noinline)) int fix(int x, int k)
{
    printf("fix %d\n", x);
    return x * k + 1;
}

__attribute__((noinline)) int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += scale(i, 7) & 15;
    return s;
}

__attribute__((noinline)) int rare(int x)
{
    return fix(x, 9) + fix(x + 1, 9);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int s = n < 0 ? rare(n) : work(n);
    printf("%d\n", s);
    return 0;
}
