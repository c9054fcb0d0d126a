/* get() has a fast path and a slow one joined at its return: gcc -O2
 * splits it (ipa-split: partial inlining), inlining the test into its
 * callers and calling the slow part as get.part.0.  An all=count build
 * must split it the same way: the return block stays a bare `return`
 * (gcc-plugin/return-site.cc), its counter on the edges into it
 * (tests/count/t-partial-inline.sh). */
#include <stdio.h>

struct obj {
    int n;
    int *p;
};

__attribute__((noinline)) int helper(struct obj *o, int k)
{
    return (k + o->n) % 97;
}

int get(struct obj *o, int k)                // expect-count: 30
{
    if (__builtin_expect(o->n > k, 1))       // expect-count: 30
        return o->p[k];                      // expect-count: 24
    int r = helper(o, k);                    // expect-count: 6
    r += helper(o, r);
    r += helper(o, r * 2);
    r += helper(o, r * 3);
    r += helper(o, r * 5);
    if (r > 60)
        r = helper(o, 7);                    // expect-count: 6
    return r;
}                                            // expect-count: none (as gcov: the return has no line)

__attribute__((noinline)) int use1(struct obj *o, int a) { return get(o, a); }
__attribute__((noinline)) int use2(struct obj *o, int a) { return get(o, a + 1) * 3; }
__attribute__((noinline)) int use3(struct obj *o, int a) { return get(o, a + 2) * 5; }

int main(void)
{
    int v[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
    struct obj o = {9, v};
    long s = 0;
    for (int k = 0; k < 10; k++)
        s += use1(&o, k) + use2(&o, k) + use3(&o, k);
    printf("%ld\n", s);
    return 0;
}
