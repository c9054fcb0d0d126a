/* branch.c's 95%-taken branch, but inside a statement-level directive:
 * the `#pragma perfinst count` on the loop wraps it in try/finally and the
 * count pass splits blocks at its markers, in the training build
 * (all=count) and in the rebuild alike.  The profile must match the
 * rebuild's CFG (t-stmt.sh): every function matched, and the hot arm
 * (0x5151) falls through.  A plain gcc warns about the unknown pragma. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void work(int i, volatile int *acc)
{
    acc[4] += i;
#pragma perfinst count
    if (__builtin_expect(i % 20 != 0, 0)) { /* true 95% of the time */
        acc[0] += i;
        acc[1] ^= 0x5151;
    } else {
        acc[2] += 0x7777;
        acc[3] -= i;
    }
    acc[5] -= i;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    volatile int acc[6] = { 0, 0, 0, 0, 0, 0 };
    for (int i = 0; i < n; i++)
        work(i, acc);
    printf("%d %d %d %d %d %d\n", acc[0], acc[1], acc[2], acc[3], acc[4], acc[5]);
    return 0;
}
