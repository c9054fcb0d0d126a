/* jumps.c — the jump slots through which split functions enter.
 *
 * Every split function of a unit compiled with
 * -fplugin-arg-perfinst-entry=jump (entry=test, the default, -flto,
 * -fcf-protection=branch, retpolines and -masm=intel keep the byte test:
 * gcc-plugin/pass-split.cc) starts with `jmp *SLOT(%rip)`, SLOT being 8
 * bytes in its module's __perfinst_jumps section, described by a struct
 * pi_jump_info (perfinst-format.h) in __perfinst_jumpinfo.  The function's
 * switch byte (__perfinst_fnon[F], set from the
 * mode register and the overlay by pi_apply_switches_locked) stays the one
 * truth; this file makes each slot follow it: the counting copy
 * when the byte is 1 (the instruction after the jmp), the clean copy when
 * it is 0.  One aligned 8-byte store per change, so a thread entering the
 * function meanwhile takes one copy or the other, never a torn address;
 * .text is never written.  A change takes effect at the next entry, as with
 * the byte test.
 *
 *     ctor: __perfinst_register_unit2(..., .Lpi_jinfo_lo, .Lpi_jinfo_hi);
 *
 * The range is the unit's own infos (two local labels of the unit around
 * them: gcc-plugin/unit.cc), so a unit syncs exactly its own slots, in
 * link order.  A unit of an earlier plugin passed its module's range
 * (ld's __start/__stop___perfinst_jumpinfo, every unit's infos): it syncs
 * them all, each from its own byte, which is as right and only slower.
 */
#include "runtime.h"

static const uint8_t *switch_of(const struct pi_jump_info *j)
{
    return (const uint8_t *)&j->sw + j->sw;
}

static __attribute__((noinline)) void sync_one(const struct pi_jump_info *j)
{
    uint64_t *slot = (uint64_t *)((uintptr_t)&j->slot + (intptr_t)j->slot);
    uint64_t to = __atomic_load_n(switch_of(j), __ATOMIC_RELAXED) ? (uintptr_t)&j->counting + (intptr_t)j->counting
                                                                  : (uintptr_t)&j->clean + (intptr_t)j->clean;
    if (__atomic_load_n(slot, __ATOMIC_RELAXED) != to)
        __atomic_store_n(slot, to, __ATOMIC_RELEASE);
}

static void sync_slots(uint8_t *start, uint8_t *stop)
{
    if (!start || stop <= start)
        return;
    for (uint8_t *p = start; p + sizeof(struct pi_jump_info) <= stop; p += sizeof(struct pi_jump_info)) {
        const struct pi_jump_info *j = (const struct pi_jump_info *)p;
        if (j->slot) /* (else the empty info of an earlier plugin's unit) */
            sync_one(j);
    }
}

/* After a unit's switch bytes changed (pi.lock held). */
void pi_sync_jumps_locked(struct pi_unit_rt *u)
{
    sync_slots(u->jumps, u->jumps_end);
}

/* Unit u's slots, its infos at [start, stop) (u NULL: a unit the runtime
 * did not take, whose bytes are 0: its slots go to the clean copies;
 * pi.lock held). */
void pi_jumps_register_locked(struct pi_unit_rt *u, void *start, void *stop)
{
    if (u && u->fnon && start && stop > start) {
        u->jumps = start;
        u->jumps_end = stop;
    } else if (u) {
        u->jumps = u->jumps_end = NULL;
    }
    sync_slots(start, stop);
}

/* Called by the unit's constructor after __perfinst_register_functions. */
PI_EXPORT void __perfinst_register_jumps(uint64_t unit_id, void *start, void *stop)
{
    pi_init();
    pthread_mutex_lock(&pi.lock);
    pi_jumps_register_locked(pi_unit_of_id_locked(unit_id), start, stop);
    pthread_mutex_unlock(&pi.lock);
}
