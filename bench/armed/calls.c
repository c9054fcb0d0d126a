/* bench/armed-cost.sh's fixture: N calls of a small counted function. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

PERFINST("count") __attribute__((noinline)) int f(int x)
{
    return x * 3 + 1;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000, s = 0;
    for (long i = 0; i < n; i++)
        s += f((int)i);
    printf("%ld\n", s);
    return 0;
}
