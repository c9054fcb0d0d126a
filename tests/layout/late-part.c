/* A profile of a `.part` function that the rebuild inlines back
 * (t-late.sh): -O2's early ipa-split moves lookup's rare tail into
 * lookup.part.0, so the training build (count-at=late, after that split)
 * profiles lookup.part.0 as a function of its own; the rebuild, whose
 * inliner may grow functions more (--param max-inline-insns-auto=200),
 * inlines lookup and lookup.part.0 into main and removes them, and GCC's
 * garbage collector (made to collect at every point: --param
 * ggc-min-expand=0 --param ggc-min-heapsize=0) purges the part's name.  The rebuild's summary must still count
 * its profile once in the total and once as matched (before, the plugin
 * kept the name's string, which the collector reused: "139.6% of the
 * profile's block executions matched"). */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) static void slow(int *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i % 64] += i * 7;
}

static int lookup(int *a, int n, int k)
{
    int h = a[k & 63];
    if (__builtin_expect(n > 0, 0)) {
        for (int i = 0; i < n % 8; i++) {
            a[i & 63] ^= i;
            slow(a, i);
            sink += a[(i * 3) & 63];
        }
        printf("rare %d\n", k);
        return -1;
    }
    return h;
}

int main(int argc, char **argv)
{
    int a[64] = {0};
    int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
    for (int i = 0; i < n; i++)
        s += lookup(a, i, i);
    for (int i = 0; i < n; i++)
        s += lookup(a, i & 1, i);
    printf("%d\n", s);
    return 0;
}
