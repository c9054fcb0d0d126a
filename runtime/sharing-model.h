/* sharing-model.h — the coherence model of runtime/sharing.c: the state
 * of a line that several threads touched, and how an access changes it and
 * is classified (docs/sharing.md, "Detection").
 *
 * Every thread on a shared line has a copy that is valid or not; a write
 * invalidates the other threads' copies and adds the bytes written to
 * their `pending` masks.  An access by a thread whose copy is invalid, to
 * a line it saw before, is a reload: TRUE sharing when another thread
 * wrote bytes this access touches since the thread last saw the line
 * (pending & bytes), else FALSE sharing.  A first touch is a cold miss,
 * not a reload.
 *
 * A line holds any number of threads: SH_TE_INLINE entries in place, then
 * an array the caller grows (sh_entry asks for room by returning NULL).
 *
 * Pure (no locks, no globals): sharing.c calls it under the line's lock,
 * tests/unit/sharing.c calls it on lines it builds.
 */
#ifndef PERFINST_SHARING_MODEL_H
#define PERFINST_SHARING_MODEL_H

#include <stdint.h>
#include "perfinst-format.h"

#define SH_TE_INLINE 4        /* thread entries a shared line holds in place */

/* an access's kind: bit 0 a write, bit 1 a read too (a read-modify-write the
 * plugin merged into one probe: PI bit 31 of the probe's info) */
#define SH_WRITE 1
#define SH_RMW 3
#define is_read(kind) ((kind) != SH_WRITE)

struct sh_te {                /* one thread on a shared line */
    uint32_t num;             /* its thread number */
    uint8_t seen;
    uint8_t valid;            /* its copy of the line is valid */
    uint8_t armed;            /* sampled mode: a window is open (its next access is judged) */
    uint8_t armed_off;        /* the window's first access: offset, bytes, site */
    uint8_t fp_state;         /* sampled mode: 0 new, 1 its first accesses call (bytes kept, not
                                 counted), 2 done (sharing.c, "a newcomer's footprint") */
    uint8_t fp_left;          /* ... accesses left of that footprint */
    uint32_t cpu;
    uint32_t e_first, e_last; /* fork/join epochs of its first and last access seen */
    uint64_t r, w, pending;
    uint64_t reads, writes, rt, rf;
    uint64_t armed_bytes, armed_pc;
    const char *armed_what;
};

struct sh_ext {               /* a shared line's coherence state */
    uint32_t n, cap;          /* thread entries used, room in t */
    uint32_t written;         /* a thread wrote it since it became shared */
    uint32_t windows;         /* sampled mode: windows open on the line */
    uint32_t watch_calls;     /* calls not opening a window since the last one opened */
    uint32_t footprints;      /* sampled mode: threads whose first accesses call (fp_state 1) */
    uint32_t fp_calls;        /* ... calls of other threads since the last one opened */
    struct sh_te *t;          /* t0, or a larger array once more threads came */
    uint64_t area_true[PI_SHARE_AREAS], area_false[PI_SHARE_AREAS];
    struct sh_te t0[SH_TE_INLINE];
};

enum sh_reload { SH_NO_RELOAD = 0, SH_TRUE = 1, SH_FALSE = 2 };

/* A line's state, empty (e zeroed first). */
static inline void sh_ext_init(struct sh_ext *e)
{
    e->t = e->t0;
    e->cap = SH_TE_INLINE;
}

/* The entry of thread num on line e, made on its first access; NULL when
 * the entries are full (the caller gives e->t more room and asks again). */
static inline struct sh_te *sh_entry(struct sh_ext *e, uint32_t num)
{
    for (uint32_t i = 0; i < e->n; i++)
        if (e->t[i].num == num)
            return &e->t[i];
    if (e->n == e->cap)
        return 0;
    struct sh_te *t = &e->t[e->n];
    t->num = num;
    t->cpu = ~0u;
    t->e_first = PI_SHARE_EPOCH_NONE;
    __atomic_store_n(&e->n, e->n + 1, __ATOMIC_RELEASE); /* (the trace writer reads n) */
    return t;
}

/* What a reload by t of `bytes` is: true sharing when another thread wrote
 * some of them since t last saw the line. */
static inline enum sh_reload sh_reload_kind(const struct sh_te *t, uint64_t bytes)
{
    return t->pending & bytes ? SH_TRUE : SH_FALSE;
}

/* The coherence step of an access by t to `bytes` of line e; kind:
 * SH_WRITE (or SH_RMW), or 0 for a read.  Returns the reload it is, and
 * leaves t's copy valid (the only valid one after a write). */
static inline enum sh_reload sh_coherence(struct sh_ext *e, struct sh_te *t, uint64_t bytes, int kind)
{
    enum sh_reload rel = t->seen && !t->valid ? sh_reload_kind(t, bytes) : SH_NO_RELOAD;
    t->seen = 1;
    t->pending = 0;
    t->valid = 1;
    if (kind) {
        for (uint32_t i = 0; i < e->n; i++)
            if (&e->t[i] != t) {
                e->t[i].pending |= bytes;
                e->t[i].valid = 0;
            }
        e->written = 1;
    }
    return rel;
}

#endif
