/* A profile taken after the early ipa-split (t-late.sh): `lookup` has a
 * head of about 30 of GCC's size units and a rare tail that uses only its
 * parameters, which the early ipa-split ("fnsplit") moves into a function
 * of its own when the head is small enough to inline: under
 * max-inline-insns-auto + 10 (ipa-split.cc, consider_split).  -O2's limit
 * (15) refuses it, twice that accepts it.  all=count scales the inliner's
 * limits; its count-at=late point is after fnsplit, so the training build
 * must split as the rebuild (plain -O2's limits) does, or lookup's profile
 * is keyed on a CFG the rebuild never has. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) static void slow(int *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i % 64] += i * 7;
}

int lookup(int *a, int n, int k)
{
    int h = a[k & 63];
    h = h * 3 + a[(k + 1) & 63];
    h = h * 4 + a[(k + 2) & 63];
    h = h * 5 + a[(k + 3) & 63];
    if (__builtin_expect(h < 0, 0)) {
        for (int i = 0; i < n; i++) {
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
    printf("%d\n", s);
    return 0;
}
