/* names.c — a linkage name's function, as optimizer/model/names.c reads it:
 * GCC's clone suffixes (.isra.0, .constprop.1, .part.0, .cold,
 * .lto_priv.0) and perfinst's counting copies (.count.0) name the function
 * they were made from; GCC's outlined bodies (an OpenMP region's
 * main._omp_fn.0, a task's ._omp_cpyfn.N, -ftree-parallelize-loops'
 * ._loopfn.N, a C++ coroutine's frame .actor and .destroy) are functions
 * of their own; an unnamed class's `._anon_N` in a mangled name is part of
 * it. */
#include "unit.h"
#include "names.h"

/* the base of LINKAGE, as a string */
static const char *base(const char *linkage)
{
    static char buf[256];
    size_t n = pm_fn_base_len(linkage);
    memcpy(buf, linkage, n);
    buf[n] = 0;
    return buf;
}

TEST(clone_suffixes_name_their_origin)
{
    EXPECT_STR(base("f"), "f");
    EXPECT_STR(base("f.isra.0"), "f");
    EXPECT_STR(base("f.constprop.1.isra.0"), "f");
    EXPECT_STR(base("f.part.0.cold"), "f");
    EXPECT_STR(base("f.count.0"), "f");
    EXPECT_STR(base("_ZN1A1fEv.cold"), "_ZN1A1fEv");
}

TEST(outlined_bodies_are_functions_of_their_own)
{
    EXPECT_STR(base("main._omp_fn.0"), "main._omp_fn.0");
    EXPECT_STR(base("main._omp_fn.12"), "main._omp_fn.12");
    EXPECT_STR(base("main._omp_fn.0.cold"), "main._omp_fn.0");
    EXPECT_STR(base("main._omp_fn.1.count.0"), "main._omp_fn.1");
    EXPECT_STR(base("work._omp_cpyfn.3"), "work._omp_cpyfn.3");
    EXPECT_STR(base("f._loopfn.0"), "f._loopfn.0");
    EXPECT_STR(base("_Z8count_toPZ8count_toiE18_Z8count_toi.Frame.actor"),
               "_Z8count_toPZ8count_toiE18_Z8count_toi.Frame.actor");
    EXPECT_STR(base("_Z1fPZ1fvE8_Z1fv.Frame.destroy.cold"), "_Z1fPZ1fvE8_Z1fv.Frame.destroy");
    EXPECT_STR(base("main._omp_fn"), "main"); /* (no number: a clone suffix as any) */
}

TEST(an_unnamed_class_is_part_of_the_name)
{
    /* GCC's `._anon_N` for an unnamed struct (HarfBuzz's hb_max, hb_invoke):
       operator()<int> and operator()<long> of one, not "_ZNK8" both */
    EXPECT_STR(base("_ZNK8._anon_0clIiEET_S1_S1_"), "_ZNK8._anon_0clIiEET_S1_S1_");
    EXPECT_STR(base("_ZNK8._anon_0clIlEET_S1_S1_.constprop.0"), "_ZNK8._anon_0clIlEET_S1_S1_");
    EXPECT_STR(base("_ZNK10._anon_167clIRKjS3_EEDTqugtfp_fp0_fp_fp0_EOT_OT0_.isra.0.cold"),
               "_ZNK10._anon_167clIRKjS3_EEDTqugtfp_fp0_fp_fp0_EOT_OT0_");
    EXPECT_STR(base("f._anon_0"), "f"); /* (not a mangled name: a suffix as any) */
}
