/* Hot blocks that all map to one cache set: 12 small hot functions, each
 * followed (in source and link order) by a cold function that fills the
 * rest of a 4 KiB page, so that with -falign-functions=64 every hot
 * function starts at the same page offset: 12 lines in one 8-way set,
 * evicting each other in a cycle. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define H(n) \
    __attribute__((noinline)) void hot##n(void) { sink += n; } \
    __attribute__((noinline)) void pad##n(void) \
    { \
        __asm__ volatile(".skip 3990, 0x90"); \
        sink -= n; \
    }
H(0) H(1) H(2) H(3) H(4) H(5) H(6) H(7) H(8) H(9) H(10) H(11)

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1000;
    if (rounds < 0)
        pad0();
    for (int r = 0; r < rounds; r++) {
        hot0(); hot1(); hot2(); hot3(); hot4(); hot5();
        hot6(); hot7(); hot8(); hot9(); hot10(); hot11();
    }
    printf("rounds %d sink %lu\n", rounds, sink);
    return 0;
}
