/* Hot data by affinity (t-data.sh): hot globals lie between cold ones in
 * the source (.data, one section each with -fdata-sections).  f references
 * a1 in every iteration and a2 in every 8th; g references b1 in every
 * iteration of a loop half as long.  By weight alone the order would be
 * a1, b1, a2; by affinity a1 and a2 (both f's) go together, next to b1
 * (g's): the hot objects contiguous, each function's objects adjacent. */
#include <stdio.h>
#include <stdlib.h>

/* (.data starts at a multiple of the model's 128 bytes whatever precedes
   it in the link: the objects' sets, as linked, are the program's own) */
static volatile long data_anchor __attribute__((aligned(128), used)) = 1;
volatile long cold1[8] = { 1 };
volatile long a1 = 1;
volatile long cold2[8] = { 2 };
volatile long b1 = 3;
volatile long cold3[8] = { 3 };
volatile long a2 = 5;
volatile long cold4[8] = { 4 };

__attribute__((noinline)) void f(long n)
{
    for (long i = 0; i < n; i++) {
        a1 += i;
        if ((i & 7) == 0)
            a2 ^= i;
    }
}

__attribute__((noinline)) void g(long n)
{
    for (long i = 0; i < n; i++)
        b1 += i * 3;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40000;
    f(n);
    g(n / 2);
    long c = 0; /* (no executed block reads a cold array) */
    if (argc > 2)
        c = cold1[1] = cold2[1] + cold3[1] + cold4[1];
    printf("%ld %ld %ld %ld\n", a1, a2, b1, c);
    return 0;
}
