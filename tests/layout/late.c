/* A profile taken after the early inliner (t-late.sh): `step` is inlined
 * (always_inline) into `work` by the early inliner, before count-at=late counts, so work's profile is keyed on
 * the CFG with step's branch in it, and the rebuild must apply it at the
 * same point.  The branch is taken 95% of the time and its source hint
 * says the opposite; the arms carry distinctive constants (0x5151 hot,
 * 0x7777 cold) to find them in objdump, as in branch.c. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) void step(int i, volatile int *acc)
{
    if (__builtin_expect(i % 20 != 0, 0)) { /* true 95% of the time */
        acc[0] += i;
        acc[1] ^= 0x5151;
    } else {
        acc[2] += 0x7777;
        acc[3] -= i;
    }
}

__attribute__((noinline)) static void work(int i, volatile int *acc)
{
    acc[4] += 1;
    step(i, acc);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    volatile int acc[5] = { 0, 0, 0, 0, 0 };
    for (int i = 0; i < n; i++)
        work(i, acc);
    printf("%d %d %d %d %d\n", acc[0], acc[1], acc[2], acc[3], acc[4]);
    return 0;
}
