/* merge.c — combining the indicators' records of several traces
 * (common/pitrace.c, pi_trace_add_indicators, as `pmopt merge` and
 * `pmopt report` of several traces use it): sums, min of the mins, max of
 * the maxes, and a result that does not depend on the order of the
 * inputs. */
#include <string.h>

#include "unit.h"
#include "pitrace.h"

static struct pi_rec_sitestat st_a[] = {
    { .unit_id = 1, .site = 2, .kind = PI_STAT_THRESHOLD, .count = 3, .execs = 30, .sum = 300, .min = 5, .max = 50 },
    { .unit_id = 1, .site = 0, .kind = PI_STAT_CYCLES, .count = 1, .execs = 10, .sum = 100, .min = 7, .max = 20 },
    { .unit_id = 2, .site = 1, .kind = PI_STAT_TRAP, .count = UINT64_MAX - 1, .execs = 1, .sum = 0, .min = 0, .max = 0 },
};
static struct pi_rec_sitestat st_b[] = {
    { .unit_id = 1, .site = 2, .kind = PI_STAT_THRESHOLD, .count = 4, .execs = 40, .sum = 400, .min = 2, .max = 40 },
    /* measured nothing: its min of 0 is no minimum */
    { .unit_id = 1, .site = 0, .kind = PI_STAT_CYCLES, .count = 0, .execs = 0, .sum = 0, .min = 0, .max = 0 },
    { .unit_id = 0, .site = 9, .kind = PI_STAT_TRAP, .count = 1, .execs = 1, .sum = 0, .min = 0, .max = 0 },
    { .unit_id = 2, .site = 1, .kind = PI_STAT_TRAP, .count = 5, .execs = 1, .sum = 0, .min = 0, .max = 0 },
};
static uint64_t frames_a[] = { 0x401000, 0x402000 };
static struct pi_trace_event ev_a[] = {
    { { .unit_id = 1, .site = 2, .kind = PI_STAT_THRESHOLD, .value = 100, .tid = 7, .nframes = 2 }, frames_a },
};
static struct pi_trace_event ev_b[] = {
    { { .unit_id = 1, .site = 2, .kind = PI_STAT_THRESHOLD, .value = 50, .tid = 9, .nframes = 0 }, NULL },
};
static uint64_t counts_a[] = { 1, 2, 3 }, counts_b[] = { 10, 20, 30 }, counts_c[] = { 1, 1 };
static struct pi_trace_tracereg tr_a[] = { { 1, 4, 3, 1, counts_a } };
static struct pi_trace_tracereg tr_b[] = { { 1, 4, 3, 1, counts_b } };
static struct pi_trace_tracereg tr_c[] = { { 1, 4, 2, 1, counts_c } };

static void trace(struct pi_trace *t, const char *path, struct pi_rec_sitestat *st, size_t nst,
                  struct pi_trace_event *ev, size_t nev, struct pi_trace_tracereg *tr, size_t ntr)
{
    memset(t, 0, sizeof *t);
    t->path = (char *)path;
    t->hdr.flags = PI_TF_MERGED; /* frames as they are */
    t->sitestats = st, t->nsitestats = nst;
    t->events = ev, t->nevents = nev;
    t->traceregs = tr, t->ntraceregs = ntr;
}

static void merged(struct pi_trace *out, const struct pi_trace *x, const struct pi_trace *y)
{
    struct pi_err err;
    memset(out, 0, sizeof *out);
    EXPECT_EQ(0, pi_trace_add_indicators(out, x, 1, &err));
    EXPECT_EQ(0, pi_trace_add_indicators(out, y, 1, &err));
}

TEST(sitestats_add_up_by_unit_site_and_kind)
{
    struct pi_trace a, b, m;
    trace(&a, "a.pit", st_a, 3, NULL, 0, NULL, 0);
    trace(&b, "b.pit", st_b, 4, NULL, 0, NULL, 0);
    merged(&m, &a, &b);
    EXPECT_EQ(4, m.nsitestats);
    /* sorted by (unit, site, kind) */
    EXPECT_EQ(0, m.sitestats[0].unit_id); EXPECT_EQ(9, m.sitestats[0].site);
    const struct pi_rec_sitestat *c = &m.sitestats[1], *t = &m.sitestats[2], *s = &m.sitestats[3];
    EXPECT_EQ(PI_STAT_CYCLES, c->kind);
    EXPECT_EQ(1, c->count); EXPECT_EQ(10, c->execs); EXPECT_EQ(100, c->sum);
    EXPECT_EQ(7, c->min); EXPECT_EQ(20, c->max);
    EXPECT_EQ(PI_STAT_THRESHOLD, t->kind);
    EXPECT_EQ(7, t->count); EXPECT_EQ(70, t->execs); EXPECT_EQ(700, t->sum);
    EXPECT_EQ(2, t->min); EXPECT_EQ(50, t->max);
    EXPECT_EQ(UINT64_MAX, s->count); /* saturated */
    pi_trace_free(&m);
}

TEST(the_order_of_the_inputs_does_not_matter)
{
    struct pi_trace a, b, ab, ba;
    trace(&a, "a.pit", st_a, 3, ev_a, 1, tr_a, 1);
    trace(&b, "b.pit", st_b, 4, ev_b, 1, tr_b, 1);
    merged(&ab, &a, &b);
    merged(&ba, &b, &a);
    EXPECT_EQ(ab.nsitestats, ba.nsitestats);
    EXPECT_TRUE(!memcmp(ab.sitestats, ba.sitestats, ab.nsitestats * sizeof *ab.sitestats));
    EXPECT_EQ(2, ab.nevents); EXPECT_EQ(2, ba.nevents);
    for (int i = 0; i < 2; i++) {
        EXPECT_TRUE(!memcmp(&ab.events[i].ev, &ba.events[i].ev, sizeof ab.events[i].ev));
    }
    EXPECT_EQ(50, ab.events[0].ev.value); /* events sorted by their contents */
    EXPECT_EQ(0x402000, ab.events[1].frames[1]);
    EXPECT_EQ(1, ab.ntraceregs);
    EXPECT_EQ(11, ab.traceregs[0].counts[0]); EXPECT_EQ(33, ab.traceregs[0].counts[2]);
    EXPECT_EQ(33, ba.traceregs[0].counts[2]);
    pi_trace_free(&ab);
    pi_trace_free(&ba);
}

TEST(traceregs_of_different_sizes_are_refused)
{
    struct pi_trace a, c, m;
    struct pi_err err;
    trace(&a, "a.pit", NULL, 0, NULL, 0, tr_a, 1);
    trace(&c, "c.pit", NULL, 0, NULL, 0, tr_c, 1);
    memset(&m, 0, sizeof m);
    EXPECT_EQ(0, pi_trace_add_indicators(&m, &a, 1, &err));
    EXPECT_EQ((unsigned long long)-1, pi_trace_add_indicators(&m, &c, 1, &err));
    EXPECT_TRUE(strstr(err.msg, "c.pit") != NULL);
    pi_trace_free(&m);
}
