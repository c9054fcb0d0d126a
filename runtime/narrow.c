/* narrow.c — the spill of narrow counters (gcc-plugin/narrow.cc): a
 * counter kept in the low N bits of its slot wrapped to 0, so 2^N
 * executions go into the unit's 64-bit total of that counter.  What is left
 * in the slot is flushed with the other counters (core.c, thread.c), so
 * the trace's count is spills × 2^N + residue, exact.  Rare by design
 * (once per 2^N executions): a lock-free walk of the units and a few
 * atomic adds.  Spills per site go into the trace as SITESTAT
 * PI_STAT_SPILL (count: spills, max: the width), through indicators.c's
 * table.
 */
#include "runtime.h"

PI_EXPORT void __perfinst_spill(uint64_t unit_id, uint32_t site, uint32_t counter, uint32_t width)
{
    if (width == 0 || width >= 64)
        return;
    /* the unit whose counters this thread increments: the latest live one */
    struct pi_unit_rt *u = NULL;
    for (struct pi_unit_rt *v = PI_LOAD(&pi.units); v; v = PI_LOAD(&v->next))
        if (v->unit_id == unit_id && PI_LOAD(&v->tls_get))
            u = v;
    if (!u || counter >= u->ncounters)
        return;
    PI_STORE(&u->counted, 1);
    __atomic_fetch_add(&u->totals[counter], 1ull << width, __ATOMIC_RELAXED);
    pi_indicators_stat_add(unit_id, site, PI_STAT_SPILL, 1, width);
}
