/* sharing.c — true and false cache-line sharing (seed 004 M28), in software.
 *
 * The plugin (gcc-plugin/pass-sharing.cc) makes every load and store that
 * can reach memory other threads see call
 *
 *     __perfinst_share(addr, size << 1 | is_store);
 *
 * and this file keeps a shadow record per 64-byte line touched (a hash
 * table keyed by the line's address, records of one line each so the
 * shadow never falsely shares itself).  While only one thread has touched a
 * line the record is private to it: the fast path checks key and owner and
 * ORs the bytes it touched into the owner's masks, no lock, no atomic.
 * When a second thread arrives the line becomes shared: it gets per-thread
 * entries (read and write byte masks, counts, the CPU) under a per-line
 * spin lock, and coherence is emulated:
 *
 *   - a write by T invalidates every other thread's copy and adds the bytes
 *     written to each other thread's `pending` mask;
 *   - an access by T whose copy is invalid, to a line T saw before, is a
 *     RELOAD (a first touch is a cold miss, not counted);
 *   - the reload is TRUE sharing if another thread wrote bytes this access
 *     touches since T last saw the line (pending & bytes accessed), else
 *     FALSE sharing: other threads wrote only other parts of the line.
 *
 * Counts go per line, per thread, per area (8-byte word the access starts
 * in) and per access site (the probe's return address) on shared lines.
 * Threads get small ids (1, 2, ... in order of their first access); the
 * trace maps them to OS thread ids.  Allocation calls in instrumented code
 * come here too (__perfinst_share_malloc & co.): objects are recorded with
 * their allocation site so that pmopt can name heap lines.  The records
 * (PI_REC_SHARE_*) are written with the trace (pi_sharing_write).
 */
#include "runtime.h"
#include "env.h"
#include "sharing-model.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#define SH_MAXID 251          /* small thread ids 1..251; the 251st and later share one */
#define SH_SOLO_ID 1          /* the first thread: alone until a second one has an id (solo phase) */
#define SH_CLAIM_BYTE 0xfc    /* a line of a page the solo thread claimed, not touched yet */
#define SH_NO_ID 0xfe         /* a thread's id before its first probe call: never a shadow byte */
#define SH_SHARED_BYTE 0xff   /* shadow byte of a shared line every access of which calls */
#define SH_SAMPLED_BYTE PI_SHARE_SAMPLED_BYTE /* ... of one whose accesses the inlined countdown samples */
#define SH_WATCH_MAX 64       /* calls of other threads that end a sampling window unresolved */
#define SH_PERIOD_DEFAULT 1024 /* PERFINST_SHARING_PERIOD's default: see docs/sharing.md, Cost */
#define SH_SHADOW_BITS 41     /* the byte shadow covers 2^41 lines: 47-bit addresses */
#define SH_VALGRIND_BITS 31   /* ... under valgrind, whose client addresses lie below 2^37 */
#define SH_BUSY (~0ull)
struct sh_line {
    uint64_t key;             /* line number + 1; 0: an unused record */
    uint32_t lock;
    uint8_t owner;            /* the first thread's small id */
    uint8_t shared;           /* a second thread touched it: ext is set */
    uint16_t pad;
    uint64_t o_r, o_w;        /* the owner's bytes while private */
    uint64_t o_reads, o_writes;
    struct sh_ext *ext;
    uint64_t pad2;
} __attribute__((aligned(64)));

struct sh_site {
    uint64_t key;             /* hash of (pc, line, thread), 0 free, SH_BUSY claimed */
    uint64_t pc, line;
    uint32_t thread, flags;
    uint64_t accesses, rt, rf, mask;
    const char *what;
};

#define SH_MAX_FRAMES 8
_Static_assert(SH_MAX_FRAMES == 8, "PERFINST_SHARING_STACK's range in env.c");
struct sh_alloc {
    uint64_t addr, size, seq;
    uint32_t thread, kind, freed, ready;
    uint32_t nframes, pad;
    uint64_t frames[SH_MAX_FRAMES]; /* frames[0]: the allocation call's return address */
};
/* PERFINST_SHARING_STACK=N: frames of each allocation's call stack (1: the
 * site alone, no unwinding) */
static uint32_t stack_frames = 4;
/* Unwinding costs microseconds, and a program may allocate millions of
 * times at one site: the first SH_STACKS_FULL allocations at each site
 * (by a hash of its address) get their call stack, then one in
 * SH_STACKS_FULL; the others the site alone (frames[0]). */
#define SH_STACKS_FULL 64
#define SH_STACK_SITES_BITS 12
static uint32_t stack_site_allocs[1u << SH_STACK_SITES_BITS];

static struct sh_line *lines;
/* The records are a pool handed out in order; a line finds its record
 * through the index shadow: one uint32_t per line of the 47-bit address
 * space (8 TiB of MAP_NORESERVE address space, touched only where the
 * program has data), 1 + the record's index, 0 for none.  Direct, so a
 * lookup is one load that keeps the program's locality. */
static uint32_t *ishadow;
/* the lines the shadows cover: 2^SH_SHADOW_BITS, or fewer under valgrind
 * (it cannot map terabytes; its client's addresses all lie below 2^37, so
 * the inlined check's index, masked to 41 bits, stays inside) */
static uint64_t line_mask = (1ull << SH_SHADOW_BITS) - 1;
static uint32_t nused, line_bits;
static uint64_t lines_lost;
#define SITE_BITS 16
static struct sh_site *sites;
/* 1 + the index of each site claimed, in order: the trace writer walks
 * these, not the whole table (whose untouched pages would each fault) */
static uint32_t *site_list, nsites_used;
static uint64_t sites_lost;
#define ALLOC_MAX (1u << 16)
static struct sh_alloc *allocs;
static uint32_t nallocs;
/* address -> 1 + index of the latest object recorded there (free looks it up) */
#define ALLOC_HASH_BITS 17
static uint32_t *alloc_hash;
static uint64_t alloc_seq, allocs_lost;

static struct {
    uint32_t tid, cpu;
} threads[SH_MAXID + 1];
static uint32_t nthreads_seen;
static int sh_state;                  /* 0 untouched, 1 ready, 2 failed */
static pthread_mutex_t sh_init_lock = PTHREAD_MUTEX_INITIALIZER;

/* The fast path the plugin inlines before each probe call (pass-sharing.cc):
 * a line whose shadow byte is the thread's id is private to that thread and
 * needs no call.  The byte is set once the runtime has seen `footprint`
 * accesses of the owner to the line (so that private lines still leave a
 * footprint for the prediction), and set to SH_SAMPLED_BYTE (or, exact,
 * SH_SHARED_BYTE) when a second thread arrives.  The shadow is mapped on
 * the first probe call. */
PI_EXPORT uint8_t *__perfinst_share_shadow;
/* The thread's state the inlined check reads: one TLS object, so that one
 * address (a GOT load in a program linked with libperfinst.so) serves both:
 *     countdown  at +0: the sampling countdown (PERFINST_SHARING_PERIOD, below)
 *     id         at +4: the thread's small id */
struct sh_tls {
    uint32_t countdown;
    uint8_t id;
};
PI_EXPORT __thread struct sh_tls __perfinst_share_tls __attribute__((tls_model("initial-exec"))) = {
    SH_PERIOD_DEFAULT, SH_NO_ID};
_Static_assert(offsetof(struct sh_tls, countdown) == 0 && offsetof(struct sh_tls, id) == 4,
               "the layout pass-sharing.cc reads");
/* The solo phase (docs/sharing.md, "First touches"): while one thread
 * alone has an id, its first call for a line of a page it had not touched
 * claims the page: the line's byte becomes its id (touched), the page's
 * other free bytes SH_CLAIM_BYTE; its first call for a claimed line turns
 * the byte into its id at the top of access1 (no lock, no record) -- one
 * short call per line instead of `footprint` calls, and no record: the
 * byte says the line was touched.  When a second thread gets an id, end_solo
 * makes the records of the lines the solo thread touched (owner: the solo
 * thread, seen, counts from then on) and clears every byte of the claimed
 * pages, so that coherence and classification go on as if every access had
 * called; only the solo thread's accesses before that are not counted. */
static int solo = 1;
static pthread_mutex_t solo_lock = PTHREAD_MUTEX_INITIALIZER;
#define SH_PAGE_LINES 64      /* lines of a 4 KiB page: what one claim covers */
#define SOLO_PAGES_MAX (1u << 22)
static uint64_t *solo_pages;  /* the first line of each claimed page, in order */
static uint32_t nsolo_pages;
static void end_solo(void);
#define my_id __perfinst_share_tls.id
#define __perfinst_share_countdown __perfinst_share_tls.countdown
/* PERFINST_SHARING_SAMPLE=N: accesses of the owner seen before a private
 * line's byte is set (its footprint for the prediction) */
static uint64_t footprint = 64;
/* PERFINST_SHARING_PERIOD=N: sample one in N accesses to shared lines (the
 * seed's periodic checking; docs/sharing.md).  1: exact, every access
 * calls.  N > 1: a shared line's shadow byte is SH_SAMPLED_BYTE and the
 * inlined check counts the thread's __perfinst_share_countdown down on each
 * access to such a line, calling when it reaches 0.  The countdown restarts
 * at a number drawn uniformly from 1 .. 2N-1 (a per-thread xorshift): a
 * strict every N-th would alias with a loop's access pattern and could skip,
 * say, every write of a thread.  A sampled access opens a WINDOW: the line's
 * byte becomes SH_SHARED_BYTE, so every thread's accesses to it call, until
 * the sampling thread's next access to the line, which is judged exactly (a
 * reload or not, true or false).  Counts are scaled by N as they are taken:
 * estimates. */
static uint32_t period = SH_PERIOD_DEFAULT;
static __thread uint32_t period_rng __attribute__((tls_model("initial-exec")));

static uint32_t next_countdown(void)
{
    uint32_t x = period_rng ? period_rng : 0x9e3779b9u ^ (uint32_t)(uintptr_t)&period_rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    period_rng = x;
    return 1 + x % (2 * period - 1);
}

static void *map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* PERFINST_SHARING_LINES=N: the shadow's capacity in lines (a power of two,
 * 2^22 by default; 64 bytes of address space each, touched only as used). */
static void sh_init(void)
{
    pthread_mutex_lock(&sh_init_lock);
    if (sh_state) {
        pthread_mutex_unlock(&sh_init_lock);
        return;
    }
    pi_init();
    line_bits = 22;
    const char *v = secure_getenv("PERFINST_SHARING_LINES");
    if (v)
        pi_env_sharing_lines(v, &line_bits);
    v = secure_getenv("PERFINST_SHARING_PERIOD");
    if (v)
        pi_env_sharing_period(v, &period);
    v = secure_getenv("PERFINST_SHARING_STACK");
    if (v)
        pi_env_sharing_stack(v, &stack_frames);
    v = secure_getenv("PERFINST_SHARING_SAMPLE");
    if (v)
        pi_env_sharing_sample(v, &footprint);
    lines = map(sizeof(struct sh_line) << line_bits);
    ishadow = map(sizeof(uint32_t) << SH_SHADOW_BITS);
    const char *pre = getenv("LD_PRELOAD");
    if (!ishadow && pre && strstr(pre, "/vgpreload_core-")) {
        /* under valgrind (callgrind counts the inlined check): smaller shadows */
        line_mask = (1ull << SH_VALGRIND_BITS) - 1;
        ishadow = map(sizeof(uint32_t) << SH_VALGRIND_BITS);
    }
    sites = map(sizeof(struct sh_site) << SITE_BITS);
    site_list = map(sizeof(uint32_t) << SITE_BITS);
    allocs = map(sizeof(struct sh_alloc) * ALLOC_MAX);
    alloc_hash = map(sizeof(uint32_t) << ALLOC_HASH_BITS);
    solo_pages = map(sizeof(uint64_t) * SOLO_PAGES_MAX);
    /* The inlined checks read the byte shadow without testing its address
     * (pass-sharing.cc): without it the instrumented code cannot run. */
    uint8_t *shadow = map(line_mask + 1);
    if (!shadow) {
        pi_say("perfinst: sharing: cannot map the byte shadow the inlined checks read (2 TiB of address space; "
               "ulimit -v?): a program built with sharing detection cannot run without it\n", NULL);
        _exit(127);
    }
    int ok = lines && ishadow && sites && site_list && allocs && alloc_hash;
    if (!ok)
        pi_say("perfinst: sharing: cannot map the shadow lines; nothing is recorded\n", NULL);
    __atomic_store_n(&sh_state, ok ? 1 : 2, __ATOMIC_RELEASE);
    __atomic_store_n(&__perfinst_share_shadow, shadow, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&sh_init_lock);
}

/* Called at start-up from each instrumented unit's .init_array entry
 * (pass-sharing.cc): the shadow is mapped before the program's loops run,
 * whose inlined checks load its address once (a loop that began before it
 * was mapped would call on every access). */
PI_EXPORT void __perfinst_share_start(void)
{
    if (!__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE))
        sh_init();
}

static uint8_t new_id(void)
{
    uint32_t n = __atomic_add_fetch(&nthreads_seen, 1, __ATOMIC_RELAXED);
    uint8_t id = n > SH_MAXID ? SH_MAXID : (uint8_t)n;
    if (n <= SH_MAXID) {
        threads[id].tid = (uint32_t)gettid();
        threads[id].cpu = (uint32_t)sched_getcpu();
    }
    my_id = id;
    __perfinst_share_countdown = next_countdown(); /* its first sample as random as the others */
    if (n > SH_SOLO_ID && __atomic_load_n(&solo, __ATOMIC_ACQUIRE))
        end_solo();
    return id;
}

static inline uint64_t bytes_of(unsigned off, unsigned size)
{
    return size >= 64 ? ~0ull << off : ((1ull << size) - 1) << off;
}

#define SH_LINE_MASK line_mask

/* The record of line ln, made on first sight; NULL when the pool is full
 * (counted) or ln lies beyond 47-bit addresses and aliases another line. */
static struct sh_line *line_get(uint64_t ln, uint8_t id)
{
    uint32_t *slot = &ishadow[ln & SH_LINE_MASK];
    uint32_t k = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!k) {
        uint32_t i = __atomic_fetch_add(&nused, 1, __ATOMIC_RELAXED);
        if (i >= (1u << line_bits)) {
            __atomic_fetch_add(&lines_lost, 1, __ATOMIC_RELAXED);
            return NULL;
        }
        struct sh_line *l = &lines[i];
        /* a byte the solo thread set inline (a claimed line it touched while
         * the second thread arrived): it was there first */
        uint8_t sb = __perfinst_share_shadow ? __atomic_load_n(&__perfinst_share_shadow[ln & SH_LINE_MASK],
                                                               __ATOMIC_ACQUIRE) : 0;
        l->owner = sb == SH_SOLO_ID ? SH_SOLO_ID : id;
        l->key = ln + 1;
        uint32_t none = 0;
        if (__atomic_compare_exchange_n(slot, &none, i + 1, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
            return l;
        l->key = 0; /* another thread made it first: this record stays unused */
        k = none;
    }
    struct sh_line *l = &lines[k - 1];
    if (l->key != ln + 1) {
        __atomic_fetch_add(&lines_lost, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    return l;
}

/* The solo thread's call for line ln (solo phase, above): claim its page.
 * Returns 0 when the phase is over or the list of claimed pages is full
 * (the line is then handled as any other). */
static int solo_touch(uint64_t ln)
{
    pthread_mutex_lock(&solo_lock);
    if (!solo || nsolo_pages >= SOLO_PAGES_MAX || !solo_pages) {
        pthread_mutex_unlock(&solo_lock);
        return 0;
    }
    uint64_t first = ln & ~(uint64_t)(SH_PAGE_LINES - 1);
    uint8_t *b = &__perfinst_share_shadow[first & SH_LINE_MASK];
    if (!b[ln - first]) { /* a page not claimed yet (a claimed one has no free byte) */
        for (unsigned i = 0; i < SH_PAGE_LINES; i++)
            if (!b[i])
                __atomic_store_n(&b[i], SH_CLAIM_BYTE, __ATOMIC_RELAXED);
        solo_pages[nsolo_pages++] = first;
    }
    __atomic_store_n(&b[ln - first], SH_SOLO_ID, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&solo_lock);
    return 1;
}

/* A second thread has an id: the solo phase ends.  Every line of a claimed
 * page the solo thread touched gets its record (owner the solo thread,
 * seen: a later reload of it is one), and every byte of those pages is
 * cleared, so that from now on each line's first accesses call as on any
 * line (the solo thread's footprint, then the byte again).  A claimed byte
 * the solo thread turns into its id meanwhile is caught below (CAS) or, if
 * it turns it after this, by line_get and access1 (it touched the line). */
static void end_solo(void)
{
    pthread_mutex_lock(&solo_lock);
    if (__atomic_load_n(&solo, __ATOMIC_RELAXED)) {
        __atomic_store_n(&solo, 0, __ATOMIC_RELEASE);
        for (uint32_t k = 0; k < nsolo_pages; k++)
            for (unsigned i = 0; i < SH_PAGE_LINES; i++) {
                uint64_t ln = solo_pages[k] + i;
                uint8_t *b = &__perfinst_share_shadow[ln & SH_LINE_MASK];
                uint8_t v = SH_CLAIM_BYTE;
                if (__atomic_compare_exchange_n(b, &v, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                    continue; /* claimed, never touched */
                if (v != SH_SOLO_ID)
                    continue;
                line_get(ln, SH_SOLO_ID);
                __atomic_compare_exchange_n(b, &v, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
            }
        nsolo_pages = 0;
    }
    pthread_mutex_unlock(&solo_lock);
}

static void lock(struct sh_line *l)
{
    while (__atomic_exchange_n(&l->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&l->lock, __ATOMIC_RELAXED))
            __builtin_ia32_pause();
}

static void unlock(struct sh_line *l)
{
    __atomic_store_n(&l->lock, 0, __ATOMIC_RELEASE);
}

/* One access (weight: accesses it stands for, 0 for none) and its reload
 * (rel 1 true, 2 false, each standing for rel_w) at a site. */
static void site_add(uint64_t pc, uint64_t ln, uint8_t id, int write, uint64_t bytes, uint64_t weight, int rel,
                     uint64_t rel_w, const char *what)
{
    uint64_t key = (pc * 0x9e3779b97f4a7c15ull) ^ (ln * 0xc2b2ae3d27d4eb4full) ^ id;
    key = key == 0 || key == SH_BUSY ? 1 : key;
    uint64_t mask = (1ull << SITE_BITS) - 1, h = key >> (64 - SITE_BITS);
    for (uint32_t i = 0; i < 256; i++) {
        struct sh_site *s = &sites[(h + i) & mask];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == 0) {
            uint64_t zero = 0;
            if (__atomic_compare_exchange_n(&s->key, &zero, SH_BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                s->pc = pc;
                s->line = ln;
                s->thread = id;
                s->what = what;
                __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
                uint32_t n = __atomic_fetch_add(&nsites_used, 1, __ATOMIC_RELAXED);
                __atomic_store_n(&site_list[n], (uint32_t)((h + i) & mask) + 1, __ATOMIC_RELEASE);
                k = key;
            } else
                k = zero;
        }
        while (k == SH_BUSY)
            k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == key && s->pc == pc && s->line == ln && s->thread == id) {
            /* under the line's lock: one writer per (line, site) */
            s->flags |= (write & SH_WRITE ? PI_ACCESS_WRITE : 0) | (is_read(write) ? PI_ACCESS_READ : 0);
            s->accesses += weight;
            s->mask |= bytes;
            s->rt += rel == 1 ? rel_w : 0;
            s->rf += rel == 2 ? rel_w : 0;
            return;
        }
    }
    __atomic_fetch_add(&sites_lost, 1, __ATOMIC_RELAXED);
}

/* The shared state: coherence, classification, counts.  Line lock held. */
static void shared_access(struct sh_line *l, uint8_t id, uint64_t bytes, unsigned off, int write, uint64_t pc,
                          const char *what)
{
    struct sh_ext *e = l->ext;
    struct sh_te *t = sh_entry(e, id);
    int rel = sh_coherence(e, t, id, bytes, write);
    if (rel == SH_TRUE) {
        t->rt++;
        e->area_true[off / 8]++;
    } else if (rel == SH_FALSE) {
        t->rf++;
        e->area_false[off / 8]++;
    }
    if (write) {
        t->w |= bytes;
        t->writes++;
    } else {
        t->r |= bytes;
        t->reads++;
    }
    if (rel || t->cpu == ~0u) /* the CPU where the line moved to (asking costs; hits do not) */
        t->cpu = (uint32_t)sched_getcpu();
    site_add(pc, (l->key - 1) * PI_SHARE_LINE, id, write, bytes, 1, rel, 1, what);
}

/* (Stored only when it changes: the shadow's line is read by every
 * thread's checks, and a store, even of the same value, takes it from them.) */
static void set_byte(uint64_t ln, uint8_t b)
{
    if (!__perfinst_share_shadow || !footprint) /* PERFINST_SHARING_SAMPLE=0: every access calls */
        return;
    uint8_t *p = &__perfinst_share_shadow[ln & SH_LINE_MASK];
    if (__atomic_load_n(p, __ATOMIC_RELAXED) != b)
        __atomic_store_n(p, b, __ATOMIC_RELEASE);
}

/* Judge a window: the access that closes it is a reload when another thread
 * wrote since the window opened (t's copy is invalid), true sharing when
 * they wrote bytes it touches.  Each judged access stands for `period`. */
static int judge(struct sh_ext *e, struct sh_te *t, uint64_t bytes, unsigned off)
{
    t->armed = 0;
    e->windows--;
    if (e->valid & (1ull << (t->id & 63)))
        return 0;
    int rel = sh_reload_kind(t, bytes);
    if (rel == SH_TRUE) {
        t->rt += period;
        e->area_true[off / 8] += period;
    } else {
        t->rf += period;
        e->area_false[off / 8] += period;
    }
    return rel;
}

/* Sampled mode (period > 1), line lock held: a call for a shared line,
 * either a sample (the countdown reached 0) or an access during a window. */
static void sampled_access(struct sh_line *l, uint64_t ln, uint8_t id, uint64_t bytes, unsigned off, int write,
                           uint64_t pc, const char *what, int fired)
{
    struct sh_ext *e = l->ext;
    struct sh_te *t = sh_entry(e, id);
    uint64_t bit = 1ull << (id & 63);
    uint64_t at = (l->key - 1) * PI_SHARE_LINE;
    int sample = fired;
    if (!sample) { /* a call the countdown did not make (a window, a first touch): it counts too */
        if (__perfinst_share_countdown <= 1) {
            sample = 1;
            __perfinst_share_countdown = next_countdown();
        } else
            __perfinst_share_countdown--;
    }
    int rel = t->armed ? judge(e, t, bytes, off) : 0;
    if (sample) {
        if (write & SH_WRITE)
            t->writes += period;
        if (is_read(write))
            t->reads += period;
        t->armed = 1;
        t->armed_off = (uint8_t)off;
        t->armed_bytes = bytes;
        t->armed_pc = pc;
        t->armed_what = what;
        e->windows++; /* the byte says so at the end (below) */
        e->watch_calls = 0;
    }
    /* coherence, as in shared_access (a read-modify-write: its read judged
     * above, then the write) */
    t->seen = 1;
    t->pending = 0;
    e->valid |= bit;
    if (is_read(write))
        t->r |= bytes;
    if (write & SH_WRITE) {
        for (uint32_t i = 0; i < e->n; i++)
            if (&e->t[i] != t)
                e->t[i].pending |= bytes;
        e->valid = bit;
        t->w |= bytes;
    }
    if (rel || t->cpu == ~0u)
        t->cpu = (uint32_t)sched_getcpu();
    if (sample || rel)
        site_add(pc, at, id, write, bytes, sample ? period : 0, rel, period, what);
    if (e->windows && !sample && ++e->watch_calls > SH_WATCH_MAX) {
        /* a window's thread has not come back (descheduled, or done with the
         * line): judge its next access as it stands now, with the bytes of
         * the access that opened the window */
        for (uint32_t i = 0; i < e->n; i++) {
            struct sh_te *o = &e->t[i];
            if (!o->armed)
                continue;
            int r = judge(e, o, o->armed_bytes, o->armed_off);
            if (r)
                site_add(o->armed_pc, at, o->id, 0, o->armed_bytes, 0, r, period, o->armed_what);
        }
        e->windows = 0;
    }
    /* Open windows make every access to the line call, closed ones let the
     * countdown sample again.  A window opens here, as the sampling call
     * ends, not when it started: the access it stands for happens after
     * the call returns, so other threads' writes meanwhile precede it (and
     * do not invalidate its copy); their accesses meanwhile need not call. */
    set_byte(ln, e->windows ? SH_SHARED_BYTE : SH_SAMPLED_BYTE);
}

static __attribute__((noinline)) void slow(struct sh_line *l, uint64_t ln, uint8_t id, uint64_t bytes, unsigned off,
                                           int write, uint64_t pc, const char *what, int fired, int solo_too)
{
    lock(l);
    if (!l->shared) {
        if (l->owner == id && !solo_too) { /* a race with the line's creation: still private */
            if (write & SH_WRITE)
                l->o_w |= bytes, l->o_writes++;
            if (is_read(write))
                l->o_r |= bytes, l->o_reads++;
            unlock(l);
            return;
        }
        struct sh_ext *e = calloc(1, sizeof *e);
        if (!e) {
            unlock(l);
            return;
        }
#ifdef __SANITIZE_ADDRESS__
        /* Kept until exit, but only the mmap'ed lines point to it: memory
         * LeakSanitizer does not scan. */
        __lsan_ignore_object(e);
#endif
        /* the owner, as it was: one valid copy, seen */
        struct sh_te *o = sh_entry(e, l->owner);
        o->seen = 1;
        o->r = l->o_r;
        o->w = l->o_w;
        o->reads = l->o_reads;
        o->writes = l->o_writes;
        e->valid = 1ull << (l->owner & 63);
        if (solo_too && l->owner != SH_SOLO_ID) {
            /* the solo thread turned the claimed byte into its id after the
             * phase ended and this line's record was made: it touched it */
            struct sh_te *s = sh_entry(e, SH_SOLO_ID);
            s->seen = 1;
            e->valid |= 1ull << (SH_SOLO_ID & 63);
        }
        l->ext = e;
        __atomic_store_n(&l->shared, 1, __ATOMIC_RELEASE);
        /* every thread's accesses to it call now, or are sampled */
        set_byte(ln, period > 1 ? SH_SAMPLED_BYTE : SH_SHARED_BYTE);
    }
    if (period > 1)
        sampled_access(l, ln, id, bytes, off, write, pc, what, fired);
    else {
        if (write == SH_RMW)
            shared_access(l, id, bytes, off, 0, pc, what);
        shared_access(l, id, bytes, off, write & SH_WRITE, pc, what);
    }
    unlock(l);
}

static void access1(uintptr_t a, unsigned size, int write, uint64_t pc, const char *what)
{
    /* the inlined countdown reached 0: this access is a sample (restart it
     * here whatever the line turns out to be, or it would wrap) */
    int fired = __perfinst_share_countdown == 0;
    if (fired)
        __perfinst_share_countdown = next_countdown();
    uint8_t id = my_id;
    if (__builtin_expect(id == SH_NO_ID, 0)) {
        if (__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1) {
            sh_init();
            if (sh_state != 1)
                return;
        }
        id = new_id();
    }
    uint64_t ln = a / PI_SHARE_LINE;
    unsigned off = (unsigned)(a % PI_SHARE_LINE);
    uint64_t bytes = bytes_of(off, size);
    if (id == SH_SOLO_ID && __atomic_load_n(&solo, __ATOMIC_ACQUIRE) && footprint && __perfinst_share_shadow) {
        uint8_t *b = &__perfinst_share_shadow[ln & SH_LINE_MASK];
        if (__atomic_load_n(b, __ATOMIC_RELAXED) == SH_CLAIM_BYTE) { /* a line of a claimed page: touched */
            __atomic_store_n(b, SH_SOLO_ID, __ATOMIC_RELEASE);
            return;
        }
        if (solo_touch(ln))
            return;
    }
    uint32_t k = __atomic_load_n(&ishadow[ln & SH_LINE_MASK], __ATOMIC_ACQUIRE);
    struct sh_line *l = k ? &lines[k - 1] : NULL;
    if (__builtin_expect(!l || l->key != ln + 1, 0)) {
        l = line_get(ln, id);
        if (!l)
            return;
    }
    int solo_too = 0;
    if (__builtin_expect(l->owner == id && !__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE), 1)) {
        /* private: only this thread ever touched the line -- unless the solo
         * thread turned its claimed byte into its id meanwhile */
        if (__builtin_expect(id != SH_SOLO_ID && __perfinst_share_shadow &&
                             __atomic_load_n(&__perfinst_share_shadow[ln & SH_LINE_MASK], __ATOMIC_ACQUIRE) ==
                                 SH_SOLO_ID, 0)) {
            solo_too = 1;
            goto shared;
        }
        if (write & SH_WRITE) {
            if ((l->o_w & bytes) != bytes)
                l->o_w |= bytes;
            l->o_writes++;
        }
        if (is_read(write)) {
            if ((l->o_r & bytes) != bytes)
                l->o_r |= bytes;
            l->o_reads++;
        }
        if (footprint && l->o_reads + l->o_writes - footprint <= 1 && __perfinst_share_shadow) { /* an RMW counts 2 */
            /* seen enough: the inlined check skips the call from now on,
             * unless another thread arrives (the byte becomes SH_SHARED_BYTE) */
            uint8_t none = 0;
            __atomic_compare_exchange_n(&__perfinst_share_shadow[ln & SH_LINE_MASK], &none, id, 0,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED);
            /* a second thread may have made it shared meanwhile */
            if (__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE)) {
                lock(l);
                if (!l->ext || !l->ext->windows)
                    set_byte(ln, period > 1 ? SH_SAMPLED_BYTE : SH_SHARED_BYTE);
                unlock(l);
            }
        }
        return;
    }
shared:
    slow(l, ln, id, bytes, off, write, pc, what, fired, solo_too);
}

PI_EXPORT void __perfinst_share(const void *addr, uint32_t info, const char *what)
{
    uintptr_t a = (uintptr_t)addr;
    unsigned size = (info & 0x7fffffffu) >> 1 ? (info & 0x7fffffffu) >> 1 : 1;
    int kind = (int)(info & 1) | (int)(info >> 31) << 1;
    uint64_t pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
    if (__builtin_expect(a % PI_SHARE_LINE + size <= PI_SHARE_LINE, 1)) {
        access1(a, size, kind, pc, what);
        return;
    }
    /* an access that crosses lines (or a large copy): each line's part */
    for (uintptr_t p = a, end = a + size; p < end;) {
        uintptr_t next = (p / PI_SHARE_LINE + 1) * PI_SHARE_LINE;
        unsigned part = (unsigned)((next < end ? next : end) - p);
        access1(p, part, kind, pc, what);
        p = next;
        if (p - a > 1u << 20)
            break; /* a huge block copy: the first MiB stands for it */
    }
}

/* ---- heap objects ------------------------------------------------------------ */

static void note_alloc(void *p, size_t size, uint32_t kind, uint64_t pc)
{
    if (!p)
        return;
    if (__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1) {
        sh_init();
        if (sh_state != 1)
            return;
    }
    uint32_t i = __atomic_fetch_add(&nallocs, 1, __ATOMIC_RELAXED);
    if (i >= ALLOC_MAX) {
        __atomic_fetch_add(&allocs_lost, 1, __ATOMIC_RELAXED);
        return;
    }
    struct sh_alloc *o = &allocs[i];
    o->addr = (uintptr_t)p;
    o->size = size;
    o->seq = __atomic_add_fetch(&alloc_seq, 1, __ATOMIC_RELAXED);
    uint32_t seen = __atomic_fetch_add(
        &stack_site_allocs[(pc * 0x9e3779b97f4a7c15ull) >> (64 - SH_STACK_SITES_BITS)], 1, __ATOMIC_RELAXED);
    if (seen < SH_STACKS_FULL || seen % SH_STACKS_FULL == 0 || stack_frames == 1)
        o->nframes = pi_stack_from(pc, o->frames, stack_frames);
    else {
        o->frames[0] = pc;
        o->nframes = 1;
    }
    o->kind = kind;
    o->thread = my_id != SH_NO_ID ? my_id : new_id();
    __atomic_store_n(&o->ready, 1, __ATOMIC_RELEASE);
    uint64_t h = ((uintptr_t)p * 0x9e3779b97f4a7c15ull) >> (64 - ALLOC_HASH_BITS);
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t *slot = &alloc_hash[(h + k) & ((1u << ALLOC_HASH_BITS) - 1)];
        uint32_t cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        if (cur && allocs[cur - 1].addr != (uintptr_t)p && !allocs[cur - 1].freed)
            continue; /* another live object */
        __atomic_store_n(slot, i + 1, __ATOMIC_RELEASE);
        break;
    }
}

static void note_free(uintptr_t p)
{
    if (!p || __atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1)
        return;
    uint64_t h = (p * 0x9e3779b97f4a7c15ull) >> (64 - ALLOC_HASH_BITS);
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t cur = __atomic_load_n(&alloc_hash[(h + k) & ((1u << ALLOC_HASH_BITS) - 1)], __ATOMIC_ACQUIRE);
        if (!cur)
            return;
        struct sh_alloc *o = &allocs[cur - 1];
        if (o->addr == p && !o->freed) {
            o->freed = 1;
            return;
        }
    }
}

#define PC ((uint64_t)(uintptr_t)__builtin_return_address(0))

PI_EXPORT void *__perfinst_share_malloc(size_t size)
{
    void *p = malloc(size);
    note_alloc(p, size, 1, PC);
    return p;
}

PI_EXPORT void *__perfinst_share_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    note_alloc(p, n * size, 2, PC);
    return p;
}

PI_EXPORT void *__perfinst_share_realloc(void *old, size_t size)
{
    /* marked freed first (a failed realloc keeps the object, rarely) */
    note_free((uintptr_t)old);
    void *p = realloc(old, size);
    note_alloc(p, size, 3, PC);
    return p;
}

PI_EXPORT void *__perfinst_share_aligned_alloc(size_t align, size_t size)
{
    void *p = aligned_alloc(align, size);
    note_alloc(p, size, 4, PC);
    return p;
}

PI_EXPORT int __perfinst_share_posix_memalign(void **out, size_t align, size_t size)
{
    int rc = posix_memalign(out, align, size);
    if (!rc)
        note_alloc(*out, size, 5, PC);
    return rc;
}

PI_EXPORT void __perfinst_share_free(void *p)
{
    note_free((uintptr_t)p);
    free(p);
}

/* The repair (align-alloc): the object starts a line and owns whole lines. */
static size_t whole_lines(size_t n)
{
    return n ? (n + PI_SHARE_LINE - 1) / PI_SHARE_LINE * PI_SHARE_LINE : PI_SHARE_LINE;
}

PI_EXPORT void *__perfinst_line_malloc(size_t size)
{
    if (size > SIZE_MAX - PI_SHARE_LINE) {
        errno = ENOMEM;
        return NULL;
    }
    return aligned_alloc(PI_SHARE_LINE, whole_lines(size));
}

PI_EXPORT void *__perfinst_line_calloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - PI_SHARE_LINE) / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __perfinst_line_malloc(n * size);
    if (p)
        memset(p, 0, whole_lines(n * size));
    return p;
}

PI_EXPORT void *__perfinst_line_realloc(void *old, size_t size)
{
    if (!old)
        return __perfinst_line_malloc(size);
    if (!size) {
        free(old);
        return NULL;
    }
    void *p = __perfinst_line_malloc(size);
    if (!p)
        return NULL;
    size_t had = malloc_usable_size(old);
    memcpy(p, old, had < size ? had : size);
    free(old);
    return p;
}

/* ---- the trace ------------------------------------------------------------------- */

int pi_sharing_active(void)
{
    return __atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) == 1;
}

/* The code addresses the records name, for the modules the trace must list
 * (normal context, pi.lock held). */
void pi_sharing_modules_locked(void (*note)(uintptr_t pc))
{
    if (!pi_sharing_active())
        return;
    uint32_t ns = __atomic_load_n(&nsites_used, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < ns && j < (1u << SITE_BITS); j++) {
        uint32_t i = __atomic_load_n(&site_list[j], __ATOMIC_ACQUIRE);
        uint64_t k = i ? __atomic_load_n(&sites[i - 1].key, __ATOMIC_ACQUIRE) : 0;
        if (k && k != SH_BUSY)
            note((uintptr_t)sites[i - 1].pc);
    }
    uint32_t n = __atomic_load_n(&nallocs, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n && i < ALLOC_MAX; i++)
        if (__atomic_load_n(&allocs[i].ready, __ATOMIC_ACQUIRE))
            for (uint32_t k = 0; k < allocs[i].nframes; k++)
                note((uintptr_t)allocs[i].frames[k]);
}

static void put_line(struct pi_rec_writer *w, struct sh_line *l)
{
    struct pi_rec_share_line r = {.addr = (l->key - 1) * PI_SHARE_LINE};
    struct pi_share_thr th[SH_LT];
    uint32_t n = 0;
    struct sh_ext *e = __atomic_load_n(&l->shared, __ATOMIC_ACQUIRE) ? l->ext : NULL;
    if (e) {
        for (uint32_t i = 0; i < e->n && i < SH_LT; i++) {
            const struct sh_te *t = &e->t[i];
            th[n++] = (struct pi_share_thr){.thread = t->id, .cpu = t->cpu, .rmask = t->r, .wmask = t->w,
                                            .reads = t->reads, .writes = t->writes,
                                            .reloads_true = t->rt, .reloads_false = t->rf};
            r.reloads_true += t->rt;
            r.reloads_false += t->rf;
        }
        memcpy(r.area_true, e->area_true, sizeof r.area_true);
        memcpy(r.area_false, e->area_false, sizeof r.area_false);
    } else {
        th[n++] = (struct pi_share_thr){.thread = l->owner, .cpu = ~0u, .rmask = l->o_r, .wmask = l->o_w,
                                        .reads = l->o_reads, .writes = l->o_writes};
    }
    r.nthreads = n;
    w->begin(PI_REC_SHARE_LINE);
    w->put(&r, sizeof r);
    w->put(th, n * sizeof th[0]);
    w->end();
}

/* PERFINST_SHARING_PRIVATE=N: also write up to N lines only one thread
 * touched (default 65536; they let pmopt predict sharing under other
 * placements) when the process had more than one thread. */
void pi_sharing_write(struct pi_rec_writer *w)
{
    if (!pi_sharing_active())
        return;
    uint32_t nt = __atomic_load_n(&nthreads_seen, __ATOMIC_RELAXED);
    for (uint32_t i = 1; i <= nt && i <= SH_MAXID; i++) {
        struct pi_rec_share_thread r = {.thread = i, .tid = threads[i].tid, .cpu = threads[i].cpu, .period = period};
        w->begin(PI_REC_SHARE_THREAD);
        w->put(&r, sizeof r);
        w->end();
    }
    static uint64_t private_max = 65536;
    static int env_read;
    if (!env_read) {
        env_read = 1;
        const char *v = secure_getenv("PERFINST_SHARING_PRIVATE");
        if (v)
            pi_env_sharing_private(v, &private_max);
    }
    uint64_t privates = 0;
    uint32_t n = __atomic_load_n(&nused, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n; i++) {
        if (i >= (1u << line_bits))
            break;
        struct sh_line *l = &lines[i];
        uint64_t k = __atomic_load_n(&l->key, __ATOMIC_ACQUIRE);
        if (!k || k == SH_BUSY)
            continue;
        if (!__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE)) {
            if (nt < 2 || privates >= private_max || !(l->o_reads + l->o_writes))
                continue; /* (none: a line the solo thread touched, not since) */
            privates++;
        }
        put_line(w, l);
    }
    uint32_t ns = __atomic_load_n(&nsites_used, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < ns && j < (1u << SITE_BITS); j++) {
        uint32_t i = __atomic_load_n(&site_list[j], __ATOMIC_ACQUIRE);
        if (!i)
            continue;
        const struct sh_site *s = &sites[i - 1];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (!k || k == SH_BUSY)
            continue;
        struct pi_rec_share_site r = {.pc = s->pc, .line = s->line, .thread = s->thread, .flags = s->flags,
                                      .accesses = s->accesses, .reloads_true = s->rt,
                                      .reloads_false = s->rf, .mask = s->mask};
        size_t len = s->what ? strnlen(s->what, 255) : 0;
        r.what_len = len ? (uint32_t)len + 1 : 0;
        w->begin(PI_REC_SHARE_SITE);
        w->put(&r, sizeof r);
        if (len) {
            w->put(s->what, len);
            w->put("", 1);
        }
        w->end();
    }
    uint32_t na = __atomic_load_n(&nallocs, __ATOMIC_RELAXED);
    for (uint32_t i = 0; nt >= 2 && i < na && i < ALLOC_MAX; i++) {
        const struct sh_alloc *o = &allocs[i];
        if (!__atomic_load_n(&o->ready, __ATOMIC_ACQUIRE))
            continue;
        struct pi_rec_share_alloc r = {.addr = o->addr, .size = o->size, .seq = o->seq, .thread = o->thread,
                                       .kind = o->kind, .freed = o->freed, .nframes = o->nframes};
        w->begin(PI_REC_SHARE_ALLOC);
        w->put(&r, sizeof r);
        w->put(o->frames, o->nframes * sizeof o->frames[0]);
        w->end();
    }
    uint64_t lost = lines_lost + sites_lost + allocs_lost;
    if (lost && pi.verbose) {
        char b[24];
        pi_say("perfinst: sharing: ", pi_fmt_u64(b, lost, 10),
               " lines, sites or objects did not fit in the shadow (PERFINST_SHARING_LINES)\n", NULL);
    }
}
