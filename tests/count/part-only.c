/* part-only.c — a function of which only its part is left
 * (tests/count/t-count-late.sh): GCC's early ipa-split cuts f's test of
 * `paused` from the rest, f.part.0, and the inliner takes that front into
 * both callers (and at -O2 the part too), so no f is left whole: the
 * metadata's one copy of f is f.part.0.  f's row in pmopt's reports is
 * still its unit's.  `./part-only N`: N calls each of a and b. */
#include <stdio.h>
#include <stdlib.h>

int paused;
long acc;

__attribute__((noinline)) void slow(int x)
{
    acc += x;
}

static int f(int x)
{
    if (!paused)
        return 0;
    for (int i = 0; i < x; i++) {
        slow(i);
        slow(i * 3);
        slow(i ^ 5);
    }
    printf("%ld\n", acc);
    return 1;
}

__attribute__((noinline)) int a(int x)
{
    return f(x) + 1;
}

__attribute__((noinline)) int b(int x)
{
    return f(x * 2) + 2;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 30, s = 0;
    for (int i = 0; i < n; i++) {
        paused = i % 3 == 0;
        s += a(i) + b(i);
    }
    printf("%d\n", s);
    return 0;
}
