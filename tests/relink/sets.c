/* Set pressure (t-sets.sh): 12 hot functions of exactly 4 KiB (with
 * -falign-functions=64) whose only executed code is near their start, and
 * 12 small functions that run once.  Laid out one after the other, the 12
 * hot first lines share one cache set (8 ways: they evict each other in a
 * cycle); a small function between two big ones moves the next big one's
 * hot line to another set. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define BIG(n) \
    __attribute__((noinline)) void big##n(int cold) \
    { \
        sink += n; \
        if (cold) \
            __asm__ volatile(".skip 4040, 0x90"); \
    }
#define SMALL(n) \
    __attribute__((noinline)) void small##n(void) { sink ^= n; }
BIG(0) BIG(1) BIG(2) BIG(3) BIG(4) BIG(5) BIG(6) BIG(7) BIG(8) BIG(9) BIG(10) BIG(11)
SMALL(0) SMALL(1) SMALL(2) SMALL(3) SMALL(4) SMALL(5) SMALL(6) SMALL(7) SMALL(8) SMALL(9)
SMALL(10) SMALL(11)

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1000, cold = argc > 2;
    small0(); small1(); small2(); small3(); small4(); small5();
    small6(); small7(); small8(); small9(); small10(); small11();
    for (int r = 0; r < rounds; r++) {
        big0(cold); big1(cold); big2(cold); big3(cold); big4(cold); big5(cold);
        big6(cold); big7(cold); big8(cold); big9(cold); big10(cold); big11(cold);
    }
    printf("rounds %d sink %lu\n", rounds, sink);
    return 0;
}
