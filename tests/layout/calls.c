/* Call arcs from call sites (t-calls.sh): direct calls in a loop and under
 * a branch, and an indirect call. */
#include <stdio.h>

__attribute__((noinline)) static int sq(int x) { return x * x; }
__attribute__((noinline)) static int inc(int x) { return x + 1; }

int main(void)
{
    int (*volatile fp)(int) = inc;
    long s = 0;
    for (int i = 0; i < 100; i++) {
        s += sq(i);
        if (i % 10 == 0)
            s += inc(i);
        s += fp(i);
    }
    printf("%ld\n", s);
    return 0;
}
