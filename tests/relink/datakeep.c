/* A data order that adds set conflicts (t-datakeep.sh).  f's loop
 * references a in every iteration, the 64-byte-aligned `big` in every
 * second and b in every fourth; g's loop references b in every iteration.
 * As compiled, a and b share a line and big has one of its own.  The
 * plan's order by affinity (the objects of f, whose blocks reference a and
 * big most, heaviest first; then g's b) is a, big, b: three lines, where a
 * and b fall into one set of a two-set direct-mapped L1d (128,1,64) and
 * evict each other in f's loop. */
#include <stdio.h>
#include <stdlib.h>

volatile long big[8] __attribute__((aligned(64))) = { 3 };
volatile long b = 2;
volatile long a = 1;

__attribute__((noinline)) void f(long n)
{
    for (long i = 0; i < n; i++) {
        a += i;
        if (i & 1)
            big[1] += i;
        if ((i & 3) == 0)
            b ^= i;
    }
}

__attribute__((noinline)) void g(long n)
{
    for (long i = 0; i < n; i++)
        b ^= i;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    f(n);
    g(n);
    printf("%ld %ld %ld\n", a, b, big[1]);
    return 0;
}
