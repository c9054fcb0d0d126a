/* pad=hot (t-pad.sh): hot() runs its loop 2,000,000 times a run and is
 * in the hot tier; setup() runs the same loop 200 times, once, outside
 * it (under 1 % of the block executions).  GCC pads both loops' heads
 * (and jump targets) at -O2; pad=hot keeps that padding in hot() alone.
 * The two loops search with a branch on each element, so that GCC keeps
 * them loops with a jump target inside. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) static long hot(const int *a, int n, int key)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] == key)
            s += i;
        else if (a[i] > key)
            s -= a[i] & 7;
        else
            s ^= a[i];
    }
    return s;
}

__attribute__((noipa)) static long setup(int *a, int n, int seed)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        a[i] = (seed = seed * 1103515245 + 12345) >> 16 & 1023;
        if (a[i] == 7)
            s += i;
        else if (a[i] > 500)
            s -= a[i] & 7;
        else
            s ^= a[i];
    }
    return s;
}

int main(int argc, char **argv)
{
    int a[200];
    long s = setup(a, 200, argc);
    for (int r = 0; r < 10000; r++)
        s += hot(a, 200, r & 1023);
    printf("%ld\n", s);
    return 0;
}
