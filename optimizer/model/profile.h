/* profile.h — a function's block and edge counts under the summed traces
 * of `pmopt report`/`pmopt plan` (model_load), and the layout's dynamic
 * statistics.  docs/layout.md ("The profile") explains the edge solver.
 *
 * Block counts are exact (rep_site_count).  In a function whose arcs
 * carry the counters (common/piflow.h) every edge's count is exact too:
 * the solved arc's.  Elsewhere (a function with a counter per block; an
 * abnormal edge, a computed goto's, which no arc shows) edge counts follow
 * from the block counts by flow conservation wherever the CFG determines
 * them: a block's count is the sum of its outgoing edges, and (but for the
 * entry) the sum of its incoming ones.  What the equations leave open
 * (two blocks that both branch to the same two joins) is split in
 * proportion to what the destinations still need, and counted in
 * nestimated. */
#ifndef PERFINST_PROFILE_H
#define PERFINST_PROFILE_H

#include <stdint.h>
#include "model.h"

struct fprof {
    const struct pi_unit_view *u;
    uint32_t func;
    uint32_t first, nblocks;   /* block sites: sites[first .. first+nblocks) */
    uint64_t *count;           /* per block (index - first) */
    uint32_t *eoff;            /* per block: its first entry in edge[] (nblocks + 1) */
    uint64_t *edge;            /* per successor entry, in the site's successor order */
    uint32_t nedges;
    uint32_t nestimated;       /* edges the flow equations did not determine */
    uint64_t weight;           /* sum of the block counts */
};

/* The profile of function `func` of unit u; 0, or -1 after an error
 * message (out of memory).  pf_free frees it. */
int pf_load(const struct model *md, const struct pi_unit_view *u, uint32_t func, struct fprof *p);
void pf_free(struct fprof *p);

/* The call graph's arcs under r's counts: one per call site (PI_SITE_CALL)
 * of a function counted whole, its count the calling block's.  *arcs is
 * malloc'ed (free it); sorted by count, hottest first, then caller and
 * site.  Indirect calls have callee "". */
struct call_arc {
    const struct pi_unit_view *u;
    uint32_t caller;           /* function index in u */
    uint32_t site;             /* the call site */
    const char *callee;        /* assembler name */
    uint64_t count;
};
int pf_call_arcs(const struct model *md, struct call_arc **arcs, size_t *n);

/* BOLT-style dynamic statistics of PROG's layout under r's counts
 * (docs/layout.md "Dynamic statistics"). */
struct dynstats {
    uint64_t insns;            /* executed machine instructions (sites' counts x ranges) */
    uint64_t insns_lo, insns_hi; /* bounds when blocks have copies (insns: the middle) */
    uint64_t flow;             /* executions of edges between placed blocks */
    uint64_t taken;            /* of which the target's code does not follow the source's */
    uint64_t copied;           /* of the taken: those the counts cannot tell from
                                  fall-throughs (a block with several copies) */
    uint64_t unplaced;         /* edge executions where a block has no code range */
    uint32_t functions;        /* functions with executed edges */
};
int pf_dynstats(const struct model *md, struct dynstats *d);
/* The same, predicted for a layout in which each function's blocks are
 * chained greedily along their hottest edges (what the branch profile asks
 * GCC for): taken = flow - chained flow. */
int pf_dynstats_predicted(const struct model *md, struct dynstats *d);
void pf_dynstats_print(FILE *f, const char *title, const struct dynstats *d);

/* Code of a block that starts where code of another ends, up to this many
 * bytes of alignment padding after it: a fall-through in PROG's layout. */
#define PF_PAD_MAX 15
/* The fall-through flow of each edge entry of p in PROG's layout, between
 * ftlo[e] (sure) and fthi[e] (possible): they differ only when a block has
 * several copies (copyflow.c).  rix lists m's ranges of p's unit grouped by
 * site, site s's at rix[rfirst[s] .. rfirst[s+1]); text is PROG's code
 * (cf_text_load; NULL: the jumps are not read).  runlo/runhi (or NULL):
 * each copy's runs, copy i = range rix[rfirst[p->first] + i].  0, or -1
 * after an error message. */
struct cf_text;
int cf_fallthrough(const struct pi_meta *m, const struct fprof *p, const uint32_t *rfirst,
                   const uint32_t *rix, const struct cf_text *text, uint64_t *ftlo,
                   uint64_t *fthi, uint64_t *runlo, uint64_t *runhi);
/* PROG's executable segments at their link-time addresses; NULL when it
 * cannot be read (then no jump is read).  cf_text_free frees it. */
struct cf_text *cf_text_load(const char *path);
void cf_text_free(struct cf_text *t);

#endif /* PERFINST_PROFILE_H */
