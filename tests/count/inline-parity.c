/* A small function with five tiny conditional blocks, called from four
 * functions: gcc -O2 inlines it into all four.  Counters (~4 size units
 * per block) would make it look 3-4 times bigger to the inliner; the
 * plugin takes them out of GCC's function summaries (pass-inlsize.cc), so
 * an all=count build inlines it too (tests/count/t-inline-parity.sh). */
#include <stdio.h>

struct mem {
    int flags;
    int n;
    long i;
};

static long pick(struct mem *m)
{
    if (m->flags & 1)
        m->n += 1;
    if (m->flags & 2)
        m->n += 2;
    if (m->flags & 4)
        m->n += 3;
    if (m->flags & 8)
        m->n += 4;
    if (m->flags & 16)
        m->n += 5;
    return m->i;
}

__attribute__((noinline)) long get_a(struct mem *c) { return pick(c) + 1; }
__attribute__((noinline)) long get_b(struct mem *c) { return pick(c) + 2; }
__attribute__((noinline)) long get_c(struct mem *c) { return pick(c) + 3; }
__attribute__((noinline)) long get_d(struct mem *c) { return pick(c) + 4; }

int main(void)
{
    struct mem c = {0, 0, 1};
    long s = 0;
    for (int k = 0; k < 10; k++) {
        c.flags = k;
        s += get_a(&c) + get_b(&c) + get_c(&c) + get_d(&c);
    }
    printf("%ld %d\n", s, c.n);
    return 0;
}
