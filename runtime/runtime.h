/* runtime.h — what the files of libperfinst share (not installed).
 *
 * The runtime keeps three append-only lists: units (one per registered
 * translation unit), modules (the ELF objects that hold units) and thread
 * records.  Nodes are never freed, only reused, and each is published with
 * a release store after it is filled in, so the fatal-signal handler can walk
 * the lists without a lock.  Everything that changes them, or moves counts
 * into the totals, holds pi.lock (normal context only, never in a handler).
 * docs/runtime.md tells the whole story.
 */
#ifndef PERFINST_RUNTIME_H
#define PERFINST_RUNTIME_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfinst.h"
#include "perfinst-format.h"

/* rtalloc.c: the runtime's memory comes from its own mappings, never from
 * the program's heap, so that an instrumented program's heap objects lie
 * where the plain build puts them (docs/runtime.md).  Every runtime file
 * that allocates includes this header; a call of libc's own is written
 * (malloc)(n) (the allocation twins of sharing.c). */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
void *pi_rt_malloc(size_t n);
void *pi_rt_calloc(size_t n, size_t size);
void *pi_rt_realloc(void *p, size_t n);
void pi_rt_free(void *p);
char *pi_rt_strdup(const char *s);
/* (Under AddressSanitizer, and in the fuzz harnesses, libc's: so that the
 * sanitizer checks the runtime's blocks.) */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(PI_RT_REAL_MALLOC)
#define PI_RT_REAL_MALLOC
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PI_RT_REAL_MALLOC)
#define PI_RT_REAL_MALLOC
#endif
#ifndef PI_RT_REAL_MALLOC
#define malloc(n) pi_rt_malloc(n)
#define calloc(n, size) pi_rt_calloc(n, size)
#define realloc(p, n) pi_rt_realloc(p, n)
#define free(p) pi_rt_free(p)
#define strdup(s) pi_rt_strdup(s)
#endif

/* Only the public API, the plugin ABI and the interposed libc functions leave
 * the library (it is built with -fvisibility=hidden). */
#define PI_EXPORT __attribute__((visibility("default")))

#define PI_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define PI_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

struct pi_shadow; /* loader.c */

/* One ELF object (program or shared library) that registered units. */
struct pi_module {
    struct pi_module *next;
    uint32_t index;          /* pi_rec_module.index */
    int live;                /* units still registered; 0 once all are dlclose'd */
    uintptr_t bias;          /* load bias: run-time minus link-time address */
    uintptr_t lo, hi;        /* run-time span of its PT_LOAD segments */
    char *path;              /* as recorded in the trace */
    const char *file;        /* what the loader stage opens ("/proc/self/exe" for the program) */
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX];
    int shadow_state;        /* 0 not built yet, 1 ready, 2 none (loader.c) */
    struct pi_shadow *shadow;
    size_t tls_modid;        /* its TLS block's module id (dl_iterate_phdr), 0 none */
    intptr_t tls_lo, tls_hi; /* its static-TLS units' counters' span from the thread pointer, or lo == hi
                                (core.c flush_spans_locked) */
    int tls_slot;            /* 1 + its slot of pi_mod_bases (thread.c), 0 none: this load's */
};

/* One registered translation unit.  Kept after it is unregistered: its
 * totals and module go into every later trace. */
struct pi_unit_rt {
    struct pi_unit_rt *next;
    struct pi_unit_rt *id_next;  /* the next registration of a unit id of the same hash (core.c) */
    uint64_t unit_id;
    uint32_t ncounters;
    uint32_t index;              /* registration order: slot in the thread records */
    uint64_t *(*tls_get)(void);  /* NULL once unregistered */
    intptr_t tls_off;            /* its counters' offset from every thread's pointer (static
                                    TLS), or 0: each thread's block is its own (trace.c) */
    int *mode;                   /* the unit's mode word; NULL once unregistered */
    uint8_t *fnon;               /* per function: 1 = its counting copy runs; NULL once unregistered */
    uint32_t nfuncs;
    struct pi_module *module;
    uint64_t *totals;            /* flushed counts; updated with atomic adds */
    int counted;                 /* 1 once a count went into totals (else they are all 0) */
    uint8_t *jumps, *jumps_end;  /* its split functions' jump infos (jumps.c); NULL once unregistered */
};

/* Where one thread's counter arrays are: p[unit->index], or NULL. */
struct pi_slots {
    uint32_t n;
    uint64_t *p[];
};

/* A thread the runtime knows (created through pthread_create, or that
 * registered a unit).  Reused after the thread exits. */
struct pi_thread {
    struct pi_thread *next;
    int used;
    pid_t tid;
    struct pi_slots *slots;
    void *altstack;          /* PI_ALTSTACK_SIZE bytes, kept with the record */
    unsigned exit_rounds;    /* rounds of key destructors seen (thread.c key_destructor) */
    uintptr_t tp;            /* its thread pointer: its static TLS block lies below */
};
#define PI_ALTSTACK_SIZE (64 * 1024)

struct pi_state {
    /* environment, parsed once */
    const char *out;         /* PERFINST_OUT or NULL */
    int verbose;             /* PERFINST_VERBOSE=1 */
    unsigned flush_s;        /* PERFINST_FLUSH: seconds between partial traces, 0 none */
    int secure;              /* secure execution (AT_SECURE: setuid, setgid, capabilities) */
    char *secure_dir;        /* ... where its traces go (PI_SECURE_CONF), NULL: nowhere */
    int mode_off_env;        /* PERFINST_MODE=off */
    int icall_exact;         /* PERFINST_ICALL=exact: no indirect call site is sampled (icall.c) */
    unsigned line_size;      /* cache-line size of the loader stage (PERFINST_LINE_SIZE, else asked) */

    int mode;                /* the mode register: 1 on, 0 off */

    /* the process; a fork child resets pid, ppid and start_ns */
    pid_t pid, ppid;
    uint64_t start_ns;
    uint64_t start_mono_ns;  /* CLOCK_MONOTONIC when start_ns was read (pi_tod_ns) */
    char *args;              /* argc NUL-terminated strings, exe path first */
    size_t args_len;
    uint32_t argc;
    const char *exe;         /* readlink(/proc/self/exe), or "" */
    const char *prog;        /* program basename, for trace names */
    char *cwd;               /* working directory at start: relative names resolve here */

    pthread_mutex_t lock;
    int lock_alone;          /* pi.lock's owner while the process has one thread (core.c units_lock) */
    struct pi_unit_rt *units, *units_tail;
    uint32_t nunits;
    struct pi_module *modules, *modules_tail;
    uint32_t nmodules;
    struct pi_thread *threads;
    uint32_t threads_flushed; /* threads whose counts went into the totals */
    pthread_key_t key;
    int exit_written;         /* the exit-time trace is out */
};
extern struct pi_state pi;

/* A record writer handed to the parts that add records to the trace. */
struct pi_rec_writer {
    void (*begin)(uint32_t type);
    void (*put)(const void *p, size_t len);
    void (*end)(void);
    void (*whole)(uint32_t type, const void *p, size_t len); /* begin, put(p, len), end in one */
};
/* trace.c: a LOST record (what a table could not hold), when lost > 0 */
void pi_lost_write(struct pi_rec_writer *w, uint32_t table, uint64_t capacity, uint64_t lost,
                   uint64_t items, uint32_t flags);

/* indicators.c */
void pi_indicators_init(void);                       /* in pi_init */
void pi_indicators_write(struct pi_rec_writer *w);   /* SITESTAT, EVENT, TRACEREG */
uint64_t pi_indicators_probe_cost(void);
void pi_indicators_after_fork(void);                 /* in the fork child */
void pi_icall_write(struct pi_rec_writer *w);       /* ICALL (icall.c) */
void pi_icall_after_fork(void);                      /* in the fork child */
void pi_icall_thread_exit(void);                     /* the calling thread ends */
void pi_icall_unit_gone(uint64_t unit_id);           /* its module is unloaded */
void pi_ctr_base_unit_gone(void);                     /* thread.c: a unit left (its cached bases go) */
intptr_t pi_ctr_base_cached(const void *getter);      /* thread.c: the calling thread's cached offset, or 0 */
intptr_t pi_tp_offset(const void *addr);              /* thread.c: addr minus the thread pointer (x86-64; else 0) */
intptr_t pi_mod_base_slot(struct pi_module *m);       /* thread.c: a slot for m's TLS block's offset (pi.lock held) */
int pi_lock_from_counted(void);                       /* thread.c: pi.lock from counted code, unless this thread holds it */
void *pi_tp_address(intptr_t off);                    /* thread.c: the thread pointer plus off (x86-64; else NULL) */

/* The register-saving stubs' (icall.c __perfinst_icall_stub, thread.c
 * __perfinst_ctr_base_stub) save of the whole extended state — x87, xmm,
 * ymm, zmm, k — around a call into code that may use it (libc): XSAVE, or
 * FXSAVE on a processor without it, in an area below %rsp aligned to 64
 * bytes, its size from CPUID the first time (pi_stub_save_size: 0 until
 * then; pi_stub_xsave: XSAVE's).  The stub keeps its frame in %rbp and has
 * saved %rax, %rbx, %rcx and %rdx (CPUID changes them): PI_STUB_SAVE_EXT
 * leaves %rsp at the area, PI_STUB_RESTORE_EXT(BACK) restores the state
 * (it changes %eax and %edx) and jumps to BACK.  Local labels 1-5. */
extern uint32_t pi_stub_save_size;
extern uint8_t pi_stub_xsave;
#define PI_STUB_SAVE_EXT \
    "\tmovl pi_stub_save_size(%rip), %eax\n" \
    "\ttestl %eax, %eax\n" \
    "\tjnz 2f\n" \
    /* first time: XSAVE if the OS enabled it (CPUID.1:ECX.OSXSAVE), its \
       area's size for the enabled features (CPUID.0xD.0:EBX); else \
       FXSAVE's 512 bytes; 64 more for the alignment */ \
    "\tmovl $1, %eax\n" \
    "\tcpuid\n" \
    "\tmovl $512, %eax\n" \
    "\tbtl $27, %ecx\n" \
    "\tjnc 1f\n" \
    "\tmovl $0xd, %eax\n" \
    "\txorl %ecx, %ecx\n" \
    "\tcpuid\n" \
    "\tmovb $1, pi_stub_xsave(%rip)\n" \
    "\tmovl %ebx, %eax\n" \
    "1:\taddl $64, %eax\n" \
    "\tmovl %eax, pi_stub_save_size(%rip)\n" \
    "2:\tsubq %rax, %rsp\n" \
    "\tandq $-64, %rsp\n" \
    "\tcmpb $0, pi_stub_xsave(%rip)\n" \
    "\tje 3f\n" \
    /* XSAVE's header must be zero but for what XSAVE writes */ \
    "\txorl %eax, %eax\n" \
    "\tmovq %rax, 512(%rsp)\n\tmovq %rax, 520(%rsp)\n\tmovq %rax, 528(%rsp)\n\tmovq %rax, 536(%rsp)\n" \
    "\tmovq %rax, 544(%rsp)\n\tmovq %rax, 552(%rsp)\n\tmovq %rax, 560(%rsp)\n\tmovq %rax, 568(%rsp)\n" \
    "\tmovl $-1, %eax\n" \
    "\tmovl $-1, %edx\n" \
    "\txsave (%rsp)\n" \
    "\tjmp 4f\n" \
    "3:\tfxsave (%rsp)\n" \
    "4:\n"
#define PI_STUB_RESTORE_EXT(back) \
    "\tcmpb $0, pi_stub_xsave(%rip)\n" \
    "\tje 5f\n" \
    "\tmovl $-1, %eax\n" \
    "\tmovl $-1, %edx\n" \
    "\txrstor (%rsp)\n" \
    "\tjmp " back "\n" \
    "5:\tfxrstor (%rsp)\n" \
    "\tjmp " back "\n"
void pi_indicators_thread_exit(void);                /* the calling thread ends */
uint64_t pi_cycles_threshold(uint64_t threshold, uint32_t code);

/* overlay.c: PERFINST_OVERLAY, functions turned on and off at load time */
void pi_overlay_init(void);                          /* in pi_init */
void pi_overlay_parse(const char *path, char *text); /* the rules of a NUL-terminated text (modified) */
int pi_overlay_on(uint64_t unit_id, uint32_t func);  /* 1 unless the overlay turned it off */
int pi_overlay_active(void);
void pi_overlay_check_unit(uint64_t unit_id, uint32_t nfuncs); /* a unit registered (pi.lock held): rules it cannot satisfy are said */
void pi_overlay_report_unmatched_locked(void);                  /* at exit (pi.lock held): rules whose unit never registered are said */
void pi_apply_switches_locked(struct pi_unit_rt *u); /* fnon[] from the mode and the overlay */
struct pi_unit_rt *pi_unit_of_id_locked(uint64_t unit_id); /* the latest taken registration */
void pi_sync_jumps_locked(struct pi_unit_rt *u);     /* jumps.c: the slots follow fnon[] */
void pi_jumps_register_locked(struct pi_unit_rt *u, void *start, void *stop); /* jumps.c: unit u's slots (u NULL: refused) */

/* indicators.c, for armed.c */
void pi_indicators_take_stack(struct perfinst_event *ev, uintptr_t pc);
void pi_indicators_keep_event(const struct perfinst_event *ev);
void pi_indicators_stat_add(uint64_t unit_id, uint32_t site, uint32_t kind, uint64_t count,
                            uint64_t max);           /* (narrow.c) */

/* fnmeta.c: the functions, sites and static instruction counts of a
 * module's .perfinst (for armed.c) */
struct pi_fnmeta_code {
    uint32_t nranges;        /* code ranges of the site (copies) */
    uint32_t insns;          /* instructions, summed over the ranges */
    uint32_t ntype[PI_NTYPES];
};
struct pi_fnmeta_unit {
    uint64_t unit_id;
    uint32_t nfuncs, nsites, ncounters, strtab_size, narcs;
    struct pi_func *funcs;
    struct pi_site *sites;
    struct pi_arc *arcs;         /* the flow graphs of functions counted whole */
    char *strtab;
    struct pi_fnmeta_code *code; /* per site */
};
struct pi_fnmeta {
    uint32_t nunits;
    struct pi_fnmeta_unit *units;
};
struct pi_dec_err; /* common/piformat.h: a decoder's message */
const char *pi_fnmeta_read(const char *path, struct pi_fnmeta *fm, struct pi_dec_err *e); /* NULL, or why not */
const char *pi_fnmeta_parse(const unsigned char *sec, uint64_t len, struct pi_fnmeta *fm,
                            struct pi_dec_err *e);
void pi_fnmeta_free(struct pi_fnmeta *fm);
/* loader.c: module m's metadata, read on first need and kept (under pi.lock); NULL if
 * it cannot be read (said once, with what it was wanted for). */
struct pi_module;
const struct pi_fnmeta *pi_fnmeta_of_locked(struct pi_module *m, const char *what);
extern int pi_fnmeta_failed;   /* some module's metadata could not be read */

/* armed.c: counter combinations and dormant classes */
void pi_armed_init(void);                            /* in pi_init: PERFINST_COMBINE */
void pi_armed_primary(uint64_t unit_id, uint32_t site); /* a threshold fired at site */
perfinst_handler pi_armed_set_handler(int kind, perfinst_handler h); /* COMBINE, SECONDARY */
void pi_armed_write(struct pi_rec_writer *w, int in_signal); /* SITESTATs */
/* ri.c: runtime instrumentation (report groups) */
void pi_ri_write(struct pi_rec_writer *w);           /* PI_REC_RI records */
/* sharing-regions.c: the writable mappings, with the sharing records */
void pi_sharing_regions_write(struct pi_rec_writer *w);

/* core.c */
void pi_init(void);
int pi_trace_wanted(void);   /* units, samples or sharing records: a trace is due (signal-safe) */
uint64_t pi_now_ns(void);
void pi_start_clock(void);   /* pi.start_ns and pi.start_mono_ns, now */
uint64_t pi_tod_ns(void);    /* the time of day, never going back (ri.c's group times) */

/* loader.c: the loader stage (shadow segments) */
uint32_t pi_note_build_id(const unsigned char *p, size_t size, size_t align, uint8_t *out);
/* elfscan.c: the section NAME of an ELF64 file in memory (first of *count),
 * with the build-id note when bid is given; NULL, or why not */
/* maps.c: each line of /proc/self/maps (without its newline) to line()
 * until it returns nonzero; open/read/close, no allocation.  0, or -1
 * when the file cannot be opened. */
int pi_maps_each(int (*line)(const char *s, size_t n, void *arg), void *arg);
/* A maps line's "lo-hi": the offset of the space after it, 0 if the line
 * does not start so. */
size_t pi_maps_range(const char *s, size_t n, uint64_t *lo, uint64_t *hi);
/* unwind.c: the calling thread's stack from the frame whose return address
 * is start (frames[0] = start, then its callers), walked through .eh_frame
 * as the samplers' stacks are; at most max frames, at least 1.  Normal
 * context only. */
unsigned pi_stack_from(uintptr_t start, uintptr_t *frames, unsigned max);
int pi_in_file(uint64_t off, uint64_t len, uint64_t size); /* elfscan.c: [off, off+len) in the file? */
const char *pi_elf_section(const unsigned char *f, size_t size, const char *name, Elf64_Shdr *out,
                           int *count, uint8_t *bid, uint32_t *bid_len);
struct pi_shadow;
/* Module m's shadow segment for line size L from its file's bytes
 * f[0..size): NULL and *out, or why not.  Reads nothing but those bytes and
 * m's build-id and span (tests/runtime/fuzz-runtime.c calls it directly). */
const char *pi_shadow_from_file(const unsigned char *f, size_t size, const struct pi_module *m,
                                unsigned L, struct pi_shadow **out, uint32_t *file_line,
                                int *rebuilt, struct pi_dec_err *e);
void pi_shadow_free(struct pi_shadow *sh);  /* (the fuzz harness; the runtime keeps them) */

/* thread.c */
/* libc's pthread_create: a thread of the runtime's own, which the runtime
 * does not count as one of the program's */
int pi_thread_create_raw(pthread_t *th, void *(*fn)(void *), void *arg);
extern __thread struct pi_thread *pi_self __attribute__((tls_model("initial-exec")));
void pi_thread_setup(void);                 /* key and main thread; in pi_init */
/* gotpatch.c: when the program's lookup finds libc's pthread_create first,
 * the loaded modules' imports of the functions below pointed at the
 * runtime's (at start-up; the modules loaded since, when a unit of a new
 * module registers); what such an import called before, or NULL */
void pi_imports_setup(void);
void pi_imports_rescan_locked(void);
void *pi_imports_next(const char *name);
/* the runtime's own definitions (hidden aliases: thread.c, exec.c,
 * signal.c, exit-wrap.c), made with PI_OWN after the function's definition:
 * pi_own_NAME is the runtime's NAME whatever the lookup scope says (not
 * leaf or nothrow as libc declares its own: ours call back into the
 * runtime) */
#define PI_OWN(name)                                                                       \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmissing-attributes\"") \
    extern __typeof__(name) pi_own_##name __attribute__((alias(#name), visibility("hidden"))); \
    _Pragma("GCC diagnostic pop")
int pi_own_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pi_own_execve(const char *, char *const[], char *const[]);
int pi_own_execv(const char *, char *const[]);
int pi_own_execvp(const char *, char *const[]);
int pi_own_execvpe(const char *, char *const[], char *const[]);
int pi_own_fexecve(int, char *const[], char *const[]);
int pi_own_execl(const char *, const char *, ...);
int pi_own_execlp(const char *, const char *, ...);
int pi_own_execle(const char *, const char *, ...);
int pi_own_sigaction(int, const struct sigaction *, struct sigaction *);
__sighandler_t pi_own_signal(int, __sighandler_t);
__sighandler_t pi_own_bsd_signal(int, __sighandler_t);
__sighandler_t pi_own_sysv_signal(int, __sighandler_t);
void pi_own__exit(int) __attribute__((weak, noreturn)); /* exit-wrap.c: shared runtime only */
void pi_own__Exit(int) __attribute__((weak, noreturn));
struct pi_thread *pi_thread_self_locked(void);
uint64_t *pi_slot_get(const struct pi_thread *t, uint32_t index);
uint64_t *pi_thread_block(const struct pi_thread *t, const struct pi_unit_rt *u); /* t's counters of u, or NULL */
void pi_slot_set_locked(struct pi_thread *t, uint32_t index, uint64_t *p);
void pi_thread_after_fork_locked(void);     /* child: forget the other threads */
uint64_t pi_flush_add(struct pi_unit_rt *u, uint64_t *p); /* p into totals, zero p */
void pi_flush_self_locked(void); /* the calling thread's counters of every live unit */
/* Whether n counters at p are all 0: 256 bytes ORed a step with AVX2
 * where the CPU has it, else 128 (SSE2, the baseline), most counters of a
 * big program being 0 at its exit and every one in the off mode (the flush and the trace's scan read them all:
 * BusyBox's 43,000 counters in each of its short processes) */
int pi_all_zero(const volatile uint64_t *p, uint32_t n);
int pi_all_zero_sse2(const volatile uint64_t *p, uint32_t n); /* (without AVX2; tests/runtime/allzero.c) */

/* trace.c */
void pi_write_lock(void);     /* normal context */
void pi_write_unlock(void);
int pi_write_trylock_signal(void); /* 0: this thread is already writing */
/* final: the process counts no more (exit, a fatal signal, exec); else the
 * trace is marked partial (PI_TF_PARTIAL) */
/* write lock held; uc: the context the signal interrupted, or NULL */
int pi_trace_write(const siginfo_t *si, const void *uc, int in_signal, int final);
int pi_trace_write_now(int final); /* normal context: takes both locks */
void pi_trace_mark_partial(void); /* the final trace on disk is not final after all (failed exec) */
void pi_trace_after_fork(void);

/* say.c: messages, async-signal-safe */
void pi_say(const char *s, ...) __attribute__((sentinel)); /* one line to stderr from NULL-terminated pieces */
char *pi_fmt_u64(char buf[24], uint64_t v, int base);      /* v in base 10 or 16, within buf */
char *pi_fmt_unit(char buf[24], uint64_t id);              /* a unit id: 16 hex digits */

/* signal.c */
void pi_signal_setup(void);
int pi_signal_terminates(int sig); /* caught, and by default fatal: the handler is for it */
/* libc's sigaction, not the program's view of it (the runtime's own handlers) */
int pi_sigaction_real(int sig, const struct sigaction *act, struct sigaction *old);
void pi_altstack_enable(struct pi_thread *t);
void pi_altstack_disable(struct pi_thread *t);

/* loader.c */
unsigned pi_query_line_size(void);

/* sample.c: stack sampling, timer and idle-transition (sample.h, docs/sampling-stacks.md) */
void pi_sample_init(void);           /* end of pi_init: PERFINST_SAMPLE, PERFINST_IDLE */
void pi_sample_thread_start(void);   /* a thread starts (pi_thread_main) */
int pi_sample_active(void);          /* a trace is to be written even without units */
void pi_sample_write(struct pi_rec_writer *w); /* SAMPLE_* and IDLE_STATS records */
/* sharing.c: cache-line sharing detection (docs/sharing.md) */
int pi_sharing_active(void);                          /* some access was recorded */
/* heap-wrap.c: an allocation outside the recording twins (libc's, a
 * library's) while sharing detection runs: its bytes' old accesses are
 * forgotten (docs/sharing.md, "Heap reuse") */
extern int pi_sharing_heap_watch __attribute__((visibility("hidden"))); /* (no GOT load in the wrappers) */
/* heap-wrap.c: malloc, calloc and realloc from now on through the wrappers
 * that tell (sharing.c, when the heap is watched; absent where heap-wrap.c
 * is: the static runtime, the sanitizer builds) */
void pi_heap_watch(void) __attribute__((weak, visibility("hidden")));
void pi_sharing_heap_reused(void *p, size_t size, uint64_t pc);
void pi_sharing_line_alloc(void *p, size_t size, void *old, uint32_t kind, uint64_t pc); /* line-alloc.c's */
void pi_sharing_modules_locked(void (*note)(uintptr_t pc)); /* code addresses the records name */
void pi_sharing_write(struct pi_rec_writer *w);       /* the PI_REC_SHARE_* records */
/* the fork/join epochs (thread.c): pthread_create is about to start a
 * thread (its birth epoch); the new thread starts; pthread_join(th)
 * returned; the calling thread ends */
uint32_t pi_sharing_fork(void);
void pi_sharing_thread_start(uint32_t birth);
void pi_sharing_joined(pthread_t th);
void pi_sharing_thread_exit(void);
/* idle-wrap.c (shared runtime only): pthread_join as a blocking point,
 * called by pthread_join's caller at ra */
int pi_idle_join(pthread_t th, void **ret, int (*real)(pthread_t, void **), uintptr_t ra);
/* core.c: make sure the module holding code address pc is in the trace */
void pi_note_module_locked(uintptr_t pc);
/* pagetable.c: the performance page table (seed 004 M31) */
void pi_pages_write(struct pi_rec_writer *w);        /* PAGES, if any range was added */
/* ranges.c: perfinst_range_add's ranges */
void pi_ranges_write(struct pi_rec_writer *w);       /* RANGE records */

/* perfev.c: PERFINST_PERF, perf_event counters in trace regions */
void pi_perf_init(void);                             /* in pi_init */
void pi_perf_start(int depth);                       /* trace_start at nesting depth */
void pi_perf_stop(int depth, uint64_t unit_id, uint32_t site);
void pi_perf_write(struct pi_rec_writer *w);         /* PERF records */

/* Lock-free open-addressing tables (the indicator statistics, the indirect-
 * call targets): a slot's key is 0 while free, ~0 while a thread fills it
 * in, else the entry's hash (pi_slot_key makes one: never 0 or ~0).
 * pi_slot_take returns 0 when the caller claimed the free slot (it fills the
 * slot in, then publishes its key with a release store), else the slot's
 * published key (waiting out a claim in progress).  Both are inlined even
 * into general-regs-only code (icall.c's miss, which may use no vector
 * register): general-regs-only themselves, always_inline. */
#define PI_GPR_INLINE static inline __attribute__((always_inline, target("general-regs-only")))
PI_GPR_INLINE uint64_t pi_slot_key(uint64_t x)
{
    x |= 1;
    return x == ~0ULL ? 1 : x;
}

PI_GPR_INLINE uint64_t pi_slot_take(uint64_t *keyp)
{
    uint64_t k = __atomic_load_n(keyp, __ATOMIC_ACQUIRE);
    if (k == 0) {
        uint64_t expected = 0;
        if (__atomic_compare_exchange_n(keyp, &expected, ~0ULL, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return 0;
        k = expected;
    }
    while (k == ~0ULL) /* another thread is filling it in */
        k = __atomic_load_n(keyp, __ATOMIC_ACQUIRE);
    return k;
}

#endif /* PERFINST_RUNTIME_H */
