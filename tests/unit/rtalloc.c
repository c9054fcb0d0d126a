/* rtalloc.c — the runtime's own allocator (runtime/rtalloc.c, compiled in
 * here): calloc clears a block that was handed out before (from its size
 * class's free list) and gives zeroes straight from a fresh mapping without
 * clearing it again (BusyBox's 558 units cleared 345 KB of new pages in
 * every process). */
#include "../../runtime/rtalloc.c"

#include "unit.h"

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

TEST(calloc_of_fresh_memory_is_zero)
{
    for (size_t n = 1; n <= 8192; n = n * 3 + 1) {
        unsigned char *p = pi_rt_calloc(n, 1);
        EXPECT_EQ(1, p != NULL);
        EXPECT_EQ(1, all_zero(p, n));
        memset(p, 0xa5, n); /* (left for the next test to find, were it reused) */
    }
}

TEST(calloc_of_a_freed_block_is_cleared)
{
    for (size_t n = 16; n <= 4096; n *= 2) {
        unsigned char *p = pi_rt_malloc(n);
        memset(p, 0xa5, n);
        pi_rt_free(p);
        unsigned char *q = pi_rt_calloc(n / 8, 8); /* the same class: the same block */
        EXPECT_EQ((uintptr_t)p, (uintptr_t)q);
        EXPECT_EQ(1, all_zero(q, n));
        pi_rt_free(q);
    }
    /* a large block has a mapping of its own: new each time */
    unsigned char *p = pi_rt_malloc(100000);
    memset(p, 0xa5, 100000);
    pi_rt_free(p);
    unsigned char *q = pi_rt_calloc(100000, 1);
    EXPECT_EQ(1, all_zero(q, 100000));
    pi_rt_free(q);
}
