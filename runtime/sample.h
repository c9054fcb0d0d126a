/* sample.h — what the stack-sampling files of libperfinst share (not
 * installed): unwind.c (the DWARF CFI unwinder), sample.c (timer sampling,
 * the per-thread sample buffers, the records), idle.c (idle-transition
 * sampling) and idle-wrap.c (the dispatch monitor's blocking points).
 * docs/sampling-stacks.md tells the story.
 */
#ifndef PERFINST_SAMPLE_H
#define PERFINST_SAMPLE_H

#include "runtime.h"

#include <sched.h>
#include <semaphore.h>
#include <time.h>
#include <ucontext.h>

/* ---- unwind.c --------------------------------------------------------------- */

/* Refresh the table of mapped objects and their .eh_frame_hdr (normal
 * context: dl_iterate_phdr).  Cheap when nothing changed. */
void pi_unwind_refresh(void);
/* Walk the stack of the context uc (a signal handler's third argument):
 * frames[0] = the interrupted pc, then return addresses.  Reads memory only
 * inside [stack_lo, stack_hi); a stack pointer outside (or bounds 0, 0)
 * gives the pc alone.
 * Async-signal-safe: no lock, no allocation, no system call.  Returns the
 * number of frames; *complete is 1 when the walk reached the outermost frame
 * (a return address the CFI marks undefined, as _start and clone do). */
struct pi_ucache;
int pi_unwind(const ucontext_t *uc, uintptr_t stack_lo, uintptr_t stack_hi, uint64_t *frames,
              int max, int *complete, struct pi_ucache *cache);
/* What the walk learnt about a pc, kept per thread (the handler is its only
 * user: no lock): the CFA rule and where the callee-saved registers and
 * the return address were saved.  Frames whose rules are anything else
 * (expressions, register copies: signal trampolines, PLT) are not kept.
 * Big functions have long CFA programs (SQLite's sqlite3VdbeExec: thousands
 * of instructions to run up to a pc), so the cache is what makes deep
 * stacks cheap.  Cleared when the object table changes. */
#define PI_UCACHE_SIZE 512
struct pi_ucache_ent {
    uint64_t pc;               /* the looked-up pc (pc - 1 for a return address); 0: empty */
    int32_t cfa_off;
    uint8_t cfa_reg;
    uint8_t ra_undef;          /* the outermost frame */
    int16_t off[7];            /* rbx, rbp, r12, r13, r14, r15, return address: CFA + off, or INT16_MIN: same */
};
struct pi_ucache {
    unsigned gen;
    uint64_t hits, misses;
    struct pi_ucache_ent e[PI_UCACHE_SIZE];
};
/* SAMPLE_MAP records: every object the table knows. */
void pi_unwind_write_maps(struct pi_rec_writer *w);

/* ---- sample.c ----------------------------------------------------------------- */

/* A buffer of samples: a chain of mmap'ed chunks, one writer (a thread in
 * its signal handler, or a CPU's sampler thread), read by the trace writer
 * without a lock (each chunk's `used` is published after the sample). */
struct pi_chunk;
struct pi_sbuf {
    struct pi_sbuf *next;      /* all buffers, never freed */
    struct pi_chunk *head, *tail;
    uint32_t nsamples;         /* published */
};

/* What the sampler knows of a thread (one per thread, never freed). */
struct pi_sthread {
    struct pi_sthread *next;
    pid_t tid;
    int alive;
    uintptr_t stack_lo, stack_hi;
    struct pi_sbuf buf;        /* its timer samples */
    int timer;                 /* the kernel's timer id (SYS_timer_create) */
    int has_timer;
    /* idle sampling: the request a sampler made of this thread */
    int state;                 /* 1 running, 2 blocked (dispatch monitor) */
    int block_depth;           /* nested blocking points (a marked function calling a wrapped one) */
    int block_kind;            /* PI_BLK_* while blocked */
    uintptr_t block_ra;        /* the interposed call's return address (0: a marked function) */
    int run_cpu;               /* CPU it was last dispatched on (post-hook) */
    int claimed;               /* 0, or 1 + the CPU whose sampler is taking its stack */
    unsigned hits;             /* stack requests its handler saw */
    int req;                   /* 1: the handler is to write its stack into req_frames */
    int req_n, req_complete;
    uint64_t req_frames[PI_SAMPLE_MAX_FRAMES];
    struct pi_ucache ucache;   /* the unwinder's, used only in this thread's handler */
    sem_t req_done;            /* posted by the handler */
    sem_t release;             /* from-idle: posted by the sampler when done */
    cpu_set_t from_saved;      /* from-idle: its affinity before it pinned itself */
    int daemon;                /* never a target (the runtime's own threads) */
    cpu_set_t req_saved;       /* the affinity its handler gives back (the sampler pinned it) */
};
extern __thread struct pi_sthread *pi_sself __attribute__((tls_model("initial-exec")));
extern struct pi_sthread *pi_sthreads;
extern int pi_sample_signo;

struct pi_sthread *pi_sthread_self(void);
/* Append a sample to b (its only writer).  0, or -1 when the memory limit
 * is reached (counted as dropped). */
int pi_sbuf_add(struct pi_sbuf *b, uint64_t ts, uint32_t kind, uint32_t flags, uint32_t cpu,
                uint32_t block, uint32_t tid, uint32_t weight, const uint64_t *frames, int n);
void pi_sbuf_register(struct pi_sbuf *b);
uint64_t pi_mono_ns(void);

/* ---- idle.c ------------------------------------------------------------------------ */

extern int pi_idle_mode;             /* 0 off, 1 to, 2 from, 3 both */
void pi_idle_init(void);             /* after PERFINST_IDLE was read: start the samplers */
void pi_idle_write(struct pi_rec_writer *w);
/* The dispatch monitor: around every blocking point of a monitored thread. */
void pi_block_enter(int kind, uintptr_t ra); /* ra: the blocking call's return address, or 0 */
void pi_block_exit(void);
void pi_idle_thread_end(struct pi_sthread *t); /* at thread exit: no longer running or blocked */
/* The handler's part of a stack request (sample.c's handler calls it). */
void pi_idle_handle_request(struct pi_sthread *t, const ucontext_t *uc);
void pi_idle_count_eintr(void);      /* a wrapper restarted a call our signal interrupted */

#endif /* PERFINST_SAMPLE_H */
