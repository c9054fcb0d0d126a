/* A switch of constants that gcc -O2 turns into a table load (switch
 * conversion: a CSWTCH array) and an if-chain it turns into a bit test
 * (if-to-switch).  GCC 12 runs both only before IPA, where the counters
 * in the case blocks stop them; pass-split runs them again on the clean
 * copy (tests/count/t-switch-conv.sh). */
#include <stdio.h>

__attribute__((noinline)) int weight(int x)
{
    switch (x) {                                 // expect-count: 20
    case 0:
        return 5;                                // expect-count: 2
    case 1:
        return 9;                                // expect-count: 2
    case 2:
        return 3;                                // expect-count: 2
    case 3:
        return 11;                               // expect-count: 3
    case 4:
        return 17;                               // expect-count: 3
    case 5:
        return 2;                                // expect-count: 3
    default:
        return 0;                                // expect-count: 5
    }
}

__attribute__((noinline)) int odd_pick(int c)
{
    if (c == 1 || c == 3 || c == 7 || c == 9)    // expect-count: 20
        return 1;                                // expect-count: 8
    return 0;                                    // expect-count: 12
}

int main(void)
{
    int s = 0;
    for (int i = 0; i < 20; i++)
        s += weight(i % 7 + (i >= 14) * 3) * 10 + odd_pick(i % 10);
    printf("%d\n", s);
    return 0;
}
