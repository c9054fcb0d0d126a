/* indicators.c — indicators that act: trap, threshold, cycles, trace regions
 * (seeds 000/002/004: interrupt on execution, execution-count thresholds with
 * a stack walk and a reset, latency thresholds, start/stop counting).
 *
 * The plugin calls these probes only from the counting copy of a function
 * (gcc-plugin/pass-count.cc inserts them, pass-split.cc removes them from the
 * clean copy), so PERFINST_MODE=off silences them with everything else.
 *
 *   __perfinst_trap(U, S)               each execution: the TRAP vector's handler
 *   __perfinst_threshold(U, S, N, h)    the N-th execution in this thread: h (or
 *                                       the THRESHOLD vector) with the stack; the
 *                                       thread's count restarts from 0 ("reach N")
 *   t0 = __perfinst_cycles_begin()      rdtsc
 *   __perfinst_cycles_end(U,S,t0,N,c,h) cycles = rdtsc - t0 - the probe pair's own
 *                                       cost; over N (or the code table's value
 *                                       for c): counted, and the CYCLES vector runs
 *   __perfinst_trace_start/stop(U, S)   the thread's counters at start and stop:
 *                                       their differences are summed per start site
 *
 * What the probes saw goes into the trace as SITESTAT records (per site and
 * kind: executions, hits, cycles sum/min/max), EVENT records (each threshold
 * event with its stack, up to PERFINST_EVENTS) and TRACEREG records (per
 * trace_start site and unit, the summed counter differences).  Statistics
 * live in fixed tables updated with atomics, so the fatal-signal path can
 * write them without a lock.
 *
 * Bounded tables: the statistics and the watched words are open-addressed
 * tables whose size is fixed at start-up (PERFINST_SITESTATS,
 * PERFINST_WATCH_WORDS), and a lookup takes at most PI_PROBES probes
 * whatever the fill — a word that finds no entry costs the same as one
 * that does (a full table of 65,536 words used to make each untracked
 * access scan all of it).  What finds no entry is counted, and the trace
 * says so in LOST records (pmopt report prints them): for watched words
 * the accesses lost exactly, and the words (linear counting of their
 * addresses in a 2^18-bit sketch: within a few percent up to millions).
 * Events past PERFINST_EVENTS, trace regions nested past PI_TRACE_DEPTH:
 * counted the same way.  The per-thread threshold counters grow instead.
 */
#include "runtime.h"
#include "env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <x86intrin.h>

/* ---- handler vectors ------------------------------------------------------ */

static perfinst_handler vectors[4];

PI_EXPORT perfinst_handler perfinst_set_handler(int kind, perfinst_handler h)
{
    if (kind == PERFINST_EV_COMBINE || kind == PERFINST_EV_SECONDARY)
        return pi_armed_set_handler(kind, h); /* armed.c */
    if (kind < PERFINST_EV_TRAP || kind > PERFINST_EV_CYCLES)
        return NULL;
    return __atomic_exchange_n(&vectors[kind], h, __ATOMIC_ACQ_REL);
}

/* ---- statistics per (unit, site, kind) ------------------------------------ */

#define PI_PROBES 32        /* the most slots a lookup of stats[] or words[] looks at */
#define PI_STATS_DEFAULT 4096
struct stat_slot {
    uint64_t key;        /* 0 free; else hash of (unit, site, kind) | 1 */
    uint64_t unit_id;
    uint32_t site, kind;
    uint64_t count, execs, sum, min, max;
};
static struct stat_slot stats_static[PI_STATS_DEFAULT];
static struct stat_slot *stats = stats_static;
static uint32_t stats_cap = PI_STATS_DEFAULT; /* a power of two (PERFINST_SITESTATS) */
static uint64_t stats_lost; /* updates that found no slot */

/* The slot of hash key among cap (a power of two): its high bits. */
static inline uint32_t slot_of(uint64_t key, uint32_t cap)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The slot key: a multiply-xorshift mix (a dozen instructions; the byte-
 * wise FNV it replaces was ~100 of a trap's ~300).  Never 0 (free) or ~0
 * (being filled); slots also compare unit, site and kind. */
static uint64_t stat_key(uint64_t unit_id, uint32_t site, uint32_t kind)
{
    uint64_t x = unit_id ^ (((uint64_t)site << 8 | kind) * 0x9e3779b97f4a7c15ull);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    return pi_slot_key(x ^ x >> 29);
}

/* Whether any slot of stats[] / words[] was ever claimed: the trace writer
 * skips scanning the whole tables (~600 k instructions at every exit of a
 * program that uses neither, e.g. all=count run with PERFINST_MODE=off). */
static int stats_used, words_used;

static struct stat_slot *stat_get(uint64_t unit_id, uint32_t site, uint32_t kind)
{
    uint64_t key = stat_key(unit_id, site, kind);
    uint32_t h = slot_of(key, stats_cap);
    for (uint32_t i = 0; i < PI_PROBES; i++) {
        struct stat_slot *s = &stats[(h + i) & (stats_cap - 1)];
        uint64_t k = pi_slot_take(&s->key);
        if (k == 0) {
            __atomic_store_n(&stats_used, 1, __ATOMIC_RELAXED);
            s->unit_id = unit_id;
            s->site = site;
            s->kind = kind;
            s->min = UINT64_MAX;
            __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
            return s;
        }
        if (k == key && s->unit_id == unit_id && s->site == site && s->kind == kind)
            return s;
    }
    __atomic_fetch_add(&stats_lost, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void stat_value(struct stat_slot *s, uint64_t v)
{
    __atomic_fetch_add(&s->sum, v, __ATOMIC_RELAXED);
    uint64_t m = __atomic_load_n(&s->min, __ATOMIC_RELAXED);
    while (v < m && !__atomic_compare_exchange_n(&s->min, &m, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    m = __atomic_load_n(&s->max, __ATOMIC_RELAXED);
    while (v > m && !__atomic_compare_exchange_n(&s->max, &m, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* ---- stacks --------------------------------------------------------------- */

/* Fill ev's stack: frames[0] = pc (the probe's return address, in the marked
 * code), then its callers. */
static void take_stack(struct perfinst_event *ev, uintptr_t pc)
{
    ev->pc = pc;
    ev->nframes = (int)pi_stack_from(pc, ev->frames, PERFINST_MAX_FRAMES);
}

/* ---- threshold events, kept for the trace --------------------------------- */

#define PI_EVENTS_DEFAULT 4096
struct event_slot {
    int ready;
    uint32_t tid;
    struct perfinst_event ev;
};
static struct event_slot events_static[PI_EVENTS_DEFAULT];
static struct event_slot *events = events_static;
static uint32_t events_cap = PI_EVENTS_DEFAULT; /* PERFINST_EVENTS */
static uint32_t nevents;  /* events seen; those past events_cap are counted, not kept */

static void keep_event(const struct perfinst_event *ev)
{
    uint32_t i = __atomic_fetch_add(&nevents, 1, __ATOMIC_RELAXED);
    if (i >= events_cap)
        return; /* counted in SITESTAT all the same, and in the LOST record */
    events[i].ev = *ev;
    events[i].tid = (uint32_t)pi.pid; /* replaced below when the thread is known */
    if (pi_self)
        events[i].tid = (uint32_t)pi_self->tid;
    __atomic_store_n(&events[i].ready, 1, __ATOMIC_RELEASE);
}

static void fire(int kind, perfinst_handler own, struct perfinst_event *ev)
{
    perfinst_handler h = own ? own : __atomic_load_n(&vectors[kind], __ATOMIC_ACQUIRE);
    if (h)
        h(ev);
}

/* ---- the probes ----------------------------------------------------------- */

PI_EXPORT void __perfinst_trap(uint64_t unit_id, uint32_t site)
{
    struct stat_slot *s = stat_get(unit_id, site, PI_STAT_TRAP);
    if (s) {
        __atomic_fetch_add(&s->execs, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
    }
    perfinst_handler h = __atomic_load_n(&vectors[PERFINST_EV_TRAP], __ATOMIC_ACQUIRE);
    if (!h)
        return;
    /* The stack is not walked here (~20,700 instructions per execution on
       SQLite with libgcc's unwinder): frames[0] = pc only, and the handler
       asks for the callers with perfinst_event_stack(ev) while it runs. */
    struct perfinst_event ev; /* not zeroed: frames[1..] are filled on demand */
    ev.kind = PERFINST_EV_TRAP;
    ev.site = site;
    ev.unit_id = unit_id;
    ev.value = 0;
    ev.pc = (uintptr_t)__builtin_return_address(0);
    ev.frames[0] = ev.pc;
    ev.nframes = 1;
    h(&ev);
}

/* The callers of a trap event, walked on demand from inside its handler:
 * the probe that called the handler is still on the stack, so the walk
 * finds ev->pc (the probe's return address) and records from there.  The
 * event lives in the probe's frame (not const there); once the handler has
 * returned the frame is gone and only frames[0] = pc remains.  Events that
 * already carry their stack (threshold, cycles, combine) are left alone. */
PI_EXPORT int perfinst_event_stack(const struct perfinst_event *cev)
{
    struct perfinst_event *ev = (struct perfinst_event *)cev;
    if (!ev || ev->nframes > 1 || !ev->pc)
        return ev ? ev->nframes : 0;
    ev->nframes = (int)pi_stack_from(ev->pc, ev->frames, PERFINST_MAX_FRAMES);
    return ev->nframes;
}

/* Per-thread execution counts of threshold sites: a small open-addressed
 * table in TLS (the seeds' narrow per-instruction counter, reset on use). */
#define PI_THR_SLOTS 64 /* to start with: doubled when half full */
struct thr_slot {
    uint64_t unit_id;
    uint32_t site;
    uint32_t used;
    uint64_t count;
};
/* Allocated on a thread's first threshold probe: libperfinst may arrive with
 * dlopen (as the dependency of an instrumented library), when its whole TLS
 * block must fit in glibc's small static-TLS reserve, so it keeps only
 * pointers there.  Freed when the thread ends (pi_indicators_thread_exit).
 * Only its own thread touches it, so it grows (a thread that met more than
 * 64 threshold sites used to lose the others' thresholds silently). */
static __thread struct thr_slot *thr_table;
static __thread uint32_t thr_cap, thr_used;

static struct thr_slot *thr_find(struct thr_slot *tab, uint32_t cap, uint64_t unit_id, uint32_t site)
{
    uint32_t h = (uint32_t)(unit_id ^ (unit_id >> 32)) * 2654435761u + site;
    for (uint32_t i = 0;; i++) { /* never full: at most half */
        struct thr_slot *t = &tab[(h + i) & (cap - 1)];
        if (!t->used || (t->unit_id == unit_id && t->site == site))
            return t;
    }
}

static struct thr_slot *thr_get(uint64_t unit_id, uint32_t site)
{
    if (!thr_table) {
        if (!(thr_table = calloc(PI_THR_SLOTS, sizeof *thr_table)))
            return NULL;
        thr_cap = PI_THR_SLOTS;
        thr_used = 0;
    }
    if (2 * (thr_used + 1) > thr_cap) {
        struct thr_slot *n = calloc(2 * (size_t)thr_cap, sizeof *n);
        if (n) {
            for (uint32_t i = 0; i < thr_cap; i++)
                if (thr_table[i].used)
                    *thr_find(n, 2 * thr_cap, thr_table[i].unit_id, thr_table[i].site) = thr_table[i];
            free(thr_table);
            thr_table = n;
            thr_cap *= 2;
        } else if (thr_used + 1 >= thr_cap) {
            return NULL;
        }
    }
    struct thr_slot *t = thr_find(thr_table, thr_cap, unit_id, site);
    if (!t->used) {
        t->used = 1;
        t->unit_id = unit_id;
        t->site = site;
        thr_used++;
    }
    return t;
}

PI_EXPORT void __perfinst_threshold(uint64_t unit_id, uint32_t site, uint64_t n, perfinst_handler h)
{
    struct stat_slot *s = stat_get(unit_id, site, PI_STAT_THRESHOLD);
    if (s)
        __atomic_fetch_add(&s->execs, 1, __ATOMIC_RELAXED);
    struct thr_slot *t = thr_get(unit_id, site);
    if (!t || ++t->count < n)
        return;
    t->count = 0; /* the seeds' reset after the interrupt */
    if (s)
        __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
    struct perfinst_event ev = {.kind = PERFINST_EV_THRESHOLD, .site = site, .unit_id = unit_id,
                                .value = n};
    take_stack(&ev, (uintptr_t)__builtin_return_address(0));
    keep_event(&ev);
    pi_armed_primary(unit_id, site); /* flagged hot: a dormant class turns on */
    fire(PERFINST_EV_THRESHOLD, h, &ev);
}

/* The cycles code table: bit k of a 3-bit code adds bits[k] cycles
 * (10/50/100 by default; PERFINST_THRESH_TABLE=a,b,c changes them). */
static uint64_t code_bits[3] = {10, 50, 100};
/* cycles a begin/end pair measures around nothing, plus 1 (0: not yet
   measured: the first cycles probe measures it, not every process's start) */
static uint64_t probe_cost1;

static inline uint64_t tsc_begin(void)
{
    _mm_lfence();
    return __rdtsc();
}

/* `lfence; rdtsc; lfence`, not RDTSCP: the first lfence waits for the
 * measured instructions as RDTSCP would, and RDTSCP is not on every
 * processor (nor in valgrind on one whose CPUID lacks it, whatever the
 * guest's CPUID says: the counting tests run there). */
static inline uint64_t tsc_end(void)
{
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

/* The probe pair's own cost: the least of many empty measurements
 * (threads that race here measure it each, alike). */
static __attribute__((noinline, cold)) uint64_t measure_probe_cost(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000; i++) {
        uint64_t t0 = tsc_begin();
        uint64_t t1 = tsc_end();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    best = best == UINT64_MAX ? 0 : best;
    __atomic_store_n(&probe_cost1, best + 1, __ATOMIC_RELAXED);
    return best;
}

static inline uint64_t probe_cost(void)
{
    uint64_t c = __atomic_load_n(&probe_cost1, __ATOMIC_RELAXED);
    return __builtin_expect(c != 0, 1) ? c - 1 : measure_probe_cost();
}

PI_EXPORT uint64_t __perfinst_cycles_begin(void)
{
    (void)probe_cost(); /* the first begin measures it, outside any region */
    return tsc_begin();
}

uint64_t pi_cycles_threshold(uint64_t threshold, uint32_t code)
{
    if (threshold)
        return threshold;
    uint64_t v = 0;
    for (int k = 0; k < 3; k++)
        if (code & (1u << k))
            v += code_bits[k];
    return v;
}

PI_EXPORT void __perfinst_cycles_end(uint64_t unit_id, uint32_t site, uint64_t t0, uint64_t threshold,
                                     uint32_t code, perfinst_handler h)
{
    uint64_t t1 = tsc_end();
    uint64_t d = t1 - t0;
    uint64_t pc = probe_cost();
    d = d > pc ? d - pc : 0;
    struct stat_slot *s = stat_get(unit_id, site, PI_STAT_CYCLES);
    if (s) {
        __atomic_fetch_add(&s->execs, 1, __ATOMIC_RELAXED);
        stat_value(s, d);
    }
    if (d <= pi_cycles_threshold(threshold, code))
        return;
    if (s)
        __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
    perfinst_handler v = h ? h : __atomic_load_n(&vectors[PERFINST_EV_CYCLES], __ATOMIC_ACQUIRE);
    if (!v)
        return;
    struct perfinst_event ev = {.kind = PERFINST_EV_CYCLES, .site = site, .unit_id = unit_id, .value = d};
    take_stack(&ev, (uintptr_t)__builtin_return_address(0));
    v(&ev);
}

/* ---- trace regions -------------------------------------------------------- */

/* Summed counter differences of one trace_start site, per unit. */
struct trace_acc {
    struct trace_acc *next;
    uint64_t start_unit;
    uint32_t start_site;
    struct pi_unit_rt *unit;
    uint64_t *sum;          /* unit->ncounters */
};
static struct trace_acc *trace_accs;

#define PI_TRACE_DEPTH 8
struct open_trace {
    uint64_t unit_id;
    uint32_t site;
    uint64_t t0;
    uint32_t nunits;
    uint64_t **snap;        /* per unit (registration order): a copy of this thread's counters */
};
static __thread struct open_trace *open_traces; /* PI_TRACE_DEPTH, on first use */
static __thread int trace_depth;
static uint64_t trace_depth_lost; /* intervals opened deeper than PI_TRACE_DEPTH */

PI_EXPORT void __perfinst_trace_start(uint64_t unit_id, uint32_t site)
{
    if (!open_traces && !(open_traces = calloc(PI_TRACE_DEPTH, sizeof *open_traces)))
        return;
    if (trace_depth >= PI_TRACE_DEPTH) {
        trace_depth++; /* too deep: ignored, but keep start/stop balanced */
        __atomic_fetch_add(&trace_depth_lost, 1, __ATOMIC_RELAXED);
        return;
    }
    struct open_trace *o = &open_traces[trace_depth++];
    o->unit_id = unit_id;
    o->site = site;
    pthread_mutex_lock(&pi.lock);
    o->nunits = pi.nunits;
    o->snap = calloc(o->nunits ? o->nunits : 1, sizeof *o->snap);
    uint32_t i = 0;
    for (struct pi_unit_rt *u = pi.units; u && o->snap && i < o->nunits; u = u->next, i++) {
        if (!u->tls_get)
            continue;
        o->snap[i] = malloc(u->ncounters * sizeof(uint64_t));
        if (o->snap[i])
            memcpy(o->snap[i], u->tls_get(), u->ncounters * sizeof(uint64_t));
    }
    pthread_mutex_unlock(&pi.lock);
    pi_perf_start(trace_depth - 1);
    (void)probe_cost();
    o->t0 = tsc_begin();
}

static struct trace_acc *trace_acc_get(uint64_t start_unit, uint32_t start_site, struct pi_unit_rt *u)
{
    for (struct trace_acc *a = trace_accs; a; a = a->next)
        if (a->start_unit == start_unit && a->start_site == start_site && a->unit == u)
            return a;
    struct trace_acc *a = calloc(1, sizeof *a);
    if (!a || !(a->sum = calloc(u->ncounters ? u->ncounters : 1, sizeof(uint64_t)))) {
        free(a);
        return NULL;
    }
    a->start_unit = start_unit;
    a->start_site = start_site;
    a->unit = u;
    PI_STORE(&a->next, trace_accs);
    PI_STORE(&trace_accs, a);
    return a;
}

PI_EXPORT void __perfinst_trace_stop(uint64_t unit_id, uint32_t site)
{
    uint64_t t1 = tsc_end();
    if (trace_depth == 0 || !open_traces)
        return; /* a stop without a start: nothing to close */
    if (trace_depth-- > PI_TRACE_DEPTH)
        return;
    struct open_trace *o = &open_traces[trace_depth];
    pi_perf_stop(trace_depth, o->unit_id, o->site);
    uint64_t d = t1 - o->t0;
    uint64_t pc = probe_cost();
    d = d > pc ? d - pc : 0;
    struct stat_slot *s = stat_get(o->unit_id, o->site, PI_STAT_TRACE);
    if (s) {
        __atomic_fetch_add(&s->execs, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
        stat_value(s, d);
    }
    (void)unit_id;
    (void)site;
    pthread_mutex_lock(&pi.lock);
    uint32_t i = 0;
    for (struct pi_unit_rt *u = pi.units; u && o->snap && i < o->nunits; u = u->next, i++) {
        if (!o->snap[i] || !u->tls_get)
            continue;
        const uint64_t *now = u->tls_get();
        struct trace_acc *a = trace_acc_get(o->unit_id, o->site, u);
        for (uint32_t k = 0; a && k < u->ncounters; k++)
            __atomic_fetch_add(&a->sum[k], now[k] - o->snap[i][k], __ATOMIC_RELAXED);
        free(o->snap[i]);
    }
    pthread_mutex_unlock(&pi.lock);
    free(o->snap);
    o->snap = NULL;
}

/* ---- watched data ----------------------------------------------------------- */

#define PI_WORDS_DEFAULT (1u << 16)
struct word_slot {
    uint64_t addr;          /* 0 free, ~0 being filled */
    uint64_t reads, writes;
};
static struct word_slot words_static[PI_WORDS_DEFAULT];
static struct word_slot *words = words_static;
static uint32_t words_cap = PI_WORDS_DEFAULT; /* a power of two (PERFINST_WATCH_WORDS) */
static uint64_t words_lost;  /* accesses to words that found no slot */
static unsigned watch_gran = 8;
/* The words that found no slot, by linear counting: bit (hash of the word)
 * of 2^18 bits set for each; n ~ -m ln(zeros / m). */
#define PI_SKETCH_BITS 18
static uint64_t lost_sketch[(1u << PI_SKETCH_BITS) / 64];

static void word_lost(uint64_t addr)
{
    __atomic_fetch_add(&words_lost, 1, __ATOMIC_RELAXED);
    uint64_t x = addr / watch_gran; /* murmur3's fmix64: the estimator wants random bits */
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    uint32_t bit = (uint32_t)(x >> (64 - PI_SKETCH_BITS));
    uint64_t m = 1ull << (bit % 64);
    if (!(__atomic_load_n(&lost_sketch[bit / 64], __ATOMIC_RELAXED) & m))
        __atomic_fetch_or(&lost_sketch[bit / 64], m, __ATOMIC_RELAXED);
}

/* ln x for x >= 1 with no libm: x = 2^e f, f in [1, 2), ln f = 2 atanh((f-1)/(f+1)). */
static double ln_ge1(double x)
{
    int e = 0;
    while (x >= 2) {
        x /= 2;
        e++;
    }
    double y = (x - 1) / (x + 1), y2 = y * y, term = y, sum = 0;
    for (int k = 1; k < 40; k += 2) {
        sum += term / k;
        term *= y2;
    }
    return e * 0.69314718055994530942 + 2 * sum;
}

/* The distinct lost words, estimated (linear counting); all bits set: at
 * least m ln m (the estimator's limit). */
static uint64_t words_lost_estimate(void)
{
    const double m = (double)(1u << PI_SKETCH_BITS);
    uint64_t ones = 0;
    for (uint32_t i = 0; i < sizeof lost_sketch / sizeof lost_sketch[0]; i++)
        ones += (uint64_t)__builtin_popcountll(__atomic_load_n(&lost_sketch[i], __ATOMIC_RELAXED));
    double zeros = m - (double)ones;
    return (uint64_t)(m * ln_ge1(m / (zeros > 0 ? zeros : 1)) + 0.5);
}

static struct word_slot *word_get(uint64_t addr, int create)
{
    uint32_t h = slot_of(addr / watch_gran, words_cap);
    for (uint32_t i = 0; i < PI_PROBES; i++) {
        struct word_slot *w = &words[(h + i) & (words_cap - 1)];
        uint64_t a = __atomic_load_n(&w->addr, __ATOMIC_ACQUIRE);
        if (a == 0) {
            if (!create)
                return NULL;
            uint64_t expected = 0;
            if (__atomic_compare_exchange_n(&w->addr, &expected, ~0ULL, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                __atomic_store_n(&words_used, 1, __ATOMIC_RELAXED);
                __atomic_store_n(&w->addr, addr, __ATOMIC_RELEASE);
                return w;
            }
            a = expected;
        }
        while (a == ~0ULL)
            a = __atomic_load_n(&w->addr, __ATOMIC_ACQUIRE);
        if (a == addr)
            return w;
    }
    if (create)
        word_lost(addr);
    return NULL;
}

PI_EXPORT void __perfinst_watch(uint64_t unit_id, uint32_t site, const void *addr, uint32_t size, uint32_t what)
{
    struct stat_slot *s = stat_get(unit_id, site, PI_STAT_WATCH);
    uint64_t first = (uintptr_t)addr / watch_gran * watch_gran;
    uint64_t last = ((uintptr_t)addr + (size ? size : 1) - 1) / watch_gran * watch_gran;
    if (s) {
        __atomic_fetch_add(&s->execs, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->count, (last - first) / watch_gran + 1, __ATOMIC_RELAXED);
    }
    for (uint64_t a = first; a <= last && a != 0; a += watch_gran) {
        struct word_slot *w = word_get(a, 1);
        if (w)
            __atomic_fetch_add(what & PI_ACCESS_WRITE ? &w->writes : &w->reads, 1, __ATOMIC_RELAXED);
    }
}

PI_EXPORT void perfinst_data_count(const void *addr, uint64_t *reads, uint64_t *writes)
{
    struct word_slot *w = word_get((uintptr_t)addr / watch_gran * watch_gran, 0);
    if (reads)
        *reads = w ? __atomic_load_n(&w->reads, __ATOMIC_RELAXED) : 0;
    if (writes)
        *writes = w ? __atomic_load_n(&w->writes, __ATOMIC_RELAXED) : 0;
}

/* ---- set-up and the trace ------------------------------------------------- */

/* A table of n entries of size bytes, zeroed (anonymous memory: pages
 * cost nothing until used), or NULL after a message. */
static void *table_map(const char *var, uint64_t n, size_t size)
{
    void *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p != MAP_FAILED)
        return p;
    pi_say("perfinst: ", var, ": cannot map the table; keeping the default size\n", NULL);
    return NULL;
}

/* The tables' sizes (a table some probe used before start-up keeps its
 * default: its entries are not moved). */
static void tables_init(void)
{
    uint32_t n;
    void *p;
    const char *v = secure_getenv("PERFINST_WATCH_WORDS");
    if (v && !pi_env_watch_words(v, &n) && n != words_cap && !words_used &&
        (p = table_map("PERFINST_WATCH_WORDS", n, sizeof *words))) {
        words = p;
        words_cap = n;
    }
    v = secure_getenv("PERFINST_SITESTATS");
    if (v && !pi_env_sitestats(v, &n) && n != stats_cap && !stats_used &&
        (p = table_map("PERFINST_SITESTATS", n, sizeof *stats))) {
        stats = p;
        stats_cap = n;
    }
    v = secure_getenv("PERFINST_EVENTS");
    if (v && !pi_env_events(v, &n) && n != events_cap && !nevents) {
        if (n <= PI_EVENTS_DEFAULT)
            events_cap = n;
        else if ((p = table_map("PERFINST_EVENTS", n, sizeof *events))) {
            events = p;
            events_cap = n;
        }
    }
}

/* PERFINST_THRESH_TABLE=a,b,c: the cycles meant by code bits 0, 1 and 2. */
void pi_indicators_init(void)
{
    const char *v = secure_getenv("PERFINST_THRESH_TABLE");
    if (v)
        pi_env_thresh_table(v, code_bits);
    v = secure_getenv("PERFINST_WATCH_GRAN");
    if (v)
        pi_env_watch_gran(v, &watch_gran);
    tables_init();
}

uint64_t pi_indicators_probe_cost(void)
{
    return probe_cost();
}

void pi_indicators_write(struct pi_rec_writer *w)
{
    for (uint32_t i = 0; i < stats_cap && __atomic_load_n(&stats_used, __ATOMIC_ACQUIRE); i++) {
        struct stat_slot *s = &stats[i];
        uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (k == 0 || k == ~0ULL)
            continue;
        struct pi_rec_sitestat r = {.unit_id = s->unit_id, .site = s->site, .kind = s->kind,
                                    .count = __atomic_load_n(&s->count, __ATOMIC_RELAXED),
                                    .execs = __atomic_load_n(&s->execs, __ATOMIC_RELAXED),
                                    .sum = __atomic_load_n(&s->sum, __ATOMIC_RELAXED),
                                    .min = __atomic_load_n(&s->min, __ATOMIC_RELAXED),
                                    .max = __atomic_load_n(&s->max, __ATOMIC_RELAXED)};
        if (r.min == UINT64_MAX)
            r.min = 0;
        w->begin(PI_REC_SITESTAT);
        w->put(&r, sizeof r);
        w->end();
    }
    uint32_t n = __atomic_load_n(&nevents, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n && i < events_cap; i++) {
        if (!__atomic_load_n(&events[i].ready, __ATOMIC_ACQUIRE))
            continue;
        const struct perfinst_event *ev = &events[i].ev;
        struct pi_rec_event r = {.unit_id = ev->unit_id, .site = ev->site, .kind = (uint32_t)ev->kind,
                                 .value = ev->value, .tid = events[i].tid,
                                 .nframes = (uint32_t)ev->nframes};
        uint64_t frames[PERFINST_MAX_FRAMES];
        for (int k = 0; k < ev->nframes; k++)
            frames[k] = ev->frames[k];
        w->begin(PI_REC_EVENT);
        w->put(&r, sizeof r);
        w->put(frames, r.nframes * sizeof frames[0]);
        w->end();
    }
    uint32_t nw = 0;
    for (uint32_t i = 0; i < words_cap && __atomic_load_n(&words_used, __ATOMIC_ACQUIRE); i++) {
        uint64_t a = __atomic_load_n(&words[i].addr, __ATOMIC_ACQUIRE);
        nw += a != 0 && a != ~0ULL;
    }
    if (nw) {
        struct pi_rec_watch r = {.gran = watch_gran, .nwords = 0};
        struct pi_watch_word ws[64];
        uint32_t k = 0;
        /* count first so the header is right even if words arrive meanwhile */
        r.nwords = nw;
        w->begin(PI_REC_WATCH);
        w->put(&r, sizeof r);
        uint32_t put = 0;
        for (uint32_t i = 0; i < words_cap && put < nw; i++) {
            uint64_t a = __atomic_load_n(&words[i].addr, __ATOMIC_ACQUIRE);
            if (a == 0 || a == ~0ULL)
                continue;
            ws[k].addr = a;
            ws[k].reads = __atomic_load_n(&words[i].reads, __ATOMIC_RELAXED);
            ws[k].writes = __atomic_load_n(&words[i].writes, __ATOMIC_RELAXED);
            put++;
            if (++k == 64) {
                w->put(ws, sizeof ws);
                k = 0;
            }
        }
        if (k)
            w->put(ws, k * sizeof ws[0]);
        /* a word that vanished meanwhile cannot happen (slots are never freed) */
        w->end();
    }
    pi_armed_write(w, 0);
    for (struct trace_acc *a = PI_LOAD(&trace_accs); a; a = a->next) {
        struct pi_rec_tracereg r = {.start_unit = a->start_unit, .start_site = a->start_site,
                                    .ncounters = a->unit->ncounters, .unit_id = a->unit->unit_id};
        w->begin(PI_REC_TRACEREG);
        w->put(&r, sizeof r);
        w->put(a->sum, a->unit->ncounters * sizeof(uint64_t));
        w->end();
    }
    uint64_t wl = __atomic_load_n(&words_lost, __ATOMIC_RELAXED);
    if (wl)
        pi_lost_write(w, PI_LOST_WATCH, words_cap, wl, words_lost_estimate(), PI_LOST_ESTIMATE);
    pi_lost_write(w, PI_LOST_SITESTAT, stats_cap, __atomic_load_n(&stats_lost, __ATOMIC_RELAXED), 0, 0);
    if (n > events_cap)
        pi_lost_write(w, PI_LOST_EVENTS, events_cap, n - events_cap, 0, 0);
    pi_lost_write(w, PI_LOST_TRACE_DEPTH, PI_TRACE_DEPTH,
                  __atomic_load_n(&trace_depth_lost, __ATOMIC_RELAXED), 0, 0);
}

/* For armed.c: the same stacks and kept events as the threshold probe's. */
void pi_indicators_take_stack(struct perfinst_event *ev, uintptr_t pc)
{
    take_stack(ev, pc);
}

void pi_indicators_keep_event(const struct perfinst_event *ev)
{
    keep_event(ev);
}

/* For narrow.c: count into the SITESTAT (unit, site, kind), and raise its max. */
void pi_indicators_stat_add(uint64_t unit_id, uint32_t site, uint32_t kind, uint64_t count, uint64_t max)
{
    struct stat_slot *s = stat_get(unit_id, site, kind);
    if (!s)
        return;
    __atomic_fetch_add(&s->count, count, __ATOMIC_RELAXED);
    uint64_t m = __atomic_load_n(&s->max, __ATOMIC_RELAXED);
    while (max > m && !__atomic_compare_exchange_n(&s->max, &m, max, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* ---- fork ------------------------------------------------------------------- */

/* In a fork child (pthread_atfork, only the forking thread is left): what the
 * indicators saw before the fork is the parent's, as the counters are
 * (core.c's fork_child zeroes those).  The tables keep their keys (units,
 * sites, watched addresses), only the numbers start afresh; so do the
 * forking thread's threshold counts and the snapshots of its open trace
 * regions (its counters were just zeroed). */
void pi_indicators_after_fork(void)
{
    for (uint32_t i = 0; i < stats_cap && stats_used; i++) {
        stats[i].count = stats[i].execs = stats[i].sum = stats[i].max = 0;
        stats[i].min = UINT64_MAX;
    }
    stats_lost = 0;
    for (uint32_t i = 0; i < events_cap && i < nevents; i++)
        events[i].ready = 0;
    nevents = 0;
    for (uint32_t i = 0; i < words_cap && words_used; i++)
        words[i].reads = words[i].writes = 0;
    words_lost = 0;
    memset(lost_sketch, 0, sizeof lost_sketch);
    trace_depth_lost = 0;
    for (struct trace_acc *a = trace_accs; a; a = a->next)
        memset(a->sum, 0, a->unit->ncounters * sizeof(uint64_t));
    if (thr_table)
        for (uint32_t i = 0; i < thr_cap; i++)
            thr_table[i].count = 0;
    for (int d = 0; open_traces && d < trace_depth && d < PI_TRACE_DEPTH; d++) {
        struct open_trace *o = &open_traces[d];
        uint32_t i = 0;
        for (struct pi_unit_rt *u = pi.units; u && o->snap && i < o->nunits; u = u->next, i++)
            if (o->snap[i])
                memset(o->snap[i], 0, u->ncounters * sizeof(uint64_t));
    }
}

/* The calling thread ends (thread.c's thread_leave): its threshold table and
 * trace-region stack go with it, else every thread that ever hit a threshold
 * or trace_start would leave them behind (1.8 KiB a thread). */
void pi_indicators_thread_exit(void)
{
    free(thr_table);
    thr_table = NULL;
    if (!open_traces)
        return;
    for (int d = 0; d < trace_depth && d < PI_TRACE_DEPTH; d++) {
        for (uint32_t i = 0; open_traces[d].snap && i < open_traces[d].nunits; i++)
            free(open_traces[d].snap[i]);
        free(open_traces[d].snap);
    }
    free(open_traces);
    open_traces = NULL;
    trace_depth = 0;
}
