/* ranges.c — code ranges named at run time by address (issue 3; docs/
 * indicators.md "Ranges added at run time").
 *
 *   perfinst_range_add("hot", (void *)&f, (char *)&f + size)
 *
 * keeps (name, module, link-time lo, hi) in a fixed table; at exit each
 * becomes a RANGE record (type 55) of the trace.  Nothing is counted here:
 * pmopt resolves the range against the CODE chunks' block ranges and the
 * whole run's block counts (visits, instructions), so a range added late
 * still covers the executions before it.
 *
 * The table is a fixed array whose entries are published with a release
 * store of `ready`: the trace writer (maybe in a signal handler) reads it
 * without a lock.  Adds hold pi.lock (the module list's lock).
 */
#include "runtime.h"

#include <errno.h>
#include <string.h>

struct range_slot {
    int ready;
    uint32_t module;         /* pi_module.index */
    uint64_t lo, hi;         /* link-time */
    char name[PI_RANGE_NAME_MAX];
};
_Static_assert(PI_RANGE_NAME_MAX == PERFINST_RANGE_NAME_MAX, "one name limit");
static struct range_slot ranges[PERFINST_RANGE_MAX];
static uint32_t nranges;     /* slots taken (under pi.lock) */

PI_EXPORT int perfinst_range_add(const char *name, const void *lo, const void *hi)
{
    uintptr_t a = (uintptr_t)lo, b = (uintptr_t)hi;
    size_t len = name ? strnlen(name, PI_RANGE_NAME_MAX) : 0;
    if (!len || len >= PI_RANGE_NAME_MAX || a >= b) {
        errno = EINVAL;
        return -1;
    }
    pi_init();
    int err = 0;
    pthread_mutex_lock(&pi.lock);
    struct pi_module *m = pi.modules;
    for (; m; m = m->next)
        if (m->live && a >= m->lo && a < m->hi)
            break;
    if (!m || b - 1 >= m->hi)
        err = ENXIO;            /* no module of ours, or the range leaves it */
    else if (nranges >= PERFINST_RANGE_MAX)
        err = ENOSPC;
    else {
        struct range_slot *s = &ranges[nranges++];
        s->module = m->index;
        s->lo = a - m->bias;
        s->hi = b - m->bias;
        memcpy(s->name, name, len + 1);
        PI_STORE(&s->ready, 1);
    }
    pthread_mutex_unlock(&pi.lock);
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

void pi_ranges_write(struct pi_rec_writer *w)
{
    for (uint32_t i = 0; i < PERFINST_RANGE_MAX; i++) {
        const struct range_slot *s = &ranges[i];
        if (!PI_LOAD(&s->ready))
            break; /* slots are taken in order */
        struct pi_rec_range r = {.module = s->module, .lo = s->lo, .hi = s->hi,
                                 .name_len = (uint32_t)strlen(s->name) + 1};
        w->begin(PI_REC_RANGE);
        w->put(&r, sizeof r);
        w->put(s->name, r.name_len); /* the writer pads to 8 */
        w->end();
    }
}
