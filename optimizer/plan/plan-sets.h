/* plan-sets.h — the set-pressure order of `pmopt plan --order=sets`
 * (plan-sets.c, order-sets.h; docs/layout.md "Set pressure"). */
#ifndef PERFINST_PLAN_SETS_H
#define PERFINST_PLAN_SETS_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "order.h"

struct plan_sets_in {
    const struct oscan *s;        /* the profiled build's sections and CODE ranges */
    const uint64_t *count;        /* per range of s: its block's executions */
    const uint64_t *ccount;       /* per clean range of s (s->cranges): its site's executions */
    const uint32_t *copy;         /* per section of s: its counting copy F.count.N, whose
                                     ranges are F's (counting=function), or UINT32_MAX */
    const struct ord_fn *pred;    /* per section of s: the rebuild's predicted hot part
                                     (--rebuild-split), or NULL; then no cold parts */
    const struct ord_node *nodes; /* per section of s */
    size_t nn;
    const struct ord_arc *arcs;
    size_t na;
    const struct cgeom *g;
    const char *target;           /* --target=PROG2, or NULL */
    int base_alg;                 /* the order it starts from (for the message) */
    int passes;                   /* of the search (0: only the pressures) */
    double affinity;              /* the weight of the Ext-TSP score (--sets-affinity) */
};

/* Spreads order[0..n) (sections of in->s) over the cache sets, with the
 * cold parts that ran (.text.unlikely.F sections with executed ranges)
 * after them as the relink places them: their order into cold[0..*ncold)
 * (room for in->nn; one section per name).  Prints the set pressure
 * before and after (and of the target as linked).  0, or -1 after an
 * error message. */
int plan_sets(const struct plan_sets_in *in, uint32_t *order, size_t n, uint32_t *cold,
              size_t *ncold);

#endif /* PERFINST_PLAN_SETS_H */
