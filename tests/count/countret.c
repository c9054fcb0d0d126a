/* countret.c — tests/count/t-countfn.sh: functions that return structures.
 * pair_step returns a 16-byte structure in registers (rax:rdx on x86-64),
 * triple_step a 24-byte one in memory (through a hidden pointer).  With n
 * steps, k = 0 .. n-1: pair_step adds k to lo when k % 3 == 0, else to
 * hi; triple_step adds odd k to a, even k to b, and counts in c. */
#include <stdio.h>
#include <stdlib.h>

struct pair {
    long lo, hi;
};
struct triple {
    long a, b, c;
};

__attribute__((noinline)) struct pair pair_step(struct pair p, long k)
{
    if (k % 3 == 0)
        p.lo += k;
    else
        p.hi += k;
    return p;
}

__attribute__((noinline)) struct triple triple_step(struct triple t, long k)
{
    if (k & 1)
        t.a += k;
    else
        t.b += k;
    t.c++;
    return t;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10;
    struct pair p = {0, 0};
    struct triple t = {0, 0, 0};
    for (long k = 0; k < n; k++) {
        p = pair_step(p, k);
        t = triple_step(t, k);
    }
    printf("%ld %ld %ld %ld %ld\n", p.lo, p.hi, t.a, t.b, t.c);
    return 0;
}
