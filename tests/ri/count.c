/* Sample units with known counts: tick() is one block (one unit a call),
 * both() one block that is also a directed sample point. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

#pragma perfinst sample(every=7)
__attribute__((noinline)) int tick(int x) { return x + 1; }

#pragma perfinst sample(every=7) sample(directed)
__attribute__((noinline)) int both(int x) { return x * 2; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    const char *which = argc > 2 ? argv[2] : "tick";
    volatile int s = 0;
    for (int i = 0; i < n; i++)
        s += which[0] == 't' ? tick(i) : both(i);
    printf("%d\n", s);
    return 0;
}
