/* order.h — function (and data object) ordering by call-graph affinity.
 *
 * The interface is the weighted call graph and nothing else: nodes with a
 * size in bytes and a sample count (how often their code ran), directed
 * arcs with a weight (how often the caller called the callee).  Where the
 * arcs come from (relocations weighted by block counts, layout-a's call-site
 * profile, a --callers report) is the caller's business: docs/layout.md
 * "Function order".
 *
 * ord_compute returns an order of the nodes that should be laid out hot
 * first and contiguously: every node with samples or an arc weight; the
 * rest (never executed) are left out and keep the linker's default place. */
#ifndef PERFINST_ORDER_H
#define PERFINST_ORDER_H

#include <stddef.h>
#include <stdint.h>

enum ord_alg { ORD_NONE = 0, ORD_C3 = 1, ORD_EXTTSP = 2,
               ORD_SETS = 3 /* Ext-TSP, then spread over cache sets (order-sets.h) */,
               ORD_AUTO = 4 /* the plan's choice of the two (plan-order.c): not for ord_compute */,
               ORD_CDSORT = 5 /* cache-directed sort, BOLT's default function order */ };

struct ord_node {
    uint64_t size;    /* bytes (0 is treated as 1) */
    uint64_t samples; /* executions of its code (block counts) */
};

struct ord_arc {
    uint32_t from, to; /* node indices; from calls to */
    uint64_t weight;   /* calls */
};

/* "c3", "exttsp", "cdsort", "none", "sets", "auto" -> the algorithm; -1 if
 * unknown. */
int ord_parse(const char *name);
const char *ord_name(int alg);

/* Computes the order into out (room for nn entries); returns how many
 * nodes it holds (the hot ones), or (size_t)-1 when out of memory.
 * ORD_NONE: the hot nodes by decreasing samples (ties: index).  ORD_SETS:
 * the Ext-TSP order here (the graph has no lines; plan-sets.c spreads it).
 * ORD_CDSORT: chains merged by the cache-directed gain (order.c cdsort).
 * Deterministic: ties are broken by node index. */
size_t ord_compute(int alg, const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                   size_t na, uint32_t *out);

/* The Ext-TSP score of an order (higher is better): each arc whose callee
 * starts within ORD_EXTTSP_DIST bytes after (or before) the middle of the
 * caller counts weight * (1 - distance / ORD_EXTTSP_DIST); nodes not in the
 * order are far away.  Used by the plan to compare the algorithms. */
#define ORD_EXTTSP_DIST 4096u

/* One arc's share of that score: WEIGHT calls from a caller whose middle
 * is at CALLER_MID to a callee starting at CALLEE_START (the one formula:
 * order.c's algorithms and score, order-sets.c's search). */
static inline double ord_arc_score(uint64_t weight, uint64_t caller_mid, uint64_t callee_start)
{
    uint64_t d = callee_start >= caller_mid ? callee_start - caller_mid : caller_mid - callee_start;
    if (d >= ORD_EXTTSP_DIST)
        return 0;
    return (double)weight * (1.0 - (double)d / ORD_EXTTSP_DIST);
}
double ord_exttsp_score(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                        size_t na, const uint32_t *order, size_t n);

/* CDSort's gain (order.c cdsort): a call at distance D bytes scores
 * weight * D^-ORD_CDS_DIST_POWER (D 0: 0.1); a chain of density d (samples
 * a byte) is missed as if each of ORD_CDS_PAGES fetches took a page of
 * ORD_CDS_PAGE bytes at random by samples, none of them its own; the
 * frequency term weighs ORD_CDS_FREQ_SCALE; chains stop growing at
 * ORD_CDS_MAX_CHAIN functions.  LLVM's CodeLayout defaults (BOLT's
 * -reorder-functions=cdsort). */
#define ORD_CDS_DIST_POWER 0.25
#define ORD_CDS_PAGES 16u
#define ORD_CDS_PAGE 2048u
#define ORD_CDS_FREQ_SCALE 0.25
#define ORD_CDS_MAX_CHAIN 128u

/* Bytes spanned by the hot nodes that are reached by the heaviest arcs: the
 * sum over arcs of weight * |callee start - caller middle| in the layout,
 * divided by the total weight ("call distance"; lower is better). */
double ord_call_distance(const struct ord_node *nodes, size_t nn, const struct ord_arc *arcs,
                         size_t na, const uint32_t *order, size_t n);

#endif /* PERFINST_ORDER_H */
