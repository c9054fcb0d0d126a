/* count-at=late (t-count-late.sh): an always-inline body that GCC's early
 * ipa-split cuts in two, as lz4's LZ4HC_compress_generic_internal in
 * LZ4HC_compress_generic_noDictCtx: wrap's header keeps body's size test,
 * wrap.part.0 the rest, and the early inliner puts the header into guard
 * and guard into main.  body's entries are counted in the header's copies
 * (not again in the part); where a constant folded the test away (main's
 * loop, n = 16) the copy calls the part, and that call counts them.
 * `./late-split BIG SMALL`: BIG over the limit, SMALL under it. */
#include <stdio.h>
#include <stdlib.h>

struct ctx {
    int end, dirty;
};
static const int table[4] = {3, 5, 7, 9};

static inline __attribute__((always_inline)) int body(struct ctx *c, const int *a, int n, int level)
{
    if ((unsigned)n > 1000u)
        return 0;
    c->end += n;
    if (level < 1)
        level = 2;
    {
        int k = table[level & 3];
        int r = 0;
        for (int i = 0; i < n; i++)
            r += a[i & 15] * k;
        if (r <= 0)
            c->dirty = 1;
        return r;
    }
}

int wrap(struct ctx *c, const int *a, int n, int level) { return body(c, a, n, level); }

int guard(struct ctx *c, const int *a, int n, int level)
{
    if (c->dirty)
        return -1;
    return wrap(c, a, n, level);
}

int main(int argc, char **argv)
{
    int a[16];
    struct ctx c = {0, 0};
    int big = argc > 1 ? atoi(argv[1]) : 5000, small = argc > 2 ? atoi(argv[2]) : 40;
    for (int i = 0; i < 16; i++)
        a[i] = i + 1;
    long t = 0;
    for (int k = 0; k < 5; k++)
        t += guard(&c, a, 16, k);
    t += guard(&c, a, big, 1);
    t += guard(&c, a, small, 2) + guard(&c, a, small + 1, 3);
    printf("%ld %d\n", t, c.end);
    return 0;
}
