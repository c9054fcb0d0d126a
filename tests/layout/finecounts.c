/* Counts scaled before GCC derives its own (t-finecounts.sh,
 * gcc-plugin/pass-feedback.cc, feedback-counts=runs|fine).
 *
 * few: called twice in training with reps = 9: every block of the source
 * runs (the loop's test 20 times, its exit 2).  GCC's loop-header copying
 * makes the zero-trip path (return 0x6666) a block of its own, whose count
 * is derived: 2 entries x the exit's probability 2/20 = 0.2 runs, which
 * rounds to 0 with feedback-counts=runs, and the split sends it to few.cold
 * as a block that never ran; with fine, 2048 x 0.1 = 204 of 2048: hot.
 * spin: called once with reps = 100000: its zero-trip block's 1/100001 run
 * is 0 either way (1024 x 1/100001 rounds to 0) and it stays cold.
 * With an argument N the zero-trip paths run N times. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) long few(const long *a, int reps)
{
    long acc = 0, x = 0x6666;
    for (int r = 0; r < reps; r++) {
        acc += a[r & 15] * x;
        x += 5;
    }
    return acc ^ x;
}

__attribute__((noipa)) long spin(const long *a, int reps)
{
    long acc = 0, x = 0x7777;
    for (int r = 0; r < reps; r++) {
        acc += a[r & 15] * x;
        x += 3;
    }
    return acc ^ x;
}

int main(int argc, char **argv)
{
    int empty = argc > 1 ? atoi(argv[1]) : 0;
    long a[16], acc = 0;
    for (int i = 0; i < 16; i++)
        a[i] = i * 7 + 3;
    acc = spin(a, 100000);
    acc += few(a, 9) + few(a + 1, 9);
    for (int r = 0; r < empty; r++)
        acc += spin(a, 0) + few(a, 0);
    printf("%ld\n", acc);
    return 0;
}
