/* jumps.c — the jump slots through which split functions enter.
 *
 * Every split function of a unit compiled with
 * -fplugin-arg-perfinst-entry=jump (the default; entry=test, -flto,
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
 *     ctor: __perfinst_register_jumps(UNIT_ID, __start___perfinst_jumpinfo,
 *                                     __stop___perfinst_jumpinfo);
 *
 * The range is the module's (ld joins every unit's infos); each unit of the
 * module registers it, and each unit's switch changes re-sync the whole
 * range: an info names its own byte, so syncing another unit's slot early
 * is harmless.
 */
#include "runtime.h"

static void sync_slots(uint8_t *start, uint8_t *stop)
{
    if (!start || stop <= start)
        return;
    for (uint8_t *p = start; p + sizeof(struct pi_jump_info) <= stop; p += sizeof(struct pi_jump_info)) {
        const struct pi_jump_info *j = (const struct pi_jump_info *)p;
        if (!j->slot)
            continue; /* a unit's empty info */
        uint64_t *slot = (uint64_t *)((uintptr_t)&j->slot + (intptr_t)j->slot);
        const uint8_t *sw = (const uint8_t *)&j->sw + j->sw;
        uint64_t to = __atomic_load_n(sw, __ATOMIC_RELAXED) ? (uintptr_t)&j->counting + (intptr_t)j->counting
                                                            : (uintptr_t)&j->clean + (intptr_t)j->clean;
        if (__atomic_load_n(slot, __ATOMIC_RELAXED) != to)
            __atomic_store_n(slot, to, __ATOMIC_RELEASE);
    }
}

/* After a unit's switch bytes changed (pi.lock held). */
void pi_sync_jumps_locked(struct pi_unit_rt *u)
{
    sync_slots(u->jumps_start, u->jumps_stop);
}

/* Called by the unit's constructor after __perfinst_register_functions. */
PI_EXPORT void __perfinst_register_jumps(uint64_t unit_id, void *start, void *stop)
{
    pi_init();
    pthread_mutex_lock(&pi.lock);
    struct pi_unit_rt *found = pi_unit_of_id_locked(unit_id);
    if (found) {
        found->jumps_start = start;
        found->jumps_stop = stop;
    }
    /* a refused unit's bytes are 0: its slots go to the clean copies */
    sync_slots(start, stop);
    pthread_mutex_unlock(&pi.lock);
}
