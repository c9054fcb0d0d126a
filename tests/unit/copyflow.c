/* copyflow.c — the bounds of optimizer/model/copyflow.c (cf_fallthrough): how
 * much of each edge falls through in a layout where blocks have several
 * copies (docs/layout.md "Copied blocks"), on functions laid out by hand.
 * No code is read (text NULL): a copy leaves by falling through or by an
 * unknown way. */
#include <string.h>

#include "unit.h"
#include "profile.h"

/* A function E -> X -> Y (sites 0, 1, 2), each run 10 times. */
static struct pi_func fn = { .first_site = 0, .nsites = 3 };
static struct pi_site sites[3] = {
    { .kind = PI_SITE_BLOCK, .succ_first = 0, .nsucc = 1 },
    { .kind = PI_SITE_BLOCK, .succ_first = 1, .nsucc = 1 },
    { .kind = PI_SITE_BLOCK, .succ_first = 2, .nsucc = 0 },
};
static uint32_t succs[2] = { 1, 2 };
static char strtab[1];
static struct pi_unit_view unit = {
    .hdr = { .unit_id = 1, .nfuncs = 1, .nsites = 3, .nsuccs = 2, .strtab_size = 1 },
    .funcs = &fn, .sites = sites, .succs = succs, .strtab = strtab,
};
static uint64_t count[3] = { 10, 10, 10 }, edge[2] = { 10, 10 };
static uint32_t eoff[4] = { 0, 1, 2, 2 };
static const struct fprof prof = { .u = &unit, .func = 0, .first = 0, .nblocks = 3, .count = count,
                                   .eoff = eoff, .edge = edge, .nedges = 2, .weight = 30 };

static struct pi_range range(uint64_t addr, uint32_t site)
{
    return (struct pi_range){ .addr = addr, .unit_id = 1, .site = site, .length = 16, .ninsns = 4 };
}

TEST(one_copy_each_is_exact)
{
    /* E, X, Y one after the other: both edges fall through */
    struct pi_range r[] = { range(0x100, 0), range(0x110, 1), range(0x120, 2) };
    struct pi_meta m = { .nranges = 3, .ranges = r };
    uint32_t rfirst[] = { 0, 1, 2, 3 }, rix[] = { 0, 1, 2 };
    uint64_t lo[2], hi[2], runlo[3], runhi[3];
    EXPECT_EQ(0, cf_fallthrough(&m, &prof, rfirst, rix, NULL, lo, hi, runlo, runhi));
    EXPECT_EQ(10, lo[0]); EXPECT_EQ(10, hi[0]);
    EXPECT_EQ(10, lo[1]); EXPECT_EQ(10, hi[1]);
}

TEST(a_gap_is_no_fall_through)
{
    /* Y 16 bytes of padding after X: more than PF_PAD_MAX, so X -> Y is
     * taken; 15 bytes would still fall through */
    struct pi_range r[] = { range(0x100, 0), range(0x110, 1), range(0x130, 2) };
    struct pi_meta m = { .nranges = 3, .ranges = r };
    uint32_t rfirst[] = { 0, 1, 2, 3 }, rix[] = { 0, 1, 2 };
    uint64_t lo[2], hi[2];
    EXPECT_EQ(0, cf_fallthrough(&m, &prof, rfirst, rix, NULL, lo, hi, NULL, NULL));
    EXPECT_EQ(10, lo[0]); EXPECT_EQ(10, hi[0]);
    EXPECT_EQ(0, lo[1]); EXPECT_EQ(0, hi[1]);
    r[2].addr = 0x120 + 15;
    EXPECT_EQ(0, cf_fallthrough(&m, &prof, rfirst, rix, NULL, lo, hi, NULL, NULL));
    EXPECT_EQ(10, lo[1]); EXPECT_EQ(10, hi[1]);
}

TEST(the_copy_nothing_leads_into_never_runs)
{
    /* X and Y were duplicated: X1 Y1 right after E, X2 Y2 elsewhere.  E
     * falls into X1 and nothing leads into X2, so X1 ran all 10 times,
     * X2 never, and X -> Y fell through all 10 times (X1 into Y1). */
    struct pi_range r[] = { range(0x100, 0), range(0x110, 1), range(0x120, 2), range(0x200, 1),
                            range(0x210, 2) };
    struct pi_meta m = { .nranges = 5, .ranges = r };
    uint32_t rfirst[] = { 0, 1, 3, 5 }, rix[] = { 0, 1, 3, 2, 4 };
    uint64_t lo[2], hi[2], runlo[5], runhi[5];
    EXPECT_EQ(0, cf_fallthrough(&m, &prof, rfirst, rix, NULL, lo, hi, runlo, runhi));
    EXPECT_EQ(10, lo[0]); EXPECT_EQ(10, hi[0]);
    EXPECT_EQ(10, lo[1]); EXPECT_EQ(10, hi[1]);
    const uint64_t runs[] = { 10, 10, 0, 10, 0 }; /* E, X1, X2, Y1, Y2 */
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(runs[i], runlo[i]);
        EXPECT_EQ(runs[i], runhi[i]);
    }
}

TEST(copies_of_the_entry_leave_the_flow_open)
{
    /* E itself has two copies, each falling into a copy of X: the function
     * is entered at either, so which ran cannot be told.  The bounds hold
     * the truth (all 10 fell through) without pinning it. */
    struct pi_range r[] = { range(0x100, 0), range(0x110, 1), range(0x200, 0), range(0x210, 1),
                            range(0x300, 2) };
    struct pi_meta m = { .nranges = 5, .ranges = r };
    uint32_t rfirst[] = { 0, 2, 4, 5 }, rix[] = { 0, 2, 1, 3, 4 };
    uint64_t lo[2], hi[2], runlo[5], runhi[5];
    EXPECT_EQ(0, cf_fallthrough(&m, &prof, rfirst, rix, NULL, lo, hi, runlo, runhi));
    EXPECT_TRUE(lo[0] <= 10 && hi[0] == 10);
    EXPECT_EQ(0, lo[0]);
    for (int i = 0; i < 2; i++) { /* E1, E2 */
        EXPECT_EQ(0, runlo[i]);
        EXPECT_EQ(10, runhi[i]);
    }
    EXPECT_EQ(0, lo[1]); EXPECT_EQ(0, hi[1]); /* Y is far from both copies of X */
}
