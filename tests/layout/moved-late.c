/* t-moved.sh's late case: main and a noinline `work` profiled after the
 * early inliner, and a static `twice` the early inliner takes into work
 * (looked up at cfg only), so that a moved tree's functions are fewer at
 * the late point than at cfg. */
#include <stdio.h>
#include <stdlib.h>

static int twice(int x) { return x * 2 + (x & 1); }

__attribute__((noinline)) static int work(int i)
{
    if (i % 7 == 0)
        return twice(i);
    return i - 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
    for (int i = 0; i < n; i++)
        s += work(i);
    printf("%d\n", s);
    return 0;
}
