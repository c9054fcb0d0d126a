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
#include <stddef.h>

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

/* Write the trace now (to PERFINST_OUT or the default name), marked partial
 * (PI_TF_PARTIAL: counting goes on); the trace is rewritten at exit.
 * Returns 0, or -1 with errno. */
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
    PERFINST_EV_COMBINE = 10,  /* a counter combination exceeded its threshold */
    PERFINST_EV_SECONDARY = 12, /* a dormant class reached its threshold: level 3 */
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
/* Trap events come with frames[0] = pc only (nframes = 1): walking the
 * stack at every execution would cost ~20,000 instructions.  A handler that
 * wants the callers calls this while it runs; it fills ev->frames and
 * returns ev->nframes (other kinds already have their stack: unchanged). */
int perfinst_event_stack(const struct perfinst_event *ev);

/* ---- watched data (seeds' ReadDataAccessCount) -----------------------
 * Reads and writes counted so far for the word holding addr (of data marked
 * `watch`; PERFINST_WATCH_GRAN bytes per word, 8 by default), over all
 * threads.  Both 0 for data never accessed or not watched. */
void perfinst_data_count(const void *addr, uint64_t *reads, uint64_t *writes);

/* ---- counter combinations (seed 004 M24) -------------------------------
 * A signed linear combination of per-function counters compared with a
 * threshold; the handler runs (with the stack) when it is exceeded, and the
 * combination restarts from zero.  spec, as in PERFINST_COMBINE
 * (docs/indicators.md):
 *     [NAME:] [K*]METRIC(FUNC) {+|- [K*]METRIC(FUNC)} >|>= N
 * METRIC: count (entries), cycles (rdtsc, callees included), insns (static
 * instruction counts x block executions), branch, call, ret, load, store,
 * string, fp (the same per type).  FUNC must be built with function probes
 * (-fplugin-arg-perfinst-combine=marked|all, or dormant(...)).  Evaluated
 * per thread at every change of one of its counters.  Returns the
 * combination's id (>= 0), or -1 with the reason in err. */
int perfinst_combine_add(const char *spec, perfinst_handler h, char *err, size_t errlen);
uint64_t perfinst_combine_hits(int id);  /* times it fired, over all threads */

/* ---- dormant classes and secondary metrics (seed 004 M25) --------------
 * A function marked dormant(types=T...[, threshold=N]) is at level 1: its
 * class is compiled in but not counted.  A primary threshold (its
 * threshold(count=...), or a combination firing in it) flags it hot and
 * turns on level 2 from its next entry: instructions of the class are
 * counted.  When they reach N, level 3 (its cycles are measured too) and
 * the PERFINST_EV_SECONDARY vector runs.  Known after its first entry. */
struct perfinst_dormant {
    int level;                      /* 1, 2 or 3 */
    uint32_t types;                 /* the class: 1 << PI_T_* (perfinst-format.h) */
    uint64_t flagged_hot;           /* primary thresholds that fired in it */
    uint64_t invocations;           /* invocations counted at level 2 or 3 */
    uint64_t secondary;             /* instructions of the class since level 2 */
    uint64_t types_count[7];        /* the same per type (enum pi_itype) */
    uint64_t tertiary_invocations;  /* invocations at level 3 */
    uint64_t tertiary_cycles;       /* their cycles */
};
int perfinst_dormant_read(const char *func, struct perfinst_dormant *out); /* 0, or -1: unknown */
int perfinst_dormant_set(const char *func, int level);  /* (handlers) 0, or -1: unknown */
/* ---- runtime instrumentation (seed 001; docs/sampling.md) --------------
 * Per thread: a control block, a collection buffer of the last events
 * (calls, returns, taken branches, emitted values) from code marked
 * `sample(...)` or `callret`, and a program buffer of report groups stored
 * at sample points.  PERFINST_RI=... sets every thread's initial controls;
 * these calls are the load / modify / store / test / on / off instructions. */
enum perfinst_ri_mode {
    PERFINST_RI_M_COUNT = 0,  /* a sample point every sf units (instrumented blocks) */
    PERFINST_RI_M_CYCLES = 1, /* at the first unit after every sf TSC cycles */
    PERFINST_RI_M_NONE = 2,   /* directed sample points only */
};
/* bits of perfinst_ri_controls.flags */
#define PERFINST_RI_C 0x001u  /* calls into the collection buffer */
#define PERFINST_RI_R 0x002u  /* returns */
#define PERFINST_RI_B 0x004u  /* taken branches (transfers) */
#define PERFINST_RI_E 0x008u  /* emit(EXPR) / perfinst_ri_emit */
#define PERFINST_RI_N 0x010u  /* directed sample points take effect */
#define PERFINST_RI_Y 0x020u  /* suppress on primary-capability CPUs */
#define PERFINST_RI_Z 0x040u  /* suppress on secondary-capability CPUs */
#define PERFINST_RI_U 0x080u  /* alerts (buffer full, halted) call the handler */
#define PERFINST_RI_G 0x100u  /* halted alert pending (stored only) */
#define PERFINST_RI_L 0x200u  /* buffer-full alert pending (stored only) */
#define PERFINST_RI_DRAIN 0x400u /* buffer full: drain it to the trace and go on */
#define PERFINST_RI_HALTED 0x800u /* halted (stored only) */
struct perfinst_ri_controls {
    uint64_t roa, rla, rca; /* program buffer: origin, limit (last byte), current */
    uint64_t sf;            /* scaling factor: units or cycles per sample (0 is 1) */
    uint64_t rsic;          /* remaining sample-interval count (0: a full interval) */
    uint32_t mode;          /* enum perfinst_ri_mode */
    uint32_t rgs;           /* report group = 2^(rgs+1) records of 16 bytes; 1..7 */
    uint32_t flags;         /* PERFINST_RI_* */
    uint32_t cb_size;       /* collection-buffer entries (2..256, fixed per thread once on) */
    uint32_t migrations;    /* halt after more CPU migrations than this (0: never) */
    uint32_t reserved;
};
/* Fields perfinst_ri_modify changes: */
#define PERFINST_RI_SET_BUFFER 0x01u /* roa, rla, rca */
#define PERFINST_RI_SET_RCA 0x02u    /* rca (rca == roa clears a halt: a new begin record) */
#define PERFINST_RI_SET_SF 0x04u     /* sf, rsic, mode */
#define PERFINST_RI_SET_FLAGS 0x08u  /* flags, migrations */
#define PERFINST_RI_SET_RGS 0x10u    /* rgs (a change rewinds rca to roa) */
/* roa == 0: the runtime allocates the buffer (PERFINST_RI buf=BYTES). */
int perfinst_ri_load(const struct perfinst_ri_controls *c);              /* 0, or -1 (invalid) */
int perfinst_ri_modify(const struct perfinst_ri_controls *c, uint32_t what); /* 0 or -1 */
void perfinst_ri_store(struct perfinst_ri_controls *c);
int perfinst_ri_test(void);   /* 1 controls valid (2: and altered since the last test), 0 not */
void perfinst_ri_on(void);
void perfinst_ri_off(void);
void perfinst_ri_emit(uint64_t value);
void perfinst_ri_next(void);  /* the next unit is a directed sample point */
enum perfinst_ri_alert { PERFINST_RI_ALERT_FULL = 1, PERFINST_RI_ALERT_HALTED = 2 };
typedef void (*perfinst_ri_handler)(int alert, const struct perfinst_ri_controls *c);
perfinst_ri_handler perfinst_ri_set_handler(perfinst_ri_handler h);
/* Copy the thread's stored report groups into the trace and rewind (what
 * full=drain does). */
void perfinst_ri_drain(void);
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

/* ---- ranges added at run time by address (issue 3) -------------------
 * Name the code [lo, hi) of one loaded module — function addresses
 * ((void *)&f), label addresses (&&label), or a function's address plus its
 * size — as a range; `pmopt report --by=regions` reports its visits (edge
 * executions entering it from outside) and the instructions executed inside
 * (docs/indicators.md "Ranges added at run time").  The range is resolved
 * at report time from the whole run's counts: one added late still counts
 * the executions before it.  The name is copied (at most
 * PERFINST_RANGE_NAME_MAX - 1 bytes).  Returns 0, or -1 with errno:
 * EINVAL (name NULL, empty or too long; lo >= hi), ENXIO (lo and hi - 1 are
 * not in one loaded module with perfinst units), ENOSPC (more than
 * PERFINST_RANGE_MAX ranges). */
#define PERFINST_RANGE_NAME_MAX 64
#define PERFINST_RANGE_MAX 256
int perfinst_range_add(const char *name, const void *lo, const void *hi);

/* ---- ABI used by plugin-generated code (do not call) ------------------ */
/* Function probes (gcc-plugin/pass-fnprobe.cc, runtime/armed.c). */
uint64_t __perfinst_fn_enter(uint64_t unit_id, uint32_t site, uint32_t dormant_types,
                             uint64_t dormant_threshold);
void __perfinst_fn_exit(uint64_t unit_id, uint32_t site, uint64_t t0);
/* A narrow counter wrapped: 2^width executions into the 64-bit total (gcc-plugin/narrow.cc). */
void __perfinst_spill(uint64_t unit_id, uint32_t site, uint32_t counter, uint32_t width);
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
/* An indirect call in a function counted whole whose target is neither of
 * the two its thread-local inline cache SLOT holds (runtime/icall.c; 2: a
 * slot of four words, not the one-target pair of before, whose objects
 * then fail to link rather than have their slots overrun). */
void __perfinst_icall_miss2(uint64_t unit_id, uint32_t site, uint64_t target, uint64_t *slot);
/* The same miss from clean-copies=final's one-asm cache, which saves and
 * restores every register: not called from C (its arguments are on the
 * stack, runtime/icall.c). */
void __perfinst_icall_stub(void);
void __perfinst_register_unit(uint32_t abi_version, uint64_t unit_id,
                              uint32_t ncounters, uint64_t *(*tls_counters)(void),
                              int *mode);
void __perfinst_unregister_unit(uint64_t unit_id, uint64_t *(*tls_counters)(void));
void __perfinst_register_functions(uint64_t unit_id, uint8_t *fnon, uint32_t nfuncs);
/* ADDR (the calling thread's counters of a -fPIC unit) minus the thread
 * pointer when it lies in the static TLS block, else 0 (runtime/thread.c). */
intptr_t __perfinst_tls_static_offset(const void *addr);
/* The module's jump slots (perfinst-format.h, runtime/jumps.c). */
void __perfinst_register_jumps(uint64_t unit_id, void *start, void *stop);
/* The three registrations above in one call, what a unit's constructor
 * makes (runtime/core.c; the others stay for objects of older plugins). */
void __perfinst_register_unit2(uint32_t abi_version, uint64_t unit_id, uint32_t ncounters,
                               uint64_t *(*tls_counters)(void), int *mode, uint8_t *fnon,
                               uint32_t nfuncs, void *jumps_start, void *jumps_stop);
/* runtime instrumentation probes (pass-ri.cc) */
void __perfinst_ri_unit(uint64_t every);     /* every: the directive's N (0: none) */
void __perfinst_ri_directed(uint64_t every);
void __perfinst_ri_call(void *ret_addr);
void __perfinst_ri_return(void *ret_addr);
void __perfinst_ri_transfer(void *from);
void __perfinst_ri_emit(uint64_t value);
/* Around the body of a `blocking` function (gcc-plugin/pass-blocking.cc):
 * the idle-transition sampler's dispatch monitor (docs/sampling-stacks.md). */
void __perfinst_block_enter(uint32_t kind);
void __perfinst_block_exit(void);
extern int __perfinst_on; /* the mode register (split functions without a switch of their own) */
/* Sharing detection (docs/sharing.md): every instrumented load or store of
 * memory other threads may reach calls __perfinst_share(addr, size << 1 |
 * is_store, what); the call's return address names the access site, `what`
 * the struct field accessed ("STRUCT FIELD OFFSET SIZE") or NULL.  Heap
 * allocation calls in instrumented code go through the _share_ variants
 * (they record the object and its allocation site); a feedback rebuild
 * turns falsely shared allocation sites into the _line_ variants (the
 * object on its own cache lines, its size rounded up to whole lines). */
void __perfinst_share(const void *addr, uint32_t info, const char *what);
void *__perfinst_share_malloc(size_t size);
void *__perfinst_share_calloc(size_t n, size_t size);
void *__perfinst_share_realloc(void *p, size_t size);
void *__perfinst_share_aligned_alloc(size_t align, size_t size);
int __perfinst_share_posix_memalign(void **out, size_t align, size_t size);
void __perfinst_share_free(void *p);
void *__perfinst_line_malloc(size_t size);
void *__perfinst_line_calloc(size_t n, size_t size);
void *__perfinst_line_realloc(void *p, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_H */
