/* Block and edge counts from block counters (t-edges.sh).  f's edges all
 * follow from its block counts by flow conservation; g has two blocks that
 * both branch to the same two joins, so its block counts leave one degree
 * of freedom: those edges are estimated, and said so. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int f(int i)
{
    int r = 0;
    if (i % 4 == 0) /* 250 of 1000 */
        r += 3;
    else
        r -= 1;
    for (int k = 0; k < i % 3; k++) /* 0, 1 or 2 rounds */
        r += k;
    return r;
}

__attribute__((noinline)) static int g(int i)
{
    int r;
    /* GCC turns this into: if (odd) { if (%5 == 0) goto yes; else goto no; }
       else { if (%10 < 3) goto yes; else goto no; } -- two blocks that both
       branch to the same two joins */
    if (i % 2 ? i % 5 == 0 : i % 10 < 3) /* odd: 100 of 500; even: 150 of 500 */
        r = i * 3;
    else
        r = i + 7;
    return r;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long s = 0;
    for (int i = 0; i < n; i++)
        s += f(i) + g(i);
    printf("%ld\n", s);
    return 0;
}
