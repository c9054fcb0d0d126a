/* planhot.c — where the time goes is not where the blocks are
 * (tests/sampling/t-plan-samples.sh): slow_div() executes few blocks, each
 * a long chain of dependent divisions; many_blocks() executes many cheap
 * blocks.  Ranked by block executions many_blocks comes first, by sampled
 * time slow_div does.
 *
 *   planhot [SCALE]
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double slow_div(long n)
{
    double x = 1e6;
    for (long i = 0; i < n; i++) {
        x = x / 1.0000001 + 1e-9; x = x / 1.0000002 + 1e-9; x = x / 1.0000003 + 1e-9;
        x = x / 1.0000004 + 1e-9; x = x / 1.0000005 + 1e-9; x = x / 1.0000006 + 1e-9;
        x = x / 1.0000007 + 1e-9; x = x / 1.0000008 + 1e-9; x = x / 1.0000009 + 1e-9;
        x = x / 1.0000010 + 1e-9; x = x / 1.0000011 + 1e-9; x = x / 1.0000012 + 1e-9;
        x = x / 1.0000013 + 1e-9; x = x / 1.0000014 + 1e-9; x = x / 1.0000015 + 1e-9;
        x = x / 1.0000016 + 1e-9; x = x / 1.0000017 + 1e-9; x = x / 1.0000018 + 1e-9;
    }
    return x;
}

__attribute__((noinline)) long many_blocks(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        if (i & 1)
            s += i;
        else
            s ^= i;
    }
    return s;
}

int main(int argc, char **argv)
{
    long k = argc > 1 ? atol(argv[1]) : 1;
    double x = slow_div(2000000 * k);
    long s = many_blocks(20000000 * k);
    printf("%g %ld\n", x, s);
    return 0;
}
