/* order-sets.h — a function order that spreads hot cache lines over the
 * sets of L1i (`pmopt plan --order=sets`, docs/layout.md "Set pressure").
 *
 * The call graph alone (order.h) cannot say which hot lines will share a
 * cache set: that needs where each function's executed blocks lie inside
 * it.  A node here is a function with its size, alignment and executed
 * byte ranges (offsets from its start, with their execution counts).  The
 * cost of a layout is its *set pressure*: per set, the fetches of every hot
 * line but the `ways` most fetched ones (under LRU the `ways` hottest lines
 * of a set stay, the others miss and evict), summed over the sets.  The
 * order starts from another one (Ext-TSP's) and is improved by swapping
 * and moving functions while the cost minus ORD_SETS_AFFINITY times the
 * Ext-TSP score (order.h) falls. */
#ifndef PERFINST_ORDER_SETS_H
#define PERFINST_ORDER_SETS_H

#include <stddef.h>
#include <stdint.h>

#include "order.h"

struct ord_block {
    uint64_t lo, hi;  /* bytes [lo, hi) of the function */
    uint64_t count;   /* executions */
};

struct ord_fn {
    uint64_t size, align;        /* as the relink will place it */
    const struct ord_block *b;   /* its executed ranges */
    size_t nb;
};

struct ord_cache {
    uint32_t sets, ways, line;
};

/* The weight of the Ext-TSP score (calls) against set pressure (fetches):
 * a call kept within reach of its caller is worth this many fetches (the
 * default of `pmopt plan --sets-affinity`). */
#define ORD_SETS_AFFINITY 0.25

/* Set pressure of the nodes ids[0..n) placed at at[0..n) (any addresses;
 * lines shared by two ranges count their fetches together).  Also the
 * hot lines and the sets holding more than `ways` of them when not NULL.
 * UINT64_MAX when out of memory. */
uint64_t ord_set_pressure(const struct ord_fn *f, const uint32_t *ids, const uint64_t *at,
                          size_t n, const struct ord_cache *c, uint32_t *lines,
                          uint32_t *overfull);

/* Che's approximation of the LRU misses of the same layout (lines
 * referenced independently at rates proportional to their fetches); -1
 * when out of memory. */
double ord_lru_misses(const struct ord_fn *f, const uint32_t *ids, const uint64_t *at, size_t n,
                      const struct ord_cache *c);

/* Che's approximation for one set: the misses of its lines, fetched
 * v[0..nv) times each, under LRU with `ways` ways (0 when they fit). */
double ord_che_set(const uint64_t *v, size_t nv, uint32_t ways);

/* The same for ids[0..n) laid out contiguously from 0 (each at its
 * alignment), as the relink places the planned functions. */
uint64_t ord_set_pressure_seq(const struct ord_fn *f, const uint32_t *ids, size_t n,
                              const struct ord_cache *c);

/* The Ext-TSP score (order.h) of ids[0..n) laid out as
 * ord_set_pressure_seq lays them out, at f's sizes and alignments: the
 * score the search below weighs (order.h's ord_exttsp_score takes the
 * profiled build's sizes, packed).  nn: the nodes f holds (arcs naming
 * others are left out); -1 when out of memory. */
double ord_sets_score(const struct ord_fn *f, size_t nn, const struct ord_arc *arcs, size_t na,
                      const uint32_t *ids, size_t n);

/* Improves order[0..n) (node indices into f and nodes) in place: local
 * search over swaps of two functions and moves of one, first improvement,
 * at most max_passes passes over the positions; deterministic.  Two
 * segments keep their places: positions [0, nfirst) and [nfirst, n) are
 * each permuted within itself (the hot parts of the functions, then the
 * cold parts the relink places after them; nfirst = n: one segment).  The
 * arcs (na of them, over the same nodes) give the affinity term, weighed
 * by `affinity` (ORD_SETS_AFFINITY by default).  Returns the number of
 * changes made, or -1 when out of memory. */
long ord_spread_seg(const struct ord_fn *f, const struct ord_node *nodes, size_t nn,
                    const struct ord_arc *arcs, size_t na, const struct ord_cache *c,
                    uint32_t *order, size_t n, size_t nfirst, int max_passes, double affinity);

#endif /* PERFINST_ORDER_SETS_H */
