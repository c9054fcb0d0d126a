/* A marked static function that the optimiser inlines into its callers
 * (and unrolls): its blocks' counts stay exact wherever the copies went. */
#include <perfinst.h>
#include <stdio.h>

#pragma perfinst count
static inline int clamp(int v, int lo, int hi)
{
    if (v < lo)                       // expect-count: 300
        return lo;                    // expect-count: 100
    if (v > hi)                       // expect-count: 200
        return hi;                    // expect-count: 50
    return v;                         // expect-count: 150
}

int main(void)
{
    long s = 0;
    for (int i = -100; i < 200; i++)
        s += clamp(i, 0, 149);
    printf("%ld\n", s);
    return 0;
}
