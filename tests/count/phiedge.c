/* phiedge.c — `int s = 0;` folds into a PHI argument on the edge that
 * skips `s += 1`, and phiedge.h's return line is on the blocks either
 * side of that edge: the edge carries a line gcov -O2 does not know, and
 * must not come between the return line's blocks
 * (tests/count/t-lines-gcov.sh) */
#include <stdio.h>
#include "phiedge.h"
static int __attribute__((noinline)) work(int i)
{
    int s = 0; /* @zero */
    if (rnd_n(4) == 0)
        s += 1;
    if (rnd_n(3) == 0)
        s += rnd_n(5);
    int w = rnd_n(7) + 1, h = rnd_n(9) + rnd_n(2);
    s += w * h;
    if (rnd_n(2))
        s ^= rnd_n(11);
    return s + i;
}
int main(void)
{
    long t = 0;
    for (int i = 0; i < 100000; i++)
        t += work(i);
    printf("%ld\n", t);
    return 0;
}
