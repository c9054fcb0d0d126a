/* ctrorder.c — a function whose hot loop comes after many cold checks
 * (tests/count/t-counter-order.sh): in site order the loop's counters lie
 * among the checks'; with counter-order=hot they come first.  The
 * expect-count comments are gcov 12's counts of an -O0 --coverage build. */
#include <stdio.h>
#include <stdlib.h>

static void die(const char *what, int code)
{
    fprintf(stderr, "ctrorder: %s\n", what);
    exit(code);
}

__attribute__((noinline)) long work(const int *a, int n, int mode)
{
    long s = 0;
    if (!a)                                        // expect-count: 3
        die("no array", 2);                        // expect-count: 0
    if (n < 0)                                     // expect-count: 3
        die("negative length", 3);                 // expect-count: 0
    if (n > 1000000)                               // expect-count: 3
        die("too long", 4);                        // expect-count: 0
    if (mode < 0)                                  // expect-count: 3
        die("negative mode", 5);                   // expect-count: 0
    if (mode > 9)                                  // expect-count: 3
        die("mode too large", 6);                  // expect-count: 0
    if (mode == 7)                                 // expect-count: 3
        s = -1;                                    // expect-count: 1
    for (int i = 0; i < n; i++) {                  // expect-count: 3003
        int v = a[i];                              // expect-count: 3000
        if (v & 1)                                 // expect-count: 3000
            s += v;                                // expect-count: 1500
        else if (v % 3 == 0)                       // expect-count: 1500
            s -= v;                                // expect-count: 501
        else                                       // expect-count: none
            s ^= v;                                // expect-count: 999
        if (s > 100000000)                         // expect-count: 3000
            s = 0;                                 // expect-count: 0
    }
    if (s < -100000000)                            // expect-count: 3
        die("sum too small", 7);                   // expect-count: 0
    if (s == 12345)                                // expect-count: 3
        s = 0;                                     // expect-count: 0
    return s;                                      // expect-count: 3
}

int main(void)
{
    static int a[1000];
    for (int i = 0; i < 1000; i++)
        a[i] = i;
    long t = 0;
    for (int m = 6; m < 9; m++)
        t += work(a, 1000, m);
    printf("%ld\n", t);
    return 0;
}
