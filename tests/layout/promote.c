/* Indirect calls with a dominant target (t-promote.sh).  drive calls
 * through o->fn 10000 times: main sets it to the static twice, except
 * every 100th call goes through rare (other): twice has 9900 of the
 * 10000 calls.  far calls hidden, a static function of promote-b.c,
 * through a pointer 10000 times: the rebuild of this unit cannot name it.
 * `./prog N x` sends every call of drive to other (the fallback); with a
 * third argument cold_user runs instead of hot_user. */
#include <stdio.h>
#include <stdlib.h>

typedef long (*op_fn)(long);

static long twice(long x)
{
    return 2 * x + 1;
}

__attribute__((noinline)) long other(long x)
{
    return x - 7;
}

op_fn hidden_op(void); /* promote-b.c */

struct ops {
    op_fn fn;
};

__attribute__((noinline)) long drive(const struct ops *o, const struct ops *rare, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        const struct ops *p = i % 100 == 99 ? rare : o;
        s += p->fn(i);
    }
    return s;
}

__attribute__((noinline)) long far(op_fn f, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s ^= f(i);
    return s;
}

long hot_user(op_fn f, long n);
long cold_user(op_fn f, long n);

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000;
    struct ops a = { twice }, b = { other };
    if (argc > 2)
        a.fn = other;
    printf("%ld %ld\n", drive(&a, &b, n), far(hidden_op(), n));
    printf("%ld\n", argc > 3 ? cold_user(a.fn, n) : hot_user(a.fn, n));
    return 0;
}

/* apply's call through f is inlined into both users before IPA: only the
   copy in hot_user ran in training (cold_user is in the plan's cold tier),
   so only that copy is promoted */
__attribute__((always_inline)) static inline long apply(op_fn f, long x)
{
    return f(x);
}

__attribute__((noinline)) long hot_user(op_fn f, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += apply(f, i);
    return s;
}

__attribute__((noinline)) long cold_user(op_fn f, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s -= apply(f, i) >> 1;
    return s;
}
