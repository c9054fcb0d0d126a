/* slower.c — the diff test's program: built twice, once with -DFACTOR=1
 * and once with -DFACTOR=5, so that slow() does five times the work in the
 * second build with the same control flow, fast() the same work in both;
 * the second build also has extra(), called once from main().
 * `slower N R`: R rounds of slow(N) and fast(N). */
#include <stdlib.h>

#ifndef FACTOR
#define FACTOR 1
#endif

static volatile unsigned sink;

__attribute__((noinline)) static void slow(unsigned n)
{
    for (unsigned i = 0; i < n * FACTOR; i++)
        sink += i;
}

__attribute__((noinline)) static void fast(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sink ^= i;
}

#if FACTOR > 1
__attribute__((noinline)) static void extra(void)
{
    sink = 7;
}
#endif

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    unsigned rounds = argc > 2 ? (unsigned)atoi(argv[2]) : 10;
    for (unsigned r = 0; r < rounds; r++) {
        slow(n);
        fast(n);
    }
#if FACTOR > 1
    extra();
#endif
    return 0;
}
