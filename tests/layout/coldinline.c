/* cold-inline= (tests/layout/t-coldinline.sh), trained with no argument:
   put() is called from fill()'s loop (1000 times), twice from head() (once
   each), and from three blocks that never run in training: fill() when neg
   is set, head() when n < 0, main() with three arguments.  -O2 inlines put
   everywhere; report() runs only when neg is set. */
#include <stdio.h>
#include <stdlib.h>

struct buf {
    int n, cap;
    int *v;
};

__attribute__((noinline)) static void grow(struct buf *b)
{
    b->cap = b->cap ? 2 * b->cap : 8;
    b->v = realloc(b->v, (size_t)b->cap * sizeof *b->v);
    if (!b->v)
        abort();
}

static void put(struct buf *b, int x)
{
    if (b->n == b->cap)
        grow(b);
    b->v[b->n++] = x;
}

__attribute__((noinline)) static int report(int s)
{
    return s / 7 + s % 13;
}

__attribute__((noinline)) int head(struct buf *b, int n)
{
    put(b, n);
    put(b, n + 1);
    if (n < 0)
        put(b, 0);
    return b->n;
}

__attribute__((noinline)) int fill(struct buf *b, int n, int neg)
{
    for (int i = 0; i < n; i++)
        put(b, i * 3);
    if (neg) {
        put(b, -n);
        return report(b->n);
    }
    return b->n;
}

int main(int argc, char **argv)
{
    struct buf b = {0, 0, NULL};
    int n = argc > 1 ? atoi(argv[1]) : 1000, neg = argc > 2;
    int s = fill(&b, n, neg) + head(&b, n);
    if (argc > 3)
        put(&b, s);
    long t = 0;
    for (int i = 0; i < b.n; i++)
        t += b.v[i];
    printf("%d %ld\n", s, t);
    free(b.v);
    return 0;
}
