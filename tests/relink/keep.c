/* The model's check (t-keep.sh): eight functions called on every round of
 * run's loop, in a 4 KiB direct-mapped cache (64 sets of one 64-byte
 * line), so that the cache model's cyclic stream is exactly what runs.
 * a1..a4 (10 lines each, aligned to 1 KiB: their own inner loop gives them
 * the most block executions) and b1..b4 (6, 6, 6 and 4 lines) in link
 * order a1 b1 a2 b2 a3 b3 a4 b4 run fill the 64 sets once: nothing
 * conflicts.  Ordered by samples (a1 a2 a3 a4 run b1 b2 b3 b4: the
 * alignment leaves gaps after each a) the b functions run past 4 KiB and
 * share their sets with a1 and a2: 15 lines reload on every round.
 * Built with -O2 -falign-functions=64 -fno-toplevel-reorder. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static volatile int inner = 4; /* not a constant: the loop stays a loop */

#define A(n) \
    __attribute__((noinline, aligned(1024))) void a##n(void) \
    { \
        for (int k = 0; k < inner; k++) \
            __asm__ volatile(".skip 560, 0x90"); \
        sink += n; \
    }
#define B(n, nops) \
    __attribute__((noinline)) void b##n(void) \
    { \
        __asm__ volatile(".skip " #nops ", 0x90"); \
        sink ^= n; \
    }
A(1) B(1, 340) A(2) B(2, 340) A(3) B(3, 340) A(4) B(4, 200)

__attribute__((noinline)) void run(int n)
{
    for (int i = 0; i < n; i++) {
        a1(); b1(); a2(); b2(); a3(); b3(); a4(); b4();
    }
}

int main(int argc, char **argv)
{
    run(argc > 1 ? atoi(argv[1]) : 1000);
    printf("sink %lu\n", sink);
    return 0;
}
