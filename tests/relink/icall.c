/* A hot pair linked only through a function pointer (t-icall.sh): `drive`
 * calls `leaf` through `op`, which main sets from a table, 20000 times;
 * no relocation of drive's code names leaf.  main also calls the hot
 * `spin` (which calls `step` every 8th time) and `tail` (less hot than drive), and
 * drive calls `note` directly every 16th time.  Without
 * the training run's indirect-call targets the order has no arc
 * drive→leaf: leaf (large, the least dense) is a cluster of its own and
 * goes last, after main's cluster ending in tail; with them, C3 and
 * Ext-TSP place leaf right after drive. */
#include <stdio.h>
#include <stdlib.h>

typedef long (*op_fn)(long);

__attribute__((noinline)) long step(long x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) long spin(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += (i & 7) ? i & 3 : step(i) & 7;
    return s;
}

__attribute__((noinline)) long note(long x)
{
    return x ^ 0x55;
}

__attribute__((noinline)) long drive(op_fn op, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        s += op(i);
        if ((i & 15) == 0)
            s += note(i);
    }
    return s;
}

__attribute__((noinline)) long tail(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s ^= i * 5;
    return s;
}

__attribute__((noinline)) long pad(long x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%ld", x);
    return atol(buf) + 1;
}

/* large: a switch of many cases, so its density is the lowest */
#define C(k) case k: return x * (k + 3) - (x >> (k % 7));
__attribute__((noinline)) long leaf(long x)
{
    switch (x & 7) {
        C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7)
    }
    return 0;
}

__attribute__((noinline)) long other(long x)
{
    return x - 1;
}

static op_fn ops[] = { other, leaf };

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    op_fn op = ops[argc > 2 ? 0 : 1];
    long r = drive(op, n) + spin(4 * n) + tail(n / 4);
    if (argc > 3)
        r += pad(r);
    printf("%ld\n", r);
    return 0;
}
