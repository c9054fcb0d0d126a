/* clean-copies= (gcc-plugin/copies.cc, pi_single_body): a function with a
 * loop and one without, each kept out of line.  Built with all=count;
 * `expect-count-all: N` is each line's exact count (tests/count/check-counts.py). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int flat(int a)
{
    if (a > 3)                        // expect-count-all: 10
        return a * 2;                 // expect-count-all: 6
    return a + 1;                     // expect-count-all: 4
}

__attribute__((noinline)) int loopy(int n)
{
    int s = 0;                        // expect-count-all: 10
    for (int i = 0; i < n; i++)       // expect-count-all: 55
        s += i & 3 ? i : 1;           // expect-count-all: 75 (gcov's: runs of lines)
    return s;                         // expect-count-all: 10
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    long t = 0;
    for (int i = 0; i < n; i++)       // expect-count-all: 11
        t += flat(i) + loopy(i);      // expect-count-all: 10
    printf("%ld\n", t);              // expect-count-all: 1
    return 0;
}
