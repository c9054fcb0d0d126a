/* rinext.c — perfinst_ri_next() (RINEXT: the next unit is a sample point)
 * before the 3rd and the 7th call of tick(), which counts one unit a call
 * with sample(every=7): groups at units 3 (directed), 7 (count and directed
 * at once: one group) and 14 (count).  t-dedup.sh. */
#include <perfinst.h>
#include <stdio.h>

#pragma perfinst sample(every=7)
__attribute__((noinline)) int tick(int x) { return x + 1; }

int main(void)
{
    volatile int s = 0;
    for (int i = 0; i < 14; i++) {
        if (i == 2 || i == 6)
            perfinst_ri_next();
        s += tick(i);
    }
    printf("%d\n", s);
    return 0;
}
