/* order.c — the function orders of optimizer/model/order.c: C3, Ext-TSP and
 * CDSort on call graphs small enough to work out by hand (docs/layout.md
 * "Function order"), and the Ext-TSP score of a given order. */
#include "unit.h"
#include "order.h"

enum { A, B, C, D };

/* A calls B 400 times and C 10 times; D never runs. */
static const struct ord_node star[] = { { 100, 1000 }, { 100, 500 }, { 100, 10 }, { 100, 0 } };
static const struct ord_arc star_arcs[] = { { A, B, 400 }, { A, C, 10 } };

TEST(c3_joins_callees_to_their_heaviest_caller)
{
    uint32_t out[4];
    size_t n = ord_compute(ORD_C3, star, 4, star_arcs, 2, out);
    /* B (hotter) joins A's cluster first, then C; D never ran: left out */
    EXPECT_ORDER(out, n, A, B, C);
}

TEST(c3_stops_at_a_page)
{
    /* A and B together would be 5000 bytes: more than a page */
    const struct ord_node nodes[] = { { 3000, 1000 }, { 2000, 500 }, { 100, 700 } };
    const struct ord_arc arcs[] = { { A, B, 400 } };
    uint32_t out[3];
    size_t n = ord_compute(ORD_C3, nodes, 3, arcs, 1, out);
    /* three clusters, densest first: C (7/byte), B (0.25), A (0.33) */
    EXPECT_ORDER(out, n, C, A, B);
}

TEST(c3_keeps_dense_code_apart_from_code_that_dilutes_it)
{
    /* A: 10 bytes run 100000 times (10000 a byte); C: 4000 bytes run once.
     * Merged: 100001 / 4010 = 24.9 a byte, A's density over 8 times that
     * (hfsort's limit): not merged, so B (5 a byte) comes between them. */
    const struct ord_node nodes[] = { { 10, 100000 }, { 100, 500 }, { 4000, 1 } };
    const struct ord_arc arcs[] = { { A, C, 1 } };
    uint32_t out[3];
    size_t n = ord_compute(ORD_C3, nodes, 3, arcs, 1, out);
    EXPECT_ORDER(out, n, A, B, C);
}

/* A calls C 100 times, C calls B once: all three equally hot. */
static const struct ord_node line3[] = { { 100, 100 }, { 100, 100 }, { 100, 100 } };
static const struct ord_arc line3_arcs[] = { { A, C, 100 }, { C, B, 1 } };

TEST(exttsp_puts_each_callee_after_its_caller)
{
    uint32_t out[3];
    size_t n = ord_compute(ORD_EXTTSP, line3, 3, line3_arcs, 2, out);
    /* A then C gains 100 * (1 - 50/4096) (C starts 50 bytes after A's
     * middle); then AC then B gains 1 * (1 - 50/4096) */
    EXPECT_ORDER(out, n, A, C, B);
}

TEST(exttsp_score_of_an_order)
{
    const uint32_t acb[] = { A, C, B }, abc[] = { A, B, C };
    /* A C B: both callees start 50 bytes after their caller's middle */
    EXPECT_NEAR(100 * (1 - 50.0 / 4096) + 1 * (1 - 50.0 / 4096),
                ord_exttsp_score(line3, 3, line3_arcs, 2, acb, 3), 1e-9);
    /* A B C: C starts 150 bytes after A's middle, B 150 bytes before C's */
    EXPECT_NEAR(100 * (1 - 150.0 / 4096) + 1 * (1 - 150.0 / 4096),
                ord_exttsp_score(line3, 3, line3_arcs, 2, abc, 3), 1e-9);
    /* a node left out of the order is far away: its arcs score nothing */
    EXPECT_NEAR(0, ord_exttsp_score(line3, 3, line3_arcs, 2, acb, 1), 1e-9);
}

TEST(cdsort_puts_a_callee_after_its_caller)
{
    /* B calls A: B then A, A starts 50 bytes after B's middle, 500 *
     * 50^-0.25; A then B, 150 bytes apart, less; both more than the 500
     * calls at the hot code's 200 bytes; each chain's page holds all
     * samples: no frequency term */
    const struct ord_node nodes[] = { { 100, 1000 }, { 100, 1000 } };
    const struct ord_arc arcs[] = { { B, A, 500 } };
    uint32_t out[2];
    size_t n = ord_compute(ORD_CDSORT, nodes, 2, arcs, 1, out);
    EXPECT_ORDER(out, n, B, A);
}

/* A (10000 bytes, 1 sample a byte) calls B (100 bytes, 0.5 a byte) 40
 * times; C (0.8 a byte) calls nothing. */
static const struct ord_node far3[] = { { 10000, 10000 }, { 100, 50 }, { 100, 80 } };
static const struct ord_arc far3_arcs[] = { { A, B, 40 } };

TEST(cdsort_joins_calls_beyond_exttsp_reach)
{
    uint32_t out[3];
    /* Ext-TSP: B starts 5000 bytes after A's middle, beyond its 4096: no
     * merge, the three by density */
    size_t n = ord_compute(ORD_EXTTSP, far3, 3, far3_arcs, 1, out);
    EXPECT_ORDER(out, n, A, C, B);
    /* CDSort: 40 * 5000^-0.25 = 4.757 against 40 * 10200^-0.25 = 3.980
     * (the hot code's size apart), and the merge saves misses: A alone
     * 10000 * (1 - 2048/10130)^16 = 269.4, B 50 * (1 - 1024/10130)^16 =
     * 9.1, A then B 10050 * (1 - 0.995 * 2048/10130)^16 = 275.9; so AB
     * (0.995 a byte) then C */
    n = ord_compute(ORD_CDSORT, far3, 3, far3_arcs, 1, out);
    EXPECT_ORDER(out, n, A, B, C);
}

TEST(cdsort_counts_a_function_by_its_calls_too)
{
    /* B has no samples but is called 30 times: it is ordered, after its
     * caller */
    const struct ord_node nodes[] = { { 100, 100 }, { 100, 0 } };
    const struct ord_arc arcs[] = { { A, B, 30 } };
    uint32_t out[2];
    size_t n = ord_compute(ORD_CDSORT, nodes, 2, arcs, 1, out);
    EXPECT_ORDER(out, n, A, B);
}

TEST(none_orders_by_samples_and_leaves_out_what_never_ran)
{
    uint32_t out[4];
    size_t n = ord_compute(ORD_NONE, star, 4, star_arcs, 2, out);
    EXPECT_ORDER(out, n, A, B, C);
}

TEST(orders_are_named)
{
    EXPECT_EQ(ORD_C3, ord_parse("hfsort"));
    EXPECT_EQ(ORD_EXTTSP, ord_parse("ext-tsp"));
    EXPECT_EQ(ORD_CDSORT, ord_parse("cdsort"));
    EXPECT_EQ(0, strcmp("cdsort", ord_name(ORD_CDSORT)));
    EXPECT_EQ((unsigned long long)-1, ord_parse("random"));
}
