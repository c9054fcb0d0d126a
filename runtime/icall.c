/* icall.c — the targets of indirect calls, for function ordering
 * (docs/layout.md "Indirect calls").
 *
 * In a function counted whole, the plugin puts before every call through a
 * pointer (gcc-plugin/pass-count.cc, only in the counting copy)
 *
 *   __perfinst_icall(U, S, fnptr)     S: the call's PI_SITE_CALL site
 *
 * which counts the pair (site, target) in a fixed open-addressing table
 * updated with atomics (no lock: the fatal-signal path writes it too).
 * At exit every pair becomes an ICALL record (type 58) with the run-time
 * target; pmopt maps it to a function of the program and adds the arc
 * (caller, callee, calls) to the call graph it orders.  A pair that finds
 * the table full is lost and counted (icall_lost, in the trace as an ICALL
 * record with site PI_NONE and count = the lost calls).
 */
#include "runtime.h"

#include <string.h>

#define PI_MAX_ICALLS 8192 /* power of two */

struct icall_slot {
    uint64_t key;  /* 0 free, ~0 being claimed; else a hash of (unit, site, target) | 1 */
    uint64_t unit_id;
    uint32_t site;
    uint64_t target;
    uint64_t count;
};
static struct icall_slot icalls[PI_MAX_ICALLS];
static uint64_t icall_lost;

PI_EXPORT void __perfinst_icall(uint64_t unit_id, uint32_t site, const void *target)
{
    uint64_t t = (uint64_t)(uintptr_t)target;
    /* a multiplicative mix, not the byte-wise FNV: this runs on every
       indirect call of the training build */
    uint64_t key = unit_id * 0x9e3779b97f4a7c15ull ^ (t + site) * 0xc2b2ae3d27d4eb4full;
    key = pi_slot_key(key ^ key >> 29);
    for (uint32_t i = 0; i < 64; i++) {
        struct icall_slot *s = &icalls[(key + i) & (PI_MAX_ICALLS - 1)];
        uint64_t k = pi_slot_take(&s->key);
        if (k == 0) {
            s->unit_id = unit_id;
            s->site = site;
            s->target = t;
            __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
            return;
        }
        if (k == key && s->unit_id == unit_id && s->site == site && s->target == t) {
            __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
            return;
        }
    }
    __atomic_fetch_add(&icall_lost, 1, __ATOMIC_RELAXED);
}

void pi_icall_write(struct pi_rec_writer *w)
{
    for (uint32_t i = 0; i < PI_MAX_ICALLS; i++) {
        struct icall_slot *s = &icalls[i];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == 0 || k == ~0ULL)
            continue;
        struct pi_rec_icall r = {.unit_id = s->unit_id, .site = s->site, .target = s->target,
                                 .count = __atomic_load_n(&s->count, __ATOMIC_RELAXED)};
        if (!r.count)
            continue;
        w->begin(PI_REC_ICALL);
        w->put(&r, sizeof r);
        w->end();
    }
    uint64_t lost = __atomic_load_n(&icall_lost, __ATOMIC_RELAXED);
    if (lost) {
        struct pi_rec_icall r = {.site = PI_NONE, .count = lost};
        w->begin(PI_REC_ICALL);
        w->put(&r, sizeof r);
        w->end();
    }
}

/* In a fork child: the calls before the fork are the parent's (as the
 * counters are); the pairs stay, their counts start afresh. */
void pi_icall_after_fork(void)
{
    for (uint32_t i = 0; i < PI_MAX_ICALLS; i++)
        icalls[i].count = 0;
    icall_lost = 0;
}
