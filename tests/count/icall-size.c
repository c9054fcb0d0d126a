/* A helper making four calls through pointers (an interpreter's dispatch
 * through a type's table), called from three functions
 * (tests/count/t-icall-size.sh).  In an all=count build each indirect call
 * gets an inline cache of its targets (pass-count.cc add_icall_cache):
 * two tests of the thread's slot, two hit counters and a runtime call;
 * the inliner must see the helper at its -O2 size all the same
 * (pass-inlsize.cc), or a program full of indirect calls (gawk's eval.c)
 * looks bigger to GCC's unit growth limit and keeps hot calls out of line. */
#include <stdio.h>

struct ops {
    long (*get)(long);
    long (*put)(long);
    long (*cmp)(long, long);
    long (*fin)(long);
};

static long dispatch(const struct ops *o, long x)
{
    long a = o->get(x);
    long b = o->put(a);
    if (o->cmp(a, b) > 0)
        return o->fin(a);
    return b;
}

static long inc(long x) { return x + 1; }
static long dbl(long x) { return 2 * x; }
static long sub(long x, long y) { return x - y; }
static long neg(long x) { return -x; }

static const struct ops add_ops = {inc, dbl, sub, neg}, mul_ops = {dbl, inc, sub, inc};
static const struct ops *volatile which[2] = {&add_ops, &mul_ops};

__attribute__((noinline)) long run_a(long x) { return dispatch(which[x & 1], x); }
__attribute__((noinline)) long run_b(long x) { return dispatch(which[(x >> 1) & 1], x) + 1; }
__attribute__((noinline)) long run_c(long x) { return dispatch(which[0], x) * 3; }

int main(void)
{
    long s = 0;
    for (long i = 0; i < 100; i++)
        s += run_a(i) + run_b(i) + run_c(i);
    printf("%ld\n", s);
    return 0;
}
