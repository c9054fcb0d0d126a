/* piflow.h — every block's and arc's count of a translation unit, from its
 * counters (include/perfinst-format.h, "The flow graph of a function").
 *
 * A function counted whole carries counters on the arcs off a spanning
 * tree of its flow graph (and on the blocks whose count the runtime reads
 * live); the counts of the other blocks and arcs follow from the flow
 * equations — what enters a block leaves it — solved here, once, for
 * every reader: pmopt's report, plan and relink, and the runtime's
 * perfinst_item_count.  A function without arcs has a counter per block
 * (several blocks may share one), read as it is.
 *
 * Exact when every execution of the function that began has ended, by a
 * return or by a way the fake arcs show (a call that did not return:
 * exit, longjmp, an exception).  A trace written while a thread was inside
 * a block that holds no call (a signal, PERFINST_FLUSH, a thread still
 * running at exit) leaves that execution half counted: its entry arc
 * counted, no exit arc; the solution then carries it to the exit along
 * the tree, so a few blocks of that function may be off by one per such
 * thread (docs/formats.md).  A count the equations make negative is
 * reported as 0 (and counted in nnegative).
 *
 * libc only, no state: the runtime links it (runtime/build.mk). */
#ifndef PERFINST_PIFLOW_H
#define PERFINST_PIFLOW_H

#include <stdint.h>
#include "perfinst-format.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pi_flow_stat {
    uint64_t nunsolved;  /* blocks and arcs the equations left open (malformed input): 0 */
    uint64_t nnegative;  /* blocks and arcs whose solution was negative: shown as 0 */
};

/* The counts of function fn's sites and arcs: site_count[k] for each site
 * k of fn (indices into the unit's sites, so site_count has the unit's
 * nsites entries, of which fn's are written) and arc_count[a] for each arc
 * a of fn (likewise).  sites and arcs are the unit's tables, ctr its
 * counters (nctr of them; a counter past nctr reads as 0).  A site or arc
 * with a counter reads it; in a function without arcs a site without one
 * is 0.  stop (NULL: none), per site of the unit: executions known to
 * have stopped inside the block (a thread interrupted there by the
 * signal that ended the process: a STOPPED record), which left it
 * without an arc (and, for a site whose counter sits at its block's end,
 * PI_SITE_COUNTER_AT_END, had not reached the counter).  Returns 0, or -1 when out of memory (the counts are
 * then 0). */
int pi_flow_func(const struct pi_func *fn, const struct pi_site *sites, const struct pi_arc *arcs,
                 const uint64_t *ctr, uint32_t nctr, const uint64_t *stop, uint64_t *site_count,
                 uint64_t *arc_count, struct pi_flow_stat *st);

/* The same for every function of a unit. */
int pi_flow_unit(const struct pi_unit *hdr, const struct pi_func *funcs, const struct pi_site *sites,
                 const struct pi_arc *arcs, const uint64_t *ctr, uint32_t nctr, const uint64_t *stop,
                 uint64_t *site_count, uint64_t *arc_count, struct pi_flow_stat *st);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIFLOW_H */
