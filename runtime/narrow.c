/* narrow.c — the spill of narrow counters (gcc-plugin/narrow.cc): a
 * counter kept in the low N bits of its slot wrapped to 0, so 2^N
 * executions go into the unit's 64-bit total of that counter.  What is left
 * in the slot is flushed with the other counters (core.c, thread.c), so
 * the trace's count is spills × 2^N + residue, exact.  Rare by design
 * (once per 2^N executions): a lock-free lookup of the unit and two atomic
 * adds.  Spills per site go into the trace as SITESTAT PI_STAT_SPILL.
 */
#include "runtime.h"

#define PI_MAX_SPILLS 1024 /* a power of two */
struct spill_slot {
    uint64_t key;          /* 0 free, ~0 being filled, else unit ^ site hash | 1 */
    uint64_t unit_id;
    uint32_t site, width;
    uint64_t spills;
};
static struct spill_slot spills[PI_MAX_SPILLS];

static struct spill_slot *spill_get(uint64_t unit_id, uint32_t site, uint32_t width)
{
    uint64_t key = (pi_hash64(pi_hash64(PI_HASH64_INIT, &unit_id, 8), &site, 4)) | 1;
    for (uint32_t i = 0; i < PI_MAX_SPILLS; i++) {
        struct spill_slot *s = &spills[(key + i) & (PI_MAX_SPILLS - 1)];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == 0) {
            uint64_t expected = 0;
            if (__atomic_compare_exchange_n(&s->key, &expected, ~0ULL, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                s->unit_id = unit_id;
                s->site = site;
                s->width = width;
                __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
                return s;
            }
            k = expected;
        }
        while (k == ~0ULL)
            k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == key && s->unit_id == unit_id && s->site == site)
            return s;
    }
    return NULL;
}

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
    __atomic_fetch_add(&u->totals[counter], 1ull << width, __ATOMIC_RELAXED);
    struct spill_slot *s = spill_get(unit_id, site, width);
    if (s)
        __atomic_fetch_add(&s->spills, 1, __ATOMIC_RELAXED);
}

void pi_narrow_write(struct pi_rec_writer *w)
{
    for (uint32_t i = 0; i < PI_MAX_SPILLS; i++) {
        const struct spill_slot *s = &spills[i];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == 0 || k == ~0ULL)
            continue;
        struct pi_rec_sitestat r = {.unit_id = s->unit_id, .site = s->site, .kind = PI_STAT_SPILL,
                                    .count = __atomic_load_n(&s->spills, __ATOMIC_RELAXED),
                                    .max = s->width};
        w->begin(PI_REC_SITESTAT);
        w->put(&r, sizeof r);
        w->end();
    }
}
