/* count-at=late (t-count-late.sh): inlined bodies the early optimisations
 * leave no statement of: the second `at` of `sub`, whose address FRE
 * merged with the first's, and the second `peek`, whose load it merged
 * with the first's (as {fmt}'s `bigint::subtract_bigits` does with its two
 * `(*this)[index]`).  Each still runs once per call; with -g its inline
 * entry marker is kept until the count pass (pass-count.cc,
 * keep_inlined), and every function's entries must be count-at=cfg's.
 * `./late-merged N`. */
#include <stdio.h>
#include <stdlib.h>

struct big {
    unsigned v[64];
    int n;
};

static inline unsigned *at(struct big *b, int i) { return &b->v[i & 63]; }
static inline unsigned peek(const struct big *b) { return b->v[0]; }

__attribute__((noinline)) void sub(struct big *b, int i, unsigned o)
{
    unsigned r = *at(b, i) - o;
    *at(b, i) = r + peek(b) + peek(b);
}

int main(int argc, char **argv)
{
    static struct big b;
    int n = argc > 1 ? atoi(argv[1]) : 20;
    long s = 0;
    for (int i = 0; i < n; i++) {
        sub(&b, i, (unsigned)i * 7u);
        s += b.v[i & 63];
    }
    for (int i = 0; i < 64; i++)
        s += b.v[i];
    printf("%ld\n", s);
    return 0;
}
