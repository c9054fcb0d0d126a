/* count-at=late (t-count-late.sh): helpers the early inliner puts into
 * their callers before the count pass runs.  Each function's entries must
 * be what count-at=cfg (before inlining, every function counted on its own
 * entry block) gives, and so must each line's count.  `./late N`. */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

static inline int sq(int x) { return x * x; }           /* inlined everywhere */

static int sum_to(int n)                                /* inlined everywhere, a loop */
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i ^ sink;
    return s;
}

static inline int outer(int x) { return sum_to(x & 3) + sq(x); } /* nested */

int twice(int x)                                        /* inlined, and called */
{
    sink += x;
    return 2 * x;
}

__attribute__((noinline)) int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += sq(i) % 7;
        if (i % 3 == 0)
            s += outer(i + 1);
        if (i & 1)
            s += twice(i);
    }
    return s;
}

int main(int argc, char **argv)
{
    int (*volatile tp)(int) = twice;
    int n = argc > 1 ? atoi(argv[1]) : 20;
    int s = work(n) + tp(n) + sum_to(n);
    printf("%d\n", s);
    return 0;
}
