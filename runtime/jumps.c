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
 * The range is the module's (ld joins every unit's infos), and each unit
 * of the module registers it.  A unit syncs its own infos only, those
 * whose byte is in its __perfinst_fnon: found through the module's index
 * (its infos ordered by their byte's address, made at the first unit's
 * registration), so that a module of N units does not sync N times its
 * every info at start (nginx: 150 units, 1,400 split functions).
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
        if (j->slot) /* (else a unit's empty info) */
            sync_one(j);
    }
}

/* A module's infos by their byte's address (pi.lock held). */
struct jump_index {
    struct jump_index *next;
    uint8_t *start, *stop;
    uint32_t n;
    uint32_t after;  /* where the last unit's infos ended: the next unit's start, in link order */
    const struct pi_jump_info **by_sw;
};
static struct jump_index *indexes;

/* Heapsort of the infos by their byte's address, in place: libc's qsort
 * may take its buffer from the program's heap, which the runtime never
 * touches (docs/runtime.md); the infos are in link order, mostly sorted
 * already. */
static void sift(const struct pi_jump_info **a, size_t i, size_t n)
{
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && switch_of(a[c + 1]) > switch_of(a[c]))
            c++;
        if (switch_of(a[i]) >= switch_of(a[c]))
            return;
        const struct pi_jump_info *t = a[i];
        a[i] = a[c];
        a[c] = t;
    }
}

static void sort_by_switch(const struct pi_jump_info **a, size_t n)
{
    size_t k = 1;
    while (k < n && switch_of(a[k - 1]) <= switch_of(a[k]))
        k++;
    if (k >= n)
        return; /* sorted already */
    for (size_t i = n / 2; i-- > 0;)
        sift(a, i, n);
    for (size_t m = n; m-- > 1;) {
        const struct pi_jump_info *t = a[0];
        a[0] = a[m];
        a[m] = t;
        sift(a, 0, m);
    }
}

static __attribute__((noinline)) struct jump_index *make_index(uint8_t *start, uint8_t *stop)
{
    size_t n = 0;
    for (uint8_t *p = start; p + sizeof(struct pi_jump_info) <= stop; p += sizeof(struct pi_jump_info))
        n += ((const struct pi_jump_info *)p)->slot != 0;
    struct jump_index *x = calloc(1, sizeof *x);
    if (!x || !(x->by_sw = malloc((n ? n : 1) * sizeof *x->by_sw))) {
        free(x);
        return NULL;
    }
    for (uint8_t *p = start; p + sizeof(struct pi_jump_info) <= stop; p += sizeof(struct pi_jump_info))
        if (((const struct pi_jump_info *)p)->slot)
            x->by_sw[x->n++] = (const struct pi_jump_info *)p;
    sort_by_switch(x->by_sw, x->n);
    x->start = start;
    x->stop = stop;
    x->next = indexes;
    indexes = x;
    return x;
}

static struct jump_index *index_of(uint8_t *start, uint8_t *stop)
{
    for (struct jump_index *x = indexes; x; x = x->next)
        if (x->start == start && x->stop == stop)
            return x;
    return make_index(start, stop);
}

/* The first of x's infos whose byte is at or after b. */
static uint32_t lower_bound(const struct jump_index *x, const uint8_t *b)
{
    uint32_t lo = 0, hi = x->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (switch_of(x->by_sw[mid]) < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* After a unit's switch bytes changed (pi.lock held). */
void pi_sync_jumps_locked(struct pi_unit_rt *u)
{
    for (uint32_t k = 0; k < u->njumps; k++)
        sync_one(u->jumps[k]);
}

/* The module at [lo, hi) is gone (its last unit unregistered): its index
 * names memory that may hold another module's infos next (pi.lock held). */
void pi_jumps_module_gone(uintptr_t lo, uintptr_t hi)
{
    for (struct jump_index **p = &indexes; *p;) {
        struct jump_index *x = *p;
        if ((uintptr_t)x->start >= lo && (uintptr_t)x->start < hi) {
            *p = x->next;
            free(x->by_sw);
            free(x);
        } else
            p = &x->next;
    }
}

/* Unit u's slots among its module's [start, stop) (u NULL: a unit the
 * runtime did not take; pi.lock held).  The units of a module register
 * in link order as a rule, their switches too: a unit's infos start where
 * the last one's ended, and end after its own (no search of the module's
 * every info for each unit: BusyBox's 558 units, 7,900 functions). */
void pi_jumps_register_locked(struct pi_unit_rt *u, void *start, void *stop)
{
    struct jump_index *x = u && u->fnon && start && stop > start ? index_of(start, stop) : NULL;
    if (x) {
        const uint8_t *lo = u->fnon, *hi = u->fnon + u->nfuncs;
        uint32_t a = x->after, b;
        if (a > x->n || (a < x->n && switch_of(x->by_sw[a]) < lo) ||
            (a > 0 && switch_of(x->by_sw[a - 1]) >= lo))
            a = lower_bound(x, lo);
        for (b = a; b < x->n && switch_of(x->by_sw[b]) < hi; b++)
            ;
        x->after = b;
        u->jumps = x->by_sw + a;
        u->njumps = b - a;
        pi_sync_jumps_locked(u);
    } else {
        /* a refused unit's bytes are 0: its slots go to the clean copies
           (and without memory for the index, every slot of the module) */
        if (u)
            u->jumps = NULL, u->njumps = 0;
        sync_slots(start, stop);
    }
}

/* Called by the unit's constructor after __perfinst_register_functions. */
PI_EXPORT void __perfinst_register_jumps(uint64_t unit_id, void *start, void *stop)
{
    pi_init();
    pthread_mutex_lock(&pi.lock);
    pi_jumps_register_locked(pi_unit_of_id_locked(unit_id), start, stop);
    pthread_mutex_unlock(&pi.lock);
}
