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
 * Pure (no locks, no globals): sharing.c calls it under the line's lock,
 * tests/unit/sharing.c calls it on lines it builds.
 */
#ifndef PERFINST_SHARING_MODEL_H
#define PERFINST_SHARING_MODEL_H

#include <stdint.h>
#include "perfinst-format.h"

#define SH_LT 16              /* thread entries per shared line; more fold into the last */

/* an access's kind: bit 0 a write, bit 1 a read too (a read-modify-write the
 * plugin merged into one probe: PI bit 31 of the probe's info) */
#define SH_WRITE 1
#define SH_RMW 3
#define is_read(kind) ((kind) != SH_WRITE)

struct sh_te {                /* one thread on a shared line */
    uint8_t id, seen;
    uint8_t armed;            /* sampled mode: a window is open (its next access is judged) */
    uint8_t armed_off;        /* the window's first access: offset, bytes, site */
    uint32_t cpu;
    uint64_t r, w, pending;
    uint64_t reads, writes, rt, rf;
    uint64_t armed_bytes, armed_pc;
    const char *armed_what;
};

struct sh_ext {               /* a shared line's coherence state */
    uint64_t valid;           /* thread bits (id % 64) holding a valid copy */
    uint32_t n;
    uint32_t windows;         /* sampled mode: windows open on the line */
    uint32_t watch_calls;     /* calls not opening a window since the last one opened */
    struct sh_te t[SH_LT];
    uint64_t area_true[PI_SHARE_AREAS], area_false[PI_SHARE_AREAS];
};

enum sh_reload { SH_NO_RELOAD = 0, SH_TRUE = 1, SH_FALSE = 2 };

/* The entry of thread `id` on line e, made on its first access; past SH_LT
 * threads the last entry stands for the rest (their counts stay, their
 * identity is the last entry's). */
static inline struct sh_te *sh_entry(struct sh_ext *e, uint8_t id)
{
    for (uint32_t i = 0; i < e->n; i++)
        if (e->t[i].id == id)
            return &e->t[i];
    if (e->n == SH_LT)
        return &e->t[SH_LT - 1];
    struct sh_te *t = &e->t[e->n++];
    t->id = id;
    t->cpu = ~0u;
    return t;
}

/* What a reload by t of `bytes` is: true sharing when another thread wrote
 * some of them since t last saw the line. */
static inline enum sh_reload sh_reload_kind(const struct sh_te *t, uint64_t bytes)
{
    return t->pending & bytes ? SH_TRUE : SH_FALSE;
}

/* The coherence step of an access by thread `id` (its entry t) to `bytes`
 * of line e; kind: SH_WRITE, SH_RMW, or 0 for a read.  Returns the reload
 * it is, and leaves t's copy valid (the only valid one after a write). */
static inline enum sh_reload sh_coherence(struct sh_ext *e, struct sh_te *t, uint8_t id,
                                          uint64_t bytes, int kind)
{
    uint64_t bit = 1ull << (id & 63);
    enum sh_reload rel = t->seen && !(e->valid & bit) ? sh_reload_kind(t, bytes) : SH_NO_RELOAD;
    t->seen = 1;
    t->pending = 0;
    e->valid |= bit;
    if (kind) {
        for (uint32_t i = 0; i < e->n; i++)
            if (&e->t[i] != t)
                e->t[i].pending |= bytes;
        e->valid = bit;
    }
    return rel;
}

#endif
