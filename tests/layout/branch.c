/* A branch taken 95% of the time whose source hint says the opposite, so
 * that plain -O2 lays the hot arm out of line: the rebuild with the
 * profile must make it the fall-through (t-branch.sh).  The arms carry
 * distinctive constants (0x5151 hot, 0x7777 cold) to find them in objdump. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void work(int i, volatile int *acc)
{
    if (__builtin_expect(i % 20 != 0, 0)) { /* true 95% of the time */
        acc[0] += i;
        acc[1] ^= 0x5151;
    } else {
        acc[2] += 0x7777;
        acc[3] -= i;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    volatile int acc[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < n; i++)
        work(i, acc);
    printf("%d %d %d %d\n", acc[0], acc[1], acc[2], acc[3]);
    return 0;
}
