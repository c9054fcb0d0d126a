/* Set pressure with cold parts (t-sets.sh): six functions w0..w5, each
 * with a hot path and a warm branch taken in one call of 256 (0.4 % of its
 * entries, below split=3's warm=1): rebuilt with the profile, each warm
 * branch runs from the function's .cold part (.text.unlikely.wN).  The
 * .skip padding gives the hot paths and the warm branches a few lines
 * each, so that in a small cache they compete for sets. */
#include <stdio.h>
#include <stdlib.h>

#define W(n) \
    __attribute__((noipa)) unsigned long w##n(unsigned long x, int r) \
    { \
        __asm__ volatile(".skip 96, 0x90"); \
        if ((r & 255) == n) { \
            __asm__ volatile(".skip 160, 0x90"); \
            x = x * 0x5151 + (x >> 3) + n; \
        } \
        return x * 2 + n; \
    }
W(0) W(1) W(2) W(3) W(4) W(5)

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 100000;
    unsigned long acc = 1;
    for (int r = 0; r < rounds; r++) {
        acc ^= w0(acc, r) + w1(acc, r) + w2(acc, r);
        acc ^= w3(acc, r) + w4(acc, r) + w5(acc, r);
    }
    printf("rounds %d acc %lu\n", rounds, acc & 0xffffff);
    return 0;
}
