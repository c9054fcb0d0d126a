/* perfinst.h — the public interface of perfinst.
 *
 * Directives, in two spellings (docs/directives.md has the full reference):
 *
 *     #pragma perfinst count                 // file scope: the next definition
 *     int f(int x) { ... }
 *
 *     int g(int n) {
 *         #pragma perfinst count             // in a body: the next statement
 *         for (int i = 0; i < n; i++) work(i);
 *     }
 *
 *     __attribute__((perfinst("count", "threshold(count=13)"))) int h(void);
 *
 * The macros below produce those spellings when the perfinst plugin is
 * loaded (it defines __PERFINST__) and nothing otherwise, so marked code
 * still builds with a plain compiler:
 *
 *     PERFINST("count") int f(int x) { ... }
 *     PERFINST_PRAGMA(count)
 *
 * The run-time API (libperfinst) is declared after the macros.  The symbols
 * that start with __perfinst_ are the ABI between plugin-generated code and
 * the runtime (docs/runtime.md); programs do not call them.
 */
#ifndef PERFINST_H
#define PERFINST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __PERFINST__
#define PERFINST(...) __attribute__((perfinst(__VA_ARGS__)))
#define PERFINST_PRAGMA(...) _Pragma(PERFINST_STR_(perfinst __VA_ARGS__))
#else
#define PERFINST(...)
#define PERFINST_PRAGMA(...)
#endif
#define PERFINST_STR_(x) #x

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the mode register ---------------------------------------------------
 * On by default; PERFINST_MODE=off in the environment starts it off.  While
 * off, instrumented code counts nothing. */
int perfinst_mode(void);      /* 1 on, 0 off */
void perfinst_enable(void);
void perfinst_disable(void);

/* ---- shadow lookup ---------------------------------------------------------
 * Which shadow item (marked code or data) covers an address, through the
 * translation table the loader stage mapped for the module (seed 004 M12). */
struct perfinst_shadow_item {
    uintptr_t addr;       /* run-time address of the item's first byte */
    uint32_t length;      /* bytes */
    uint32_t site;        /* site index within its unit */
    uint64_t unit_id;
    uint32_t counter;     /* counter index within its unit, or 0xffffffff */
    uint32_t directives;  /* the indicator: PI_D_* bits (perfinst-format.h) */
    uint64_t threshold;
};
const struct perfinst_shadow_item *perfinst_shadow_lookup(const void *addr);

/* The item's execution count so far: counts flushed from finished threads
 * plus the live counts of the calling thread. */
uint64_t perfinst_item_count(const struct perfinst_shadow_item *item);

/* The cache-line size the loader stage uses (sysfs, or PERFINST_LINE_SIZE). */
unsigned perfinst_line_size(void);

/* Write the trace now (to PERFINST_OUT or the default name); counting goes
 * on and the trace is rewritten at exit.  Returns 0, or -1 with errno. */
int perfinst_write_trace(void);

/* ---- indicators that act: handlers ------------------------------------
 * Like an interrupt unit, one handler vector per kind.  A directive's own
 * handler (threshold(count=N, handler=fn)) takes precedence over the
 * vector.  Handlers run synchronously in the thread that executed the
 * marked code; the stack is taken with libgcc's unwinder. */
enum perfinst_event_kind {
    PERFINST_EV_TRAP = 1,      /* each execution of a `trap` site */
    PERFINST_EV_THRESHOLD = 2, /* the N-th execution of a `threshold(count=N)` site */
    PERFINST_EV_CYCLES = 3,    /* an execution over a `cycles(...)` threshold */
};
#define PERFINST_MAX_FRAMES 32
struct perfinst_event {
    int kind;              /* enum perfinst_event_kind */
    uint32_t site;
    uint64_t unit_id;
    uint64_t value;        /* threshold: N; cycles: the cycles measured */
    uintptr_t pc;          /* in the marked code, where the probe ran */
    int nframes;           /* frames[0] = pc, frames[1] = its caller, ... */
    uintptr_t frames[PERFINST_MAX_FRAMES];
};
typedef void (*perfinst_handler)(const struct perfinst_event *ev);
/* Install the handler for one kind; returns the previous one (NULL: none). */
perfinst_handler perfinst_set_handler(int kind, perfinst_handler h);

/* ---- watched data (seeds' ReadDataAccessCount) -----------------------
 * Reads and writes counted so far for the word holding addr (of data marked
 * `watch`; PERFINST_WATCH_GRAN bytes per word, 8 by default), over all
 * threads.  Both 0 for data never accessed or not watched. */
void perfinst_data_count(const void *addr, uint64_t *reads, uint64_t *writes);

/* ---- the performance page table (seed 004 M31) ------------------------
 * Mark a range of memory (data or code): each 4 KiB page it covers gets a
 * page-table entry with the range's offsets, and counts *touches* — the
 * page's first access in an epoch — found with mprotect and a SIGSEGV
 * handler, through a small per-thread look-aside buffer.  When a range's
 * touches reach threshold, 2*threshold, ... (0: never) the handler runs, in
 * the touching thread, inside the signal handler: it must be
 * async-signal-safe.  docs/indicators.md has the details and the limits. */
struct perfinst_page_event {
    int range;             /* the id perfinst_page_range_add returned */
    uintptr_t addr;        /* the address whose access touched the page */
    uintptr_t page;        /* that page */
    uint64_t touches;      /* the range's touches, this one included */
    uint64_t threshold;
    uint64_t epoch;
};
typedef void (*perfinst_page_handler)(const struct perfinst_page_event *ev);
/* A new range, armed at once (touches from now on count in the current
 * epoch).  Returns its id (>= 0), or -1 with errno: EINVAL (len 0, wraps,
 * overlaps a live range), ENOMEM (not mapped, or the table is full),
 * ENOSPC (a page would hold more than 4 ranges). */
int perfinst_page_range_add(const void *addr, size_t len, uint64_t threshold,
                            perfinst_page_handler handler);
/* Stop watching a range (its counts stay, for the trace): 0, or -1 (EINVAL). */
int perfinst_page_range_remove(int range);
/* Begin a new epoch: every watched page is armed again.  Returns its number
 * (the first epoch, begun by the first range, is 1). */
uint64_t perfinst_page_new_epoch(void);
uint64_t perfinst_page_range_touches(int range);   /* 0 for an unknown id */
uint64_t perfinst_page_touches(const void *addr);  /* epochs in which addr's page was touched */
/* The look-aside buffer's hits and misses so far (fault-time lookups). */
void perfinst_page_lookaside(uint64_t *hits, uint64_t *misses);

/* ---- perf_event counters (optional) ---------------------------------
 * PERFINST_PERF=cycles,instructions,cache-misses,task-clock,... opens these
 * per-thread perf events; each trace_start..trace_stop interval adds their
 * differences to its start site (a PERF record in the trace).  An event the
 * machine does not support is left out with one message on stderr.  This
 * reads the calling thread's events now: the number of values stored into
 * values[0..max) (in the order of PERFINST_PERF, unsupported ones left
 * out), 0 when none is in force. */
int perfinst_perf_read(uint64_t *values, int max);
/* The name of the i-th event perfinst_perf_read returns, or NULL. */
const char *perfinst_perf_name(int i);

/* ---- ABI used by plugin-generated code (do not call) ------------------ */
/* Probes of the indicators (docs/indicators.md), called only from the
 * counting copy of a function. */
void __perfinst_trap(uint64_t unit_id, uint32_t site);
void __perfinst_threshold(uint64_t unit_id, uint32_t site, uint64_t n, perfinst_handler h);
uint64_t __perfinst_cycles_begin(void);
void __perfinst_cycles_end(uint64_t unit_id, uint32_t site, uint64_t t0, uint64_t threshold,
                           uint32_t code, perfinst_handler h);
void __perfinst_trace_start(uint64_t unit_id, uint32_t site);
void __perfinst_trace_stop(uint64_t unit_id, uint32_t site);
void __perfinst_watch(uint64_t unit_id, uint32_t site, const void *addr, uint32_t size, uint32_t what);
void __perfinst_register_unit(uint32_t abi_version, uint64_t unit_id,
                              uint32_t ncounters, uint64_t *(*tls_counters)(void),
                              int *mode);
void __perfinst_unregister_unit(uint64_t unit_id, uint64_t *(*tls_counters)(void));
void __perfinst_register_functions(uint64_t unit_id, uint8_t *fnon, uint32_t nfuncs);
extern int __perfinst_on; /* the mode register (split functions without a switch of their own) */

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_H */
