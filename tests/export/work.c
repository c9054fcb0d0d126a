/* The exports' fixture: a call chain with known control flow.
 *
 *   ./work ROUNDS N
 *
 * main calls outer once; outer calls middle ROUNDS times; middle calls
 * spinner from one of two call sites: with N for odd k, with N/2 for even
 * k.  With ROUNDS even, each call site runs ROUNDS/2 times, and spinner's
 * loop test (the `for` line) runs (N+1)*ROUNDS/2 + (N/2+1)*ROUNDS/2 times.
 * Almost all the time is in spinner: timer samples land there, under
 * middle, outer and main.  The functions are noinline and kept apart so
 * that every count and every frame is where the source says.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned spinner(unsigned n)
{
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)                            /* line 21: the loop test */
        s = s * 31u + (i ^ (s >> 7));
    return s;
}

__attribute__((noinline)) static unsigned middle(unsigned k, unsigned n)
{
    if (k & 1)
        return spinner(n);                                      /* line 29: odd k */
    return spinner(n / 2) + 1;                                  /* line 30: even k */
}

__attribute__((noinline)) static void outer(unsigned rounds, unsigned n)
{
    for (unsigned k = 0; k < rounds; k++)
        sink += middle(k, n);                                   /* line 36 */
}

int main(int argc, char **argv)
{
    unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
    unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
    outer(rounds, n);
    printf("%u\n", sink);
    return 0;
}
