/* sharing.c — the coherence model that judges reloads as true or false
 * sharing (runtime/sharing-model.h, used by runtime/sharing.c): lines
 * built by hand, accesses by two or three threads. */
#include <string.h>

#include "unit.h"
#include "sharing-model.h"

#define W0 0x00000000000000ffull /* bytes 0..7: word 0 of the line */
#define W1 0x000000000000ff00ull /* bytes 8..15 */

/* One access by thread id; returns its verdict. */
static enum sh_reload touch(struct sh_ext *e, uint32_t id, uint64_t bytes, int kind)
{
    return sh_coherence(e, sh_entry(e, id), bytes, kind);
}

/* A line nobody touched yet. */
static void empty(struct sh_ext *e)
{
    memset(e, 0, sizeof *e);
    sh_ext_init(e);
}

TEST(first_touches_are_no_reloads)
{
    struct sh_ext e;
    empty(&e);
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, 1, W0, SH_WRITE));
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, 2, W0, 0));
    EXPECT_EQ(2, e.n);
}

TEST(a_thread_rereading_its_valid_copy_is_no_reload)
{
    struct sh_ext e;
    empty(&e);
    touch(&e, 1, W0, 0);
    touch(&e, 2, W1, 0);
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, 1, W0, 0)); /* reads keep the other copies valid */
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, 1, W0, SH_WRITE));
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, 1, W0, 0)); /* its own write left its copy valid */
}

TEST(reading_what_another_thread_wrote_is_true_sharing)
{
    struct sh_ext e;
    empty(&e);
    touch(&e, 1, W0, SH_WRITE);
    touch(&e, 2, W0, 0);
    touch(&e, 1, W0, SH_WRITE);
    EXPECT_EQ(SH_TRUE, touch(&e, 2, W0, 0));
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, 2, W0, 0));
}

TEST(another_word_of_the_line_is_false_sharing)
{
    struct sh_ext e;
    empty(&e);
    touch(&e, 1, W0, SH_WRITE);
    touch(&e, 2, W1, SH_WRITE);
    EXPECT_EQ(SH_FALSE, touch(&e, 1, W0, SH_WRITE)); /* 2 wrote only W1 */
    EXPECT_EQ(SH_FALSE, touch(&e, 2, W1, SH_RMW));
}

TEST(an_access_overlapping_the_written_bytes_is_true)
{
    struct sh_ext e;
    empty(&e);
    touch(&e, 1, W0 | W1, 0);
    touch(&e, 2, W1, SH_WRITE);
    EXPECT_EQ(SH_TRUE, touch(&e, 1, W0 | W1, 0)); /* a 16-byte read covering W1 */
}

TEST(what_was_pending_is_forgotten_after_the_reload)
{
    struct sh_ext e;
    empty(&e);
    touch(&e, 1, W0, 0);
    touch(&e, 2, W0, SH_WRITE);
    EXPECT_EQ(SH_TRUE, touch(&e, 1, W0, 0));
    touch(&e, 2, W1, SH_WRITE);                   /* now only W1 is new to 1 */
    EXPECT_EQ(SH_FALSE, touch(&e, 1, W0, 0));
}

TEST(a_write_invalidates_every_other_copy)
{
    struct sh_ext e;
    empty(&e);
    touch(&e, 1, W0, 0);
    touch(&e, 2, W0, 0);
    touch(&e, 3, W1, SH_WRITE);
    EXPECT_EQ(0, e.t[0].valid);
    EXPECT_EQ(0, e.t[1].valid);
    EXPECT_EQ(1, e.t[2].valid);
    EXPECT_EQ(1, e.written);
    EXPECT_EQ(SH_FALSE, touch(&e, 1, W0, 0));
    EXPECT_EQ(SH_FALSE, touch(&e, 2, W0, 0));
}

TEST(a_full_line_asks_for_room_and_keeps_every_thread)
{
    struct sh_ext e;
    empty(&e);
    for (uint32_t id = 1; id <= SH_TE_INLINE; id++)
        touch(&e, id, W0, 0);
    EXPECT_EQ(SH_TE_INLINE, e.n);
    EXPECT_TRUE(sh_entry(&e, SH_TE_INLINE + 1) == NULL); /* full: the caller grows it */
    struct sh_te more[2 * SH_TE_INLINE];
    memset(more, 0, sizeof more);
    memcpy(more, e.t, e.n * sizeof *more);
    e.t = more;
    e.cap = 2 * SH_TE_INLINE;
    EXPECT_EQ(SH_NO_RELOAD, touch(&e, SH_TE_INLINE + 1, W1, SH_WRITE));
    EXPECT_EQ(SH_TE_INLINE + 1, e.n);
    EXPECT_EQ(SH_FALSE, touch(&e, 1, W0, 0)); /* the fifth thread's write reached the first */
    EXPECT_TRUE(sh_entry(&e, 1000) != NULL && e.t[e.n - 1].num == 1000); /* thread numbers past 255 */
}
