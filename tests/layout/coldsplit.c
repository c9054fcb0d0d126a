/* The plugin's hot/cold split (t-coldsplit.sh, gcc-plugin/pass-coldsplit.cc).
 *
 * spin: called once in training with reps = 100000, so every block of the
 * source runs; GCC's loop-header copying (after the profile was applied)
 * makes the zero-trip path a block of its own (return 0x7777), whose count
 * is the copied exit edge's: 1 x 1/100001, a guessed zero.  GCC's
 * partitioning keeps it hot; split=2 moves it to spin.cold.
 * step: the branch with marker 0x5151 runs once in 256 calls (0.4 % of the
 * entries): warm; split=3 moves it to step.cold, split=2 keeps it hot.
 * With an argument N the cold paths run N times (spin with reps = 0). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) long spin(const long *a, int reps)
{
    long acc = 0, x = 0x7777;
    for (int r = 0; r < reps; r++) {
        acc += a[r & 15] * x;
        x += 3;
    }
    return acc ^ x;
}

__attribute__((noipa)) long step(long x, int r)
{
    if ((r & 255) == 7)
        x = x * 0x5151 + (x >> 3);
    return x * 2 + 1;
}

int main(int argc, char **argv)
{
    int empty = argc > 1 ? atoi(argv[1]) : 0;
    long a[16], acc = 0;
    for (int i = 0; i < 16; i++)
        a[i] = i * 5 + 1;
    acc = spin(a, 100000);
    for (int r = 0; r < 100000; r++)
        acc ^= step(acc, r) & 0xffffff;
    for (int r = 0; r < empty; r++)
        acc += spin(a, 0) + step(acc, 7);
    printf("%ld\n", acc);
    return 0;
}
