/* late-front.c — a function GCC's early ipa-split cuts (t-count-late.sh):
 * f's header, the test of `paused`, is inlined into main; the rest is
 * f.part.0.  gcov's build (-fprofile-generate splits nothing early) counts
 * every call of f, and so does pmopt: its entries are the inlined
 * fronts', none of them `inlined`, so that entries - inlined is gcov's
 * count.  `./late-front N`: N calls, one in three past the header. */
#include <stdio.h>
#include <stdlib.h>

int paused;
long acc;

__attribute__((noinline)) void slow(int x)
{
    acc += x;
}

int f(int x)
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

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 30, s = 0;
    for (int i = 0; i < n; i++) {
        paused = i % 3 == 0;
        s += f(i);
    }
    printf("%d\n", s);
    return 0;
}
