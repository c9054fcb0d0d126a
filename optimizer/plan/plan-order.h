/* plan-order.h — the hook `pmopt plan` (cmd-plan.c) calls for function and
 * data order and chase-tail reserved regions (plan-order.c). */
#ifndef PERFINST_PLAN_ORDER_H
#define PERFINST_PLAN_ORDER_H

#include "pifeedback.h"
#include "model.h"

struct plan_order_opts {
    int alg;            /* enum ord_alg (order.h) */
    int overfull;       /* --overfull: with ORD_AUTO, the order where Ext-TSP's hot lines
                           overfill some sets: ORD_SETS or ORD_CDSORT */
    const char *cache;  /* --cache=SIZE,WAYS,LINE, or NULL for sysfs */
    int reserve_sets;   /* --reserve-sets=N; -1: sets / 8; 0: never */
    int outside_ways;   /* --outside-ways=N: ways of each set the models leave to code
                           they do not see (shared libraries, the loader) */
    int no_icalls;      /* --no-indirect-calls: no arcs from ICALL records */
    long tier_hot;      /* --tier-hot in thousandths of a percent: the functions
                           holding that much of the samples go first, the other
                           executed ones after them (0: one order for all) */
    const char *dcache; /* --dcache=SIZE,WAYS,LINE: the L1d of the data model (dcolour.h) */
    const char *target; /* --target=PROG2: with --order=sets, the sizes of PROG2's
                           objects (the program the relink will place) */
    int sets_passes;    /* --sets-passes: the search's passes (4; 0: none) */
    double sets_affinity; /* --sets-affinity: the weight of the Ext-TSP score in the
                           search (ORD_SETS_AFFINITY) */
    int no_model_check; /* --no-model-check: write the order even when predicted worse */
    long rebuild_tier;  /* with --rebuild: --tier-hot (thousandths of a percent), the
                           hot tier the rebuilt program will have; 0: not a rebuild plan */
    int rebuild_split;  /* --rebuild-split: with rebuild_tier, the models lay out each
                           function as the rebuild's hot part (plan-order.c
                           predict_rebuild), not as the training build's section */
    int clean_ranges;   /* --clean-ranges: the models lay out a counted function from
                           its clean copy's ranges (.perfinst.clean; plan-order.c
                           clean_of), not from its counting copy's scaled onto it */
    int place_inlined;  /* --place-inlined: a function the training build inlined
                           everywhere named in the order after the ordered function
                           that ran most of its blocks (plan-order.c inlined_hosts) */
};

/* After model_load(md): writes the recommendations order-functions,
 * order-data and reserve into w, or prints them numbered from *number + 1
 * when w is NULL (--advise), updating *number.  Prints the orders' scores
 * and the cache model's ratios before and after on stdout.  An order the
 * model predicts to hit less than the layout it replaces (PROG's own, or
 * with rebuild_tier the rebuilt program's) is not written: the relink then
 * keeps that layout.  0, or -1 after an error message. */
int plan_order(struct model *md, const struct plan_order_opts *o, struct pifb_writer *w,
               uint32_t *number);

/* `pmopt plan --order=ALG [--advise | -o FEEDBACK] PROG TRACE...` after
 * cmd-plan.c parsed the options: reads PROG and the traces, plans, writes
 * the feedback file atomically.  Returns the exit status. */
int plan_order_main(struct model *md, const struct plan_order_opts *o, int advise,
                    const char *out, int nargs, char **args);

#endif /* PERFINST_PLAN_ORDER_H */
