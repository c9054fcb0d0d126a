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
 * Threads get numbers (1, 2, ... in order of their first access; the trace
 * maps them to OS thread ids) and a fast-path id, the byte the inlined check
 * compares (1..SH_MAXID, recycled from ended threads).  Each access seen
 * notes the fork/join epoch (pthread_create and pthread_join calls so far),
 * and each thread its birth and death in epochs, so that pmopt can tell
 * which threads may run at once whatever the scheduler did.  Allocation
 * calls in instrumented code come here too (__perfinst_share_malloc & co.):
 * objects are recorded with their allocation site so that pmopt can name
 * heap lines.  The records (PI_REC_SHARE_*) are written with the trace
 * (pi_sharing_write).  Every table is bounded, its size configurable, and
 * what did not fit is counted (PI_REC_SHARE_STATS; docs/sharing.md "Limits").
 */
#include "runtime.h"
#include "env.h"
#include "sharing-model.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#define SH_MAXID 249          /* fast-path ids 1..249, recycled from ended threads (0xfa: PI_SHARE_RO_BYTE) */
#define SH_SOLO_ID 1          /* the first thread: alone until a second one has an id (solo phase) */
#define SH_NOFAST 0xfb        /* a thread without a fast-path id: no shadow byte is ever this (all its accesses call) */
#define SH_CLAIM_BYTE 0xfc    /* a line of a page the solo thread claimed, not touched yet */
#define SH_NO_ID 0xfe         /* a thread's id before its first probe call: never a shadow byte */
#define SH_SHARED_BYTE 0xff   /* shadow byte of a shared line every access of which calls */
#define SH_SAMPLED_BYTE PI_SHARE_SAMPLED_BYTE /* ... of one whose accesses the inlined countdown samples */
#define SH_RO_BYTE PI_SHARE_RO_BYTE /* ... of one nobody wrote since it became shared: reads skip it */
#define SH_WATCH_MAX 64       /* calls of other threads that end a sampling window unresolved */
#define SH_NEWCOMER_FP 2      /* a thread's first accesses to a shared line that call (sampled mode) */
#define SH_NEWCOMER_WAIT 4    /* calls of other threads that close the footprints open on a line */
#define SH_INTRO_CALLS 64     /* a thread's introduction: its first accesses to sampled lines, each a call */
#define SH_PERIOD_DEFAULT 1024 /* PERFINST_SHARING_PERIOD's default: see docs/sharing.md, Cost */
#define SH_SHADOW_BITS 41     /* the byte shadow covers 2^41 lines: 47-bit addresses */
#define SH_VALGRIND_BITS 31   /* ... under valgrind, whose client addresses lie below 2^37 */
#define SH_BUSY (~0ull)

struct sh_line {
    uint64_t key;             /* line number + 1; 0: an unused record */
    uint32_t lock;
    uint32_t owner;           /* the first thread's number */
    uint64_t o_r, o_w;        /* the owner's bytes while private */
    uint32_t o_reads, o_writes; /* (saturating) */
    uint32_t o_efirst, o_elast; /* epochs of its first and last access seen */
    struct sh_ext *ext;
    uint8_t shared;           /* a second thread touched it: ext is set */
    /* The inlined check's footprint path (pass-sharing.cc): while fp_id is
     * the owner's fast-path id, the owner's check itself takes an access to
     * the line whose byte is 0 -- it ORs the bytes into o_r / o_w and counts
     * o_reads / o_writes -- when the fork/join epoch is still fp_epoch, the
     * access costs less than fp_left (an RMW 2, else 1; fp_left -= cost)
     * and, for an access the plugin names a struct field of, it adds no new
     * byte (a new one needs its site).  0: every access calls (fp_arm). */
    uint8_t fp_id;
    uint16_t fp_left;
    uint32_t fp_epoch;
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct sh_line) == 64, "a line record is one line");
_Static_assert(offsetof(struct sh_line, o_r) == PI_SHARE_REC_OR && offsetof(struct sh_line, o_w) == PI_SHARE_REC_OW &&
                   offsetof(struct sh_line, o_reads) == PI_SHARE_REC_READS &&
                   offsetof(struct sh_line, o_writes) == PI_SHARE_REC_WRITES &&
                   offsetof(struct sh_line, fp_id) == PI_SHARE_REC_FP_ID &&
                   offsetof(struct sh_line, fp_left) == PI_SHARE_REC_FP_LEFT &&
                   offsetof(struct sh_line, fp_epoch) == PI_SHARE_REC_FP_EPOCH,
               "the record layout pass-sharing.cc's footprint path writes");

struct sh_site {
    uint64_t pc, line;
    uint32_t thread, flags;
    uint64_t accesses, rt, rf, mask; /* (mask 0: retired with its bytes, not written) */
    const char *what;
    uint32_t next;            /* 1 + the index of the line's site before it, 0 for none (line_sites) */
    uint32_t ready;           /* on its line's list (a record a race left unused stays 0: not written) */
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
#define SH_LINE_MASK line_mask
static uint32_t nused, line_bits;
static uint64_t lines_lost;
/* PERFINST_SHARING_SITES=N: the most (site, line, thread) records: a
 * pool handed out in order, its address space reserved at start
 * (MAP_NORESERVE, 72 bytes a record) and touched only as records are made,
 * so that the default can be large: 2^24 (a program whose threads, made
 * anew every iteration, each touch a share of a large array, as kmeans'
 * do, makes a record per thread, line and code address: 400,000 points in
 * 20 iterations about a million).  A record is found through its line's
 * list (line_sites), not a hash of the whole table: the lookup costs the
 * line's own sites, and the table cannot fill up early by collisions. */
static uint32_t sites_max = 1u << 24;
/* ... of them, bytes of lines private to their thread (private_access):
 * no more than this (the prediction's names; what the old table's half
 * held), so that a program's private structs cannot fill the pool */
#define SH_PRIVATE_SITES (1u << 15)
static struct sh_site *sites;
static uint32_t nsites_used;
/* 1 + the index of the latest site of each line record (by the record's
 * index; each site's `next` the one before): site_add finds a line's
 * sites there, and a new object's allocation retires the sites of the old
 * object's bytes on its lines (retire_bytes) */
static uint32_t *line_sites;
static uint64_t sites_lost;
/* PERFINST_SHARING_ALLOCS=N: allocation records (2^16 by default) */
static uint32_t allocs_max = 1u << 16;
static struct sh_alloc *allocs;
static uint32_t nallocs;
/* address -> 1 + index of the latest object recorded there (free looks it
 * up): twice the records, a power of two */
static uint32_t alloc_hash_bits;
static uint32_t *alloc_hash;
static uint64_t alloc_seq, allocs_lost;

/* Threads by number (1..threads_max; PERFINST_SHARING_THREADS, 4096 by
 * default: later threads fold into the last number, counted). */
struct sh_thread {
    uint32_t tid, cpu;
    uint32_t birth, death;    /* fork/join epochs (PI_REC_SHARE_THREAD) */
    uint32_t flags;           /* PI_SHARE_THREAD_* */
    uint8_t byte_id;          /* its fast-path id, SH_NOFAST for none */
    pthread_t self;           /* pthread_join finds it by this */
    uint8_t *known;           /* its known lines (known_get), NULL for none (or once it ended) */
    uint8_t ended;            /* pi_sharing_thread_exit ran */
};
static uint32_t threads_max = 4096;
static struct sh_thread *threads;     /* [threads_max + 1] */
static uint32_t nthreads_seen;
static uint64_t threads_lost;
static int sh_state;                  /* 0 untouched, 1 ready, 2 failed */
int pi_sharing_heap_watch;            /* sh_state 1: heap-wrap.c tells us every allocation */
static __thread volatile uint8_t in_twin __attribute__((tls_model("initial-exec"))); /* (heap-wrap.c: told by the twin; volatile: GCC knows malloc reads no variable of ours) */
static pthread_mutex_t sh_init_lock = PTHREAD_MUTEX_INITIALIZER;

/* Fast-path ids: fresh ones first (next_fresh), then those of ended
 * threads (released[]): before one is given again, every shadow byte that
 * still says it is cleared (recycle_id), so that the new thread's first
 * access to those lines calls.  With none free a thread gets SH_NOFAST and
 * every access of it calls (slower, still seen).  Id 1 is the solo
 * thread's and never given again. */
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_fresh = SH_SOLO_ID + 1;
static struct {
    uint8_t id;
    uint32_t num;             /* the ended thread that had it */
} released[SH_MAXID + 1];
static uint32_t nreleased;
static uint64_t ids_recycled, nofast_threads, blocks_checked;

/* The fork/join clock: pthread_create and pthread_join calls so far
 * (pi_sharing_fork, pi_sharing_joined).  Threads whose lives in epochs
 * overlap may run at once, whatever the scheduler did in this run. */
static uint32_t epoch;

/* The fast path the plugin inlines before each probe call (pass-sharing.cc):
 * a line whose shadow byte is the thread's id is private to that thread and
 * needs no call.  The byte is set once the runtime has seen `footprint`
 * accesses of the owner to the line (so that private lines still leave a
 * footprint for the prediction), and set to SH_SAMPLED_BYTE (or, exact,
 * SH_SHARED_BYTE) when a second thread arrives.  The shadow is mapped on
 * the first probe call. */
PI_EXPORT uint8_t *__perfinst_share_shadow;
/* What the inlined footprint path reads (pass-sharing.cc, fp_path), just
 * below the byte shadow, so that the check reaches it from the shadow's
 * address it holds already (no variable of the runtime's in the program:
 * a copy relocation would move the program's globals): the index shadow,
 * the record pool as the path sees it (the index's record k is recs[k];
 * record 0 an empty one, fp_id 0, so that a line without a record needs no
 * test), and a copy of the fork/join clock (epoch_publish). */
struct sh_head {
    uint32_t pad;
    uint32_t epoch;
    struct sh_line *recs;
    uint32_t *index;
};
_Static_assert(sizeof(struct sh_head) - offsetof(struct sh_head, index) == PI_SHARE_HEAD_INDEX &&
                   sizeof(struct sh_head) - offsetof(struct sh_head, recs) == PI_SHARE_HEAD_RECS &&
                   sizeof(struct sh_head) - offsetof(struct sh_head, epoch) == PI_SHARE_HEAD_EPOCH,
               "the offsets below the shadow pass-sharing.cc reads");
static struct sh_head *head;
/* The thread's state the inlined check reads: one TLS object, so that one
 * address (a GOT load in a program linked with libperfinst.so) serves both:
 *     countdown  at +0: the sampling countdown (PERFINST_SHARING_PERIOD, below)
 *     id         at +4: the thread's fast-path id
 * and, for the runtime only, its number, its birth in epochs and flags. */
struct sh_tls {
    uint32_t countdown;
    uint8_t id;
    uint8_t pad[3];           /* 0: the footprint path reads id as a 32-bit word */
    uint32_t num;             /* thread number, 0 before its first call */
    uint32_t birth;           /* epoch of the pthread_create that made it */
    uint32_t flags;           /* PI_SHARE_THREAD_*: EPOCHS once birth is known, FORKS */
    uint32_t intro;           /* sampled mode: calls left of its introduction (sampled_access) */
    int64_t known;            /* its known lines: the bitmap's distance from the byte shadow (known_get) */
};
/* (a countdown of 1 before its first call: a new thread's first access to
 * a sampled line calls, and gets it an id and its introduction) */
PI_EXPORT __thread struct sh_tls __perfinst_share_tls __attribute__((tls_model("initial-exec"))) = {
    1, SH_NO_ID, {0}, 0, 0, 0, 0, 0};
_Static_assert(offsetof(struct sh_tls, countdown) == 0 && offsetof(struct sh_tls, id) == 4 &&
                   offsetof(struct sh_tls, known) == PI_SHARE_TLS_KNOWN,
               "the layout pass-sharing.cc reads");
/* A thread's known lines (sampled mode): a byte per line, as the byte
 * shadow, bit SH_KNOWN_READ of line ln's set once the runtime has seen the
 * thread read the line, SH_KNOWN_WRITE once it saw it write it -- in a call
 * of its for the line while the line was shared, or in its footprint of a
 * line private to it.  The inlined check of an access to a sampled line
 * whose bit is clear calls (after counting the countdown down): a thread's
 * first read and first write of each shared line are seen in every run,
 * whenever they come, not only when a sample falls on them.  (A read of a
 * read-only shared line is still skipped: those are the hot reads of
 * read-mostly data.)  (The bits are cleared when a new
 * object's allocation retires the thread's bytes there: its first access
 * to the new object calls too.)  One map per thread alive (2^41 bytes,
 * 2 TiB of MAP_NORESERVE address space as the byte shadow, touched only
 * where the thread has shared lines: 4 KiB per 256 KiB of them), kept for
 * the next thread when one ends (cleared).  The inlined check reaches it as
 * the byte shadow's address plus tls.known: 0 before the thread's first
 * call (the byte shadow itself: a check of a sampled line calls then
 * anyway, its countdown being 1), known_none's distance for a thread
 * without one (no fast-path id, or no address space left: every access it
 * makes to a shared line calls). */
#define SH_KNOWN_READ 1u      /* (pass-sharing.cc's) */
#define SH_KNOWN_WRITE 2u
static __thread uint8_t *known_map __attribute__((tls_model("initial-exec")));
static uint8_t *known_none;           /* all clear, read-only */
static size_t known_size;             /* a map's bytes (and a page beyond: a loop's check reads 8) */
static uint8_t *known_spare[8];       /* maps of ended threads, for new ones (ids_lock) */
static uint32_t nknown_spare;
/* The solo phase (docs/sharing.md, "First touches"): while one thread
 * alone has an id, its first call for a line of a page it had not touched
 * claims the page: the line's byte becomes its id (touched), the page's
 * other free bytes SH_CLAIM_BYTE; its first call for a claimed line turns
 * the byte into its id at the top of access1 (no lock, no record) -- one
 * short call per line instead of `footprint` calls, and no record: the
 * byte says the line was touched.  When a thread is created
 * (pi_sharing_fork), or a second thread gets an id, end_solo makes the
 * records of the lines the solo thread touched (owner: the solo thread,
 * seen, counts from then on) and clears every byte of the claimed
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
#define my_num __perfinst_share_tls.num
#define __perfinst_share_countdown __perfinst_share_tls.countdown
/* PERFINST_SHARING_SAMPLE=N: accesses of the owner seen before a private
 * line's byte is set (its footprint for the prediction) */
static uint64_t footprint = 64;
/* __perfinst_share's fast path takes an access while its line's counts stay
 * below this: the footprint, or (PERFINST_SHARING_SAMPLE=0: no byte is ever
 * set) a bound that keeps the saturating counts far from saturation */
static uint64_t footprint_fast = 64;
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

static uint32_t now_epoch(void)
{
    return __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);
}

/* The clock moved to e: the footprint path's copy follows (never back) */
static void epoch_publish(uint32_t e)
{
    struct sh_head *h = __atomic_load_n(&head, __ATOMIC_ACQUIRE);
    if (!h)
        return;
    uint32_t cur = __atomic_load_n(&h->epoch, __ATOMIC_RELAXED);
    while (cur < e && !__atomic_compare_exchange_n(&h->epoch, &cur, e, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
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
    footprint_fast = footprint ? footprint : 1u << 30;
    v = secure_getenv("PERFINST_SHARING_SITES");
    if (v)
        pi_env_sharing_sites(v, &sites_max);
    v = secure_getenv("PERFINST_SHARING_ALLOCS");
    if (v)
        pi_env_sharing_allocs(v, &allocs_max);
    v = secure_getenv("PERFINST_SHARING_THREADS");
    if (v)
        pi_env_sharing_threads(v, &threads_max);
    for (alloc_hash_bits = 10; (1u << alloc_hash_bits) < 2 * allocs_max; alloc_hash_bits++)
        ;
    struct sh_line *pool = map(sizeof(struct sh_line) * ((1ul << line_bits) + 1));
    lines = pool ? pool + 1 : NULL;
    ishadow = map(sizeof(uint32_t) << SH_SHADOW_BITS);
    const char *pre = getenv("LD_PRELOAD");
    if (!ishadow && pre && strstr(pre, "/vgpreload_core-")) {
        /* under valgrind (callgrind counts the inlined check): smaller shadows */
        line_mask = (1ull << SH_VALGRIND_BITS) - 1;
        ishadow = map(sizeof(uint32_t) << SH_VALGRIND_BITS);
    }
    /* (under valgrind, or a ulimit -v, a smaller pool: what does not fit
     * is counted) */
    for (sites = map(sizeof(struct sh_site) * (size_t)sites_max); !sites && sites_max > 1u << 16;)
        sites = map(sizeof(struct sh_site) * (size_t)(sites_max /= 2));
    line_sites = map(sizeof(uint32_t) << line_bits);
    allocs = map(sizeof(struct sh_alloc) * allocs_max);
    alloc_hash = map(sizeof(uint32_t) << alloc_hash_bits);
    solo_pages = map(sizeof(uint64_t) * SOLO_PAGES_MAX);
    threads = map(sizeof(struct sh_thread) * ((size_t)threads_max + 1));
    /* The inlined checks read the byte shadow, and on a byte of 0 the index
     * shadow, without testing their addresses (pass-sharing.cc): without
     * them the instrumented code cannot run. */
    uint8_t *shadow = map(line_mask + 1 + 4096 + 4096); /* (a page beyond it: a loop's check reads 8 bytes) */
    if (shadow)
        shadow += 4096; /* (struct sh_head below it) */
    known_size = line_mask + 1 + 4096;
    known_none = mmap(NULL, known_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (known_none == MAP_FAILED)
        known_none = NULL;
    if (!shadow || !ishadow) {
        pi_say("perfinst: sharing: cannot map the byte shadow and the line index the inlined checks read (10 TiB "
               "of address space; ulimit -v?): a program built with sharing detection cannot run without them\n",
               NULL);
        for (;;) /* (not _exit: libperfinst.so's writes a trace, exit-wrap.c) */
            syscall(SYS_exit_group, 127);
    }
    int ok = lines && sites && line_sites && allocs && alloc_hash && threads && known_none;
    if (!ok)
        pi_say("perfinst: sharing: cannot map the shadow lines; nothing is recorded\n", NULL);
    /* (without the pool no record is made: every index is 0, the empty
     * record's) */
    static struct sh_line no_records;
    head = (struct sh_head *)shadow - 1;
    head->recs = ok ? pool : &no_records;
    head->index = ishadow;
    epoch_publish(now_epoch());
    __atomic_store_n(&sh_state, ok ? 1 : 2, __ATOMIC_RELEASE);
    __atomic_store_n(&pi_sharing_heap_watch, ok, __ATOMIC_RELEASE);
    if (ok && pi_heap_watch)
        pi_heap_watch();
    __atomic_store_n(&__perfinst_share_shadow, shadow, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&sh_init_lock);
}

/* Called at start-up from each instrumented unit's .init_array entry
 * (pass-sharing.cc): the shadow is mapped before the program's loops run,
 * whose inlined checks load its address once (a loop that began before it
 * was mapped would call on every access). */
static uintptr_t unit_pcs[64]; /* a code address in each module with a unit that called it */
static const void *unit_bases[64]; /* ... and where that module is loaded (dladdr) */
static uint32_t nunit_pcs;

PI_EXPORT void __perfinst_share_start(void)
{
    if (!__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE))
        sh_init();
    /* its module is listed in the trace even when no site or allocation
     * names code in it: the lines of its globals are named through it
     * (constructors run one at a time) */
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    Dl_info di;
    const void *base = dladdr((void *)pc, &di) ? di.dli_fbase : NULL;
    uint32_t n = __atomic_load_n(&nunit_pcs, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n && base; i++)
        if (unit_bases[i] == base)
            return; /* (a program's many units: one entry for their module) */
    if (n < sizeof unit_pcs / sizeof *unit_pcs) {
        unit_pcs[n] = pc;
        unit_bases[n] = base;
        __atomic_store_n(&nunit_pcs, n + 1, __ATOMIC_RELEASE);
    }
}

/* A bitmap of known lines for a new thread with fast-path id `id` (ids_lock
 * held): an ended thread's, cleared, or a new one; NULL for none (a thread
 * without a fast-path id, or no address space: its checks read known_none,
 * and every access it makes to a shared line calls). */
static uint8_t *known_get(uint8_t id)
{
    if (id == SH_NOFAST || !known_none || period == 1)
        return NULL;
    if (nknown_spare) {
        uint8_t *m = known_spare[--nknown_spare];
        madvise(m, known_size, MADV_DONTNEED); /* (private anonymous memory: zero again) */
        return m;
    }
    return map(known_size);
}

/* The known lines' bits an access of kind `write` (SH_WRITE, SH_RMW or 0) needs. */
static inline uint8_t known_bits(int write)
{
    return (uint8_t)((is_read(write) ? SH_KNOWN_READ : 0) | (write & SH_WRITE ? SH_KNOWN_WRITE : 0));
}

/* Has the runtime seen this thread on line ln as an access of `kind` is
 * (a write, a read-modify-write's included; or a read)? */
static inline int known_test(uint64_t ln, int kind)
{
    uint8_t *m = known_map, k = kind & SH_WRITE ? SH_KNOWN_WRITE : SH_KNOWN_READ;
    return m && (__atomic_load_n(&m[ln & SH_LINE_MASK], __ATOMIC_RELAXED) & k) == k;
}

/* The bits k of line ln set in map m (NULL: none).  (Atomic: another
 * thread's retire_bytes may clear the byte.) */
static inline void known_add(uint8_t *m, uint64_t ln, uint8_t k)
{
    if (m && k && (__atomic_load_n(&m[ln & SH_LINE_MASK], __ATOMIC_RELAXED) & k) != k)
        __atomic_fetch_or(&m[ln & SH_LINE_MASK], k, __ATOMIC_RELAXED);
}

/* This thread's bits k of line ln set. */
static inline void known_set(uint64_t ln, uint8_t k)
{
    known_add(known_map, ln, k);
}

/* Thread num's map, read by another thread (NULL: none). */
static uint8_t *known_of(uint32_t num)
{
    return num && num <= threads_max ? __atomic_load_n(&threads[num].known, __ATOMIC_ACQUIRE) : NULL;
}

/* Thread num's bits k of line ln set, by another thread (the owner's
 * private bytes are recorded when its line becomes shared).  (A race of a
 * few instructions with num's end and another thread's start could set the
 * bit in the map the new thread took: its first access of that line would
 * then be seen only when sampled.) */
static void known_or(uint32_t num, uint64_t ln, uint8_t k)
{
    known_add(known_of(num), ln, k);
}

/* Thread num's bits of line ln cleared: its next read and write there call.
 * (Of a thread that ended meanwhile, perhaps in a map another thread has
 * now: a call more.) */
static void known_clear(uint32_t num, uint64_t ln)
{
    uint8_t *m = known_of(num);
    if (m && __atomic_load_n(&m[ln & SH_LINE_MASK], __ATOMIC_RELAXED))
        __atomic_store_n(&m[ln & SH_LINE_MASK], 0, __ATOMIC_RELAXED);
}

/* The bits of bytes read r and written w. */
static inline uint8_t known_rw(uint64_t r, uint64_t w)
{
    return (uint8_t)((r ? SH_KNOWN_READ : 0) | (w ? SH_KNOWN_WRITE : 0));
}

/* Fast-path id b of the ended thread num is given again: every shadow byte
 * that still says b (lines private to num) is cleared first, so that the
 * new thread's first access to them calls (ids_lock held). */
static void recycle_id(uint8_t b, uint32_t num)
{
    uint32_t n = __atomic_load_n(&nused, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n && i < (1u << line_bits); i++) {
        struct sh_line *l = &lines[i];
        uint64_t k = __atomic_load_n(&l->key, __ATOMIC_ACQUIRE);
        if (!k || l->owner != num)
            continue;
        __atomic_store_n(&l->fp_id, 0, __ATOMIC_RELEASE); /* (nor its footprint path) */
        uint8_t v = b;
        __atomic_compare_exchange_n(&__perfinst_share_shadow[(k - 1) & SH_LINE_MASK], &v, 0, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED);
    }
    ids_recycled++;
}

/* The calling thread's number and fast-path id, on its first call. */
static uint8_t new_id(void)
{
    uint32_t n = __atomic_add_fetch(&nthreads_seen, 1, __ATOMIC_RELAXED);
    if (n > threads_max) {
        __atomic_fetch_add(&threads_lost, 1, __ATOMIC_RELAXED);
        n = threads_max; /* folded into the last number */
    }
    uint8_t id = SH_NOFAST;
    pthread_mutex_lock(&ids_lock);
    if (n == SH_SOLO_ID)
        id = SH_SOLO_ID;
    else if (next_fresh <= SH_MAXID)
        id = (uint8_t)next_fresh++;
    else if (nreleased) {
        nreleased--;
        id = released[nreleased].id;
        recycle_id(id, released[nreleased].num);
    } else
        nofast_threads++;
    struct sh_thread *t = &threads[n];
    t->tid = (uint32_t)gettid();
    t->cpu = (uint32_t)sched_getcpu();
    t->byte_id = id;
    t->self = pthread_self();
    t->death = PI_SHARE_EPOCH_NONE;
    uint8_t *km = known_get(id);
    __atomic_store_n(&t->known, km, __ATOMIC_RELEASE);
    /* born of a pthread_create the runtime saw, or the process's first thread */
    if (!(__perfinst_share_tls.flags & PI_SHARE_THREAD_EPOCHS) && t->tid == (uint32_t)getpid())
        __perfinst_share_tls.flags |= PI_SHARE_THREAD_EPOCHS;
    t->birth = __perfinst_share_tls.birth;
    t->flags = __perfinst_share_tls.flags;
    pthread_mutex_unlock(&ids_lock);
    my_num = n;
    my_id = id;
    known_map = km;
    if (__perfinst_share_shadow && known_none)
        __perfinst_share_tls.known = (km ? km : known_none) - __perfinst_share_shadow;
    __perfinst_share_countdown = next_countdown(); /* its first sample as random as the others */
    if (period > 1) { /* (sampled_access, "a thread's introduction") */
        __perfinst_share_tls.intro = SH_INTRO_CALLS;
        __perfinst_share_countdown = 1;
    }
    /* (every later thread too: end_solo holds solo_lock until the phase is
     * over, so no other thread touches a line before its bytes are cleared) */
    if (n > SH_SOLO_ID && __atomic_load_n(&solo, __ATOMIC_ACQUIRE))
        end_solo();
    return id;
}

/* ---- fork/join epochs (thread.c calls these) ------------------------------ */

/* pthread_create is about to start a thread: its birth epoch.  The solo
 * phase ends here, in program order: the creating thread's accesses from
 * now on are counted whenever the new thread first runs (ending it at the
 * new thread's first call left the accesses in between to the scheduler).
 * (new_id still ends it for a thread started where the runtime did not see
 * pthread_create.) */
uint32_t pi_sharing_fork(void)
{
    if (__atomic_load_n(&solo, __ATOMIC_ACQUIRE))
        end_solo();
    __perfinst_share_tls.flags |= PI_SHARE_THREAD_FORKS;
    uint32_t num = my_num;
    if (num && threads)
        __atomic_fetch_or(&threads[num].flags, PI_SHARE_THREAD_FORKS, __ATOMIC_RELAXED);
    uint32_t e = __atomic_add_fetch(&epoch, 1, __ATOMIC_ACQ_REL);
    epoch_publish(e);
    return e;
}

/* The new thread, before its start routine: born at that epoch. */
void pi_sharing_thread_start(uint32_t birth)
{
    __perfinst_share_tls.birth = birth;
    __perfinst_share_tls.flags |= PI_SHARE_THREAD_EPOCHS;
}

/* pthread_join(th) returned: th's death epoch. */
void pi_sharing_joined(pthread_t th)
{
    uint32_t e = __atomic_add_fetch(&epoch, 1, __ATOMIC_ACQ_REL);
    epoch_publish(e);
    __perfinst_share_tls.flags |= PI_SHARE_THREAD_FORKS;
    uint32_t num = my_num;
    if (!threads || __atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1)
        return;
    if (num)
        __atomic_fetch_or(&threads[num].flags, PI_SHARE_THREAD_FORKS, __ATOMIC_RELAXED);
    pthread_mutex_lock(&ids_lock);
    uint32_t n = __atomic_load_n(&nthreads_seen, __ATOMIC_RELAXED);
    for (uint32_t i = n < threads_max ? n : threads_max; i >= 1; i--)
        if (threads[i].death == PI_SHARE_EPOCH_NONE && pthread_equal(threads[i].self, th) &&
            threads[i].tid) {
            threads[i].death = e;
            break;
        }
    pthread_mutex_unlock(&ids_lock);
}

/* The calling thread ends: its fast-path id may be given to a new thread
 * (recycle_id, when the fresh ones are gone). */
void pi_sharing_thread_exit(void)
{
    uint8_t id = my_id;
    uint32_t num = my_num;
    if (num && threads && num <= threads_max)
        __atomic_store_n(&threads[num].ended, 1, __ATOMIC_RELEASE);
    if (!num || id == SH_NO_ID || id == SH_NOFAST || id == SH_SOLO_ID)
        return;
    pthread_mutex_lock(&ids_lock);
    if (nreleased < SH_MAXID + 1) {
        released[nreleased].id = id;
        released[nreleased].num = num;
        nreleased++;
    }
    __atomic_store_n(&threads[num].known, NULL, __ATOMIC_RELEASE);
    if (known_map && nknown_spare < sizeof known_spare / sizeof *known_spare)
        known_spare[nknown_spare++] = known_map;
    else if (known_map)
        munmap(known_map, known_size);
    known_map = NULL;
    if (known_none)
        __perfinst_share_tls.known = known_none - __perfinst_share_shadow;
    pthread_mutex_unlock(&ids_lock);
    my_id = SH_NOFAST; /* (a destructor of another key may still run instrumented code) */
}

static inline uint64_t bytes_of(unsigned off, unsigned size)
{
    return size >= 64 ? ~0ull << off : ((1ull << size) - 1) << off;
}

/* The record of line ln, made on first sight; NULL when the pool is full
 * (counted) or ln lies beyond 47-bit addresses and aliases another line. */
static struct sh_line *line_get(uint64_t ln, uint32_t num)
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
        l->owner = num;
        l->o_efirst = PI_SHARE_EPOCH_NONE;
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

/* A thread is created (or a second thread has an id): the solo phase ends.
 * Every line of a claimed page the solo thread touched gets its record
 * (owner the solo thread, seen: a later reload of it is one), and every
 * byte of those pages is
 * cleared, so that from now on each line's first accesses call as on any
 * line (the solo thread's footprint, then the byte again).  The phase is
 * over only when this is done: solo_lock is held throughout and `solo`
 * cleared at the end, so every other thread that gets an id meanwhile
 * waits here (new_id) before its first access -- a line it touched before
 * its byte was cleared would otherwise look shared with the solo thread,
 * and a third thread's first access to it would only be sampled (the
 * verdict would depend on how fast this loop ran).  The solo thread's own
 * claimed bytes race with the loop only through compare-and-swap (access1):
 * a byte it turned into its id is the loop's to record, one it found
 * cleared is an access after the phase. */
static void end_solo(void)
{
    pthread_mutex_lock(&solo_lock);
    if (__atomic_load_n(&solo, __ATOMIC_RELAXED)) {
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
                __atomic_store_n(b, 0, __ATOMIC_RELEASE);
            }
        nsolo_pages = 0;
        __atomic_store_n(&solo, 0, __ATOMIC_RELEASE);
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


static void note_epoch(uint32_t *first, uint32_t *last, uint32_t e)
{
    if (*first == PI_SHARE_EPOCH_NONE || e < *first)
        *first = e;
    if (e > *last)
        *last = e;
}

/* Thread num's entry on a shared line (line lock held), made on first
 * sight: the line's entries double as threads come (an array of the
 * runtime's memory); NULL only when out of memory (the access is then not
 * counted). */
static struct sh_te *entry(struct sh_ext *e, uint32_t num)
{
    struct sh_te *t = sh_entry(e, num);
    if (t)
        return t;
    struct sh_te *more = calloc(2 * (size_t)e->cap, sizeof *more);
    if (!more)
        return NULL;
#ifdef __SANITIZE_ADDRESS__
    __lsan_ignore_object(more); /* (as the line's extension) */
#endif
    memcpy(more, e->t, e->n * sizeof *more);
    /* the old array is not freed: the trace writer may be reading it */
    __atomic_store_n(&e->t, more, __ATOMIC_RELEASE);
    e->cap *= 2;
    return sh_entry(e, num);
}

/* One access of thread num to line record l (weight: accesses it stands
 * for, 0 for none) and its reload (rel 1 true, 2 false, each standing for
 * rel_w) at code address pc: its (site, line, thread) record, found on the
 * line's list or made.  The list only grows (pushed with compare-and-swap:
 * a private line's owner adds without the line's lock); a push that loses
 * the race looks through the sites pushed meanwhile before it tries again,
 * so no key is made twice. */
static void site_add(struct sh_line *l, uint64_t pc, uint32_t num, int write, uint64_t bytes, uint64_t weight,
                     int rel, uint64_t rel_w, const char *what)
{
    uint32_t *list = &line_sites[l - lines];
    uint32_t top = __atomic_load_n(list, __ATOMIC_ACQUIRE), seen = 0, mine = 0;
    struct sh_site *s = NULL;
    for (;;) {
        for (uint32_t si = top; si && si != seen; si = sites[si - 1].next)
            if (sites[si - 1].pc == pc && sites[si - 1].thread == num) {
                s = &sites[si - 1];
                break;
            }
        if (s)
            break; /* (mine, if made, stays unused: ready 0) */
        if (!mine) {
            /* (the count stops near the end: it cannot wrap) */
            mine = __atomic_load_n(&nsites_used, __ATOMIC_RELAXED) < sites_max
                       ? __atomic_fetch_add(&nsites_used, 1, __ATOMIC_RELAXED) + 1 : UINT32_MAX;
            if (mine > sites_max) {
                __atomic_fetch_add(&sites_lost, 1, __ATOMIC_RELAXED);
                return;
            }
            struct sh_site *m = &sites[mine - 1];
            m->pc = pc;
            m->line = (l->key - 1) * PI_SHARE_LINE;
            m->thread = num;
            m->what = what;
        }
        sites[mine - 1].next = top;
        seen = top;
        if (__atomic_compare_exchange_n(list, &top, mine, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
            s = &sites[mine - 1];
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            break;
        }
        /* (top: the list's head now; the sites from it to `seen` are new) */
    }
    /* under the line's lock, or the private line's owner: one writer per (line, site) */
    s->flags |= (write & SH_WRITE ? PI_ACCESS_WRITE : 0) | (is_read(write) ? PI_ACCESS_READ : 0);
    s->accesses += weight;
    if ((__atomic_load_n(&s->mask, __ATOMIC_RELAXED) & bytes) != bytes) /* (atomic: retire_bytes) */
        __atomic_fetch_or(&s->mask, bytes, __ATOMIC_RELAXED);
    s->rt += rel == 1 ? rel_w : 0;
    s->rf += rel == 2 ? rel_w : 0;
}

/* The shared state: coherence, classification, counts.  Line lock held. */
static void shared_access(struct sh_line *l, uint32_t num, uint64_t bytes, unsigned off, int write, uint64_t pc,
                          const char *what)
{
    struct sh_ext *e = l->ext;
    struct sh_te *t = entry(e, num);
    if (!t)
        return;
    int rel = sh_coherence(e, t, bytes, write);
    if (rel == SH_TRUE) {
        t->rt++;
        e->area_true[off / 8]++;
    } else if (rel == SH_FALSE) {
        t->rf++;
        e->area_false[off / 8]++;
    }
    note_epoch(&t->e_first, &t->e_last, now_epoch());
    if (write) {
        t->w |= bytes;
        t->writes++;
    } else {
        t->r |= bytes;
        t->reads++;
    }
    if (rel || t->cpu == ~0u) /* the CPU where the line moved to (asking costs; hits do not) */
        t->cpu = (uint32_t)sched_getcpu();
    site_add(l, pc, num, write, bytes, 1, rel, 1, what);
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

/* The byte of a shared line without an open window: every access calls
 * (exact mode); sampled; or, while no thread wrote it since it became
 * shared, skipped by reads (a write calls and makes it sampled). */
static uint8_t shared_byte(const struct sh_ext *e)
{
    return period == 1 ? SH_SHARED_BYTE : e->written ? SH_SAMPLED_BYTE : SH_RO_BYTE;
}

/* Judge a window: the access that closes it is a reload when another thread
 * wrote since the window opened (t's copy is invalid), true sharing when
 * they wrote bytes it touches.  Each judged access stands for `period`. */
static int judge(struct sh_ext *e, struct sh_te *t, uint64_t bytes, unsigned off)
{
    t->armed = 0;
    e->windows--;
    if (t->valid)
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
 * either a sample (the countdown reached 0: fired 1), an access during a
 * window, or one of the thread's introduction (fired 2).
 *
 * A thread's introduction: a thread joining lines other threads already
 * share (their byte SH_SAMPLED_BYTE) would be seen there only when a
 * sample fell on its accesses -- a few accesses, a field it writes once a
 * phase, would be missed in most runs and seen in some.  So a thread's
 * countdown stays at 1 for its first SH_INTRO_CALLS accesses to sampled
 * lines: each calls, and the bytes and site of each that touches bytes
 * new to the thread on its line are kept (not counted: the countdown
 * stands for none of them).  The cost is SH_INTRO_CALLS calls per thread
 * at most.  (A variant that went on past that while the calls found lines
 * new to the thread, opened newcomers' footprints and kept the site of
 * every call meanwhile cost kmeans 3 % and lu 8 % more instructions.)  A
 * thread's first read, and first write, of a shared line after its
 * introduction call through its known lines (known_map): fired 3. */
static void sampled_access(struct sh_line *l, uint64_t ln, uint32_t num, uint64_t bytes, unsigned off, int write,
                           uint64_t pc, const char *what, int fired)
{
    struct sh_ext *e = l->ext;
    struct sh_te *t = entry(e, num);
    if (!t)
        return;
    int sample = fired == 1;
    /* (in its introduction the countdown stays as access1 set it; an
     * introduction's call with bytes new to the thread here keeps its
     * site, as does its first write here, which opens no newcomer's
     * footprint: its next accesses call anyway) */
    int intro = fired == 2 || __perfinst_share_tls.intro;
    /* (fired 3: a call of the inlined check for a line whose bit is clear
     * in the thread's known lines, after it counted the countdown down:
     * the thread's first read or first write of the line, or of a new
     * object on it -- its bytes and site kept, as in the introduction) */
    /* (and any call for a struct's field with bytes new to the thread
     * here: its bytes are kept below, and the plan takes a struct's fields
     * from the sites' `what` -- a call while the line's byte made every
     * access call (a window or a newcomer's footprint open, fired 0) kept
     * the bytes of a field without its site, and which fields the plan
     * padded depended on where the other threads were:
     * tests/sharing/newfield.c.  Not for accesses that name no field: the
     * plan does not need them, and kmeans' threads, made every iteration,
     * had 2.6 times the sites) */
    int fresh = (bytes & ~(t->r | t->w)) != 0;
    int intro_new = (fresh && (fired == 2 || fired == 3 || what != NULL)) ||
                    (intro && t->fp_state == 0 && (write & SH_WRITE));
    if (!sample && !intro && fired != 3) { /* a call the countdown did not make (a window, a first touch): it counts too */
        if (__perfinst_share_countdown <= 1) {
            sample = 1;
            __perfinst_share_countdown = next_countdown();
        } else
            __perfinst_share_countdown--;
    }
    /* A newcomer's footprint: a thread's first call on a shared line, when
     * it writes (the access that made it shared, or a sample), lets its
     * next accesses call too, SH_NEWCOMER_FP of them, their bytes and sites kept
     * but not counted (the countdown stands for them, as in a window): the
     * fields a thread touches once a turn right after the one that brought
     * it there (a struct's own field after its shared counter) are seen in
     * every run, not only when sampled.  Other threads' accesses call
     * meanwhile (the byte is per line): SH_NEWCOMER_WAIT of their calls
     * close it.  A thread that came to read (a pivot row, read-mostly
     * data) opens none, nor does one in its introduction: its next
     * accesses call anyway, and the others' need not. */
    int newcomer = 0;
    if (t->fp_state == 0) {
        t->fp_state = 2;
        if ((write & SH_WRITE) && !intro) {
            t->fp_state = 1;
            t->fp_left = SH_NEWCOMER_FP;
            e->footprints++;
            e->fp_calls = 0;
        }
    } else if (t->fp_state == 1) {
        newcomer = 1;
        if (!--t->fp_left) {
            t->fp_state = 2;
            e->footprints--;
        }
    } else if (e->footprints && ++e->fp_calls > SH_NEWCOMER_WAIT) {
        for (uint32_t i = 0; i < e->n; i++) /* (their threads went away: closed) */
            if (e->t[i].fp_state == 1)
                e->t[i].fp_state = 2;
        e->footprints = 0;
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
     * above, then the write; the reload, judged by the window, not here) */
    sh_coherence(e, t, bytes, write & SH_WRITE);
    note_epoch(&t->e_first, &t->e_last, now_epoch());
    if (is_read(write))
        t->r |= bytes;
    if (write & SH_WRITE)
        t->w |= bytes;
    if (rel || t->cpu == ~0u)
        t->cpu = (uint32_t)sched_getcpu();
    if (sample || rel || newcomer || intro_new)
        site_add(l, pc, num, write, bytes, sample ? period : 0, rel, period, what);
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
                site_add(l, o->armed_pc, o->num, 0, o->armed_bytes, 0, r, period, o->armed_what);
        }
        e->windows = 0;
    }
    /* Open windows make every access to the line call, closed ones let the
     * countdown sample again.  A window opens here, as the sampling call
     * ends, not when it started: the access it stands for happens after
     * the call returns, so other threads' writes meanwhile precede it (and
     * do not invalidate its copy); their accesses meanwhile need not call. */
    set_byte(ln, e->windows || e->footprints ? SH_SHARED_BYTE : shared_byte(e));
}

/* A shared line's coherence state: carved from mappings of 4 MiB (zeroed
 * by the kernel), each on lines of its own, kept until exit -- a calloc of
 * the runtime's allocator each (its lock, its size classes, a memset of
 * 1 KiB) cost about 490 instructions a shared line (lu: 2.5 % of its
 * detection run, bench/RESULTS.md). */
static struct sh_ext *ext_new(void)
{
    static pthread_mutex_t ext_lock = PTHREAD_MUTEX_INITIALIZER;
    static char *cur, *end;
    const size_t sz = (sizeof(struct sh_ext) + PI_SHARE_LINE - 1) & ~(size_t)(PI_SHARE_LINE - 1);
    const size_t chunk = (size_t)4 << 20;
    pthread_mutex_lock(&ext_lock);
    if ((size_t)(end - cur) < sz) {
        void *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            pthread_mutex_unlock(&ext_lock);
            return NULL;
        }
        cur = p;
        end = cur + chunk;
    }
    struct sh_ext *e = (struct sh_ext *)cur;
    cur += sz;
    pthread_mutex_unlock(&ext_lock);
    return e;
}

static inline void fp_arm(struct sh_line *l, uint8_t id, uint32_t ep, uint64_t count);

static __attribute__((noinline)) void slow(struct sh_line *l, uint64_t ln, uint32_t num, uint64_t bytes,
                                           unsigned off, int write, uint64_t pc, const char *what, int fired)
{
    lock(l);
    if (period > 1 && !l->shared && l->owner == SH_SOLO_ID && num != SH_SOLO_ID && !l->o_r && !l->o_w &&
        !l->o_reads && !l->o_writes && l->o_efirst == PI_SHARE_EPOCH_NONE) {
        /* the solo thread touched the line only in the solo phase (end_solo's
         * record: no bytes), before any other thread existed: nothing it did
         * there runs at once with this thread.  The line becomes this
         * thread's, private, with a first touch's footprint -- so that which
         * thread reaches a line main initialised first (a scheduler's
         * choice) does not decide whose bytes are recorded.  (The exact
         * mode sees every access: it keeps the solo thread's copy, whose
         * reload it counts.) */
        l->owner = num;
    }
    if (!l->shared) {
        if (l->owner == num) { /* a race with the line's creation: still private */
            if (write & SH_WRITE)
                l->o_w |= bytes, l->o_writes += l->o_writes != UINT32_MAX;
            if (is_read(write))
                l->o_r |= bytes, l->o_reads += l->o_reads != UINT32_MAX;
            uint32_t ep = now_epoch();
            note_epoch(&l->o_efirst, &l->o_elast, ep);
            /* (its next accesses taken by its inlined checks, as after a
             * first touch in private_access: a line the solo thread made,
             * main's input, is one call less for each of its readers) */
            fp_arm(l, my_id, ep, (uint64_t)l->o_reads + l->o_writes);
            unlock(l);
            return;
        }
        /* the owner's inlined checks call from now on (its byte changes at
         * the end of this call) */
        __atomic_store_n(&l->fp_id, 0, __ATOMIC_RELEASE);
        struct sh_ext *e = ext_new();
        if (!e) {
            unlock(l);
            return;
        }
        sh_ext_init(e);
        /* the owner, as it was: one valid copy, seen */
        struct sh_te *o = entry(e, l->owner);
        o->seen = 1;
        o->valid = 1;
        o->r = l->o_r;
        o->w = l->o_w;
        o->reads = l->o_reads;
        o->writes = l->o_writes;
        o->e_first = l->o_efirst;
        o->e_last = l->o_elast;
        o->fp_state = 2; /* (its footprint: the private phase's) */
        /* (what it read and wrote there is recorded: its known lines say so,
         * and its next read or write of the line need not call) */
        if (period > 1)
            known_or(l->owner, ln, known_rw(o->r, o->w));
        l->ext = e;
        __atomic_store_n(&l->shared, 1, __ATOMIC_RELEASE);
        /* every thread's accesses to it call now, or are sampled */
    }
    if (period > 1) {
        sampled_access(l, ln, num, bytes, off, write, pc, what, fired);
        known_set(ln, known_bits(write)); /* (seen here: its next accesses of this kind need only be sampled) */
    } else {
        if (write == SH_RMW)
            shared_access(l, num, bytes, off, 0, pc, what);
        shared_access(l, num, bytes, off, write & SH_WRITE, pc, what);
        set_byte(ln, SH_SHARED_BYTE);
    }
    unlock(l);
}

/* Let the owner's inlined checks take its next footprint accesses to l
 * themselves (struct sh_line, fp_id): the `count` accesses seen so far, of
 * `footprint`, the last noted in epoch ep.  Not in the solo phase, nor for
 * a thread without a fast-path id, nor when no byte is ever set
 * (PERFINST_SHARING_SAMPLE=0: every access calls); the access that ends the
 * footprint calls (the byte is set there). */
static inline void fp_arm(struct sh_line *l, uint8_t id, uint32_t ep, uint64_t count)
{
    if (count >= footprint || id == SH_NOFAST || __atomic_load_n(&solo, __ATOMIC_RELAXED))
        return;
    uint64_t left = footprint - count;
    l->fp_left = (uint16_t)(left > UINT16_MAX ? UINT16_MAX : left);
    l->fp_epoch = ep;
    __atomic_store_n(&l->fp_id, id, __ATOMIC_RELEASE);
}

/* An access of the owner to its private line (only this thread ever
 * touched it): its bytes and counts, while its footprint is taken. */
static inline __attribute__((always_inline)) void private_access(struct sh_line *l, uint64_t ln, uint32_t num,
                                                                 uint8_t id, uint64_t bytes, int write, uint64_t pc,
                                                                 const char *what)
{
    int fresh = 0;
    if (write & SH_WRITE) {
        if ((l->o_w & bytes) != bytes)
            l->o_w |= bytes, fresh = 1;
        l->o_writes += l->o_writes != UINT32_MAX;
    }
    if (is_read(write)) {
        if ((l->o_r & bytes) != bytes)
            l->o_r |= bytes, fresh = 1;
        l->o_reads += l->o_reads != UINT32_MAX;
    }
    /* bytes of a struct the owner touches for the first time: their site
     * (it names the struct and field, should the line be shared later or
     * the object be predicted at other placements), while the site table
     * is less than half full (private lines must not crowd out shared
     * ones); the key holds the thread: no other writer.  (The exact
     * mode records every access of a shared line: it needs none.) */
    if (__builtin_expect(fresh && what != NULL, 0) && period > 1 &&
        __atomic_load_n(&nsites_used, __ATOMIC_RELAXED) < (sites_max / 2 < SH_PRIVATE_SITES ? sites_max / 2 : SH_PRIVATE_SITES))
        site_add(l, pc, num, write, bytes, 1, 0, period, what);
    uint32_t ep = now_epoch();
    if (__builtin_expect(ep > l->o_elast || l->o_efirst == PI_SHARE_EPOCH_NONE, 0))
        note_epoch(&l->o_efirst, &l->o_elast, ep);
    fp_arm(l, id, ep, (uint64_t)l->o_reads + l->o_writes);
    if (__builtin_expect((uint64_t)l->o_reads + l->o_writes - footprint <= 1, 0) && footprint &&
        __perfinst_share_shadow && id != SH_NOFAST) { /* an RMW counts 2 */
        /* seen enough: the inlined check skips the call from now on,
         * unless another thread arrives (the byte becomes SH_SHARED_BYTE) */
        uint8_t none = 0;
        __atomic_compare_exchange_n(&__perfinst_share_shadow[ln & SH_LINE_MASK], &none, id, 0, __ATOMIC_RELEASE,
                                    __ATOMIC_RELAXED);
        known_set(ln, known_rw(l->o_r, l->o_w)); /* (its footprint) */
        /* a second thread may have made it shared meanwhile */
        if (__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE)) {
            lock(l);
            if (l->ext && !l->ext->windows && !l->ext->footprints)
                set_byte(ln, shared_byte(l->ext));
            unlock(l);
        }
    }
}

static __attribute__((noinline)) void access1(uintptr_t a, unsigned size, int write, uint64_t pc, const char *what)
{
    uint8_t id = my_id;
    if (__builtin_expect(id == SH_NO_ID, 0)) { /* (its countdown, and its introduction, start here) */
        if (__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1) {
            sh_init();
            if (sh_state != 1)
                return;
        }
        id = new_id();
    }
    /* the inlined countdown reached 0: this access is a sample, or one of
     * the thread's introduction (restart it here whatever the line turns
     * out to be, or it would wrap) */
    int fired = __perfinst_share_countdown == 0;
    if (fired && __perfinst_share_tls.intro) /* (sampled_access): not a sample */
        fired = 2, __perfinst_share_countdown = --__perfinst_share_tls.intro ? 1 : next_countdown();
    else if (fired)
        __perfinst_share_countdown = next_countdown();
    uint32_t num = my_num;
    uint64_t ln = a / PI_SHARE_LINE;
    unsigned off = (unsigned)(a % PI_SHARE_LINE);
    uint64_t bytes = bytes_of(off, size);
    if (!fired && period > 1 && __perfinst_share_shadow &&
        __atomic_load_n(&__perfinst_share_shadow[ln & SH_LINE_MASK], __ATOMIC_RELAXED) == SH_SAMPLED_BYTE &&
        !known_test(ln, write))
        fired = 3; /* (a first touch the check counted down: sampled_access) */
    if (id == SH_SOLO_ID && __atomic_load_n(&solo, __ATOMIC_ACQUIRE) && footprint && __perfinst_share_shadow) {
        uint8_t *b = &__perfinst_share_shadow[ln & SH_LINE_MASK];
        uint8_t v = SH_CLAIM_BYTE; /* a line of a claimed page: touched (unless end_solo cleared it) */
        if (__atomic_compare_exchange_n(b, &v, SH_SOLO_ID, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return;
        if (solo_touch(ln))
            return;
    }
    uint32_t k = __atomic_load_n(&ishadow[ln & SH_LINE_MASK], __ATOMIC_ACQUIRE);
    struct sh_line *l = k ? &lines[k - 1] : NULL;
    if (__builtin_expect(!l || l->key != ln + 1, 0)) {
        l = line_get(ln, num);
        if (!l)
            return;
    }
    if (__builtin_expect(l->owner == num && !__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE), 1)) {
        private_access(l, ln, num, id, bytes, write, pc, what);
        return;
    }
    slow(l, ln, num, bytes, off, write, pc, what, fired);
}

/* The inlined check's footprint path (pass-sharing.cc, fp_path) for the
 * runtime's own checks of a block's or a string's lines: an access of the
 * line's owner during its footprint, its bytes and counts into the record
 * without access1.  Returns 0 when the path is closed (the caller calls
 * access1).  (What a block touches names no struct field.) */
static inline int fp_take(uintptr_t a, unsigned size, int kind)
{
    struct sh_head *h = head;
    if (!h)
        return 0;
    struct sh_line *l = &h->recs[h->index[(a / PI_SHARE_LINE) & SH_LINE_MASK]];
    unsigned cost = (is_read(kind) ? 1 : 0) + (kind & SH_WRITE ? 1 : 0);
    if (l->fp_id != my_id || l->fp_epoch != __atomic_load_n(&h->epoch, __ATOMIC_RELAXED) || l->fp_left <= cost)
        return 0;
    uint64_t bytes = bytes_of((unsigned)(a % PI_SHARE_LINE), size);
    l->fp_left = (uint16_t)(l->fp_left - cost);
    if (is_read(kind))
        l->o_r |= bytes, l->o_reads++;
    if (kind & SH_WRITE)
        l->o_w |= bytes, l->o_writes++;
    return 1;
}

/* Every line of [a, a + size) (a block operation's, or an access that
 * crosses lines): each line's part, the first MiB standing for a larger
 * block.  With check, the inlined check's decision is taken here, per
 * line: a line private to this thread is skipped, a sampled shared one
 * counts the countdown down. */
static void access_range(uintptr_t a, size_t size, int kind, uint64_t pc, const char *what, int check)
{
    for (uintptr_t p = a, end = a + size; p < end;) {
        uintptr_t next = (p / PI_SHARE_LINE + 1) * PI_SHARE_LINE;
        unsigned part = (unsigned)((next < end ? next : end) - p);
        uint64_t ln = p / PI_SHARE_LINE;
        uint8_t b = check && __perfinst_share_shadow ? __atomic_load_n(
                        &__perfinst_share_shadow[ln & SH_LINE_MASK], __ATOMIC_RELAXED) : 0;
        int skip = 0; /* (the inlined check's decision, with the thread's known lines) */
        if (!check)
            skip = 0;
        else if (b == my_id)
            skip = 1;
        else if (b == SH_RO_BYTE && !(kind & SH_WRITE))
            skip = 1;
        else if (b == SH_SAMPLED_BYTE)
            skip = --__perfinst_share_countdown != 0 && known_test(ln, kind);
        else
            skip = !what && fp_take(p, part, kind);
        if (!skip)
            access1(p, part, kind, pc, what);
        p = next;
        if (p - a > 1u << 20)
            break; /* a huge block: the first MiB stands for it */
    }
}

/* __perfinst_share's cases other than its fast one (kept out of it, so that
 * it needs no stack frame) */
static __attribute__((noinline)) void share_general(uintptr_t a, unsigned size, int kind, uint64_t pc,
                                                    const char *what)
{
    if (__builtin_expect(a % PI_SHARE_LINE + size <= PI_SHARE_LINE, 1))
        access1(a, size, kind, pc, what);
    else /* an access that crosses lines (or a large copy): each line's part */
        access_range(a, size, kind, pc, what, 0);
}

PI_EXPORT void __perfinst_share(const void *addr, uint32_t info, const char *what)
{
    uintptr_t a = (uintptr_t)addr;
    unsigned size = (info & 0x7fffffffu) >> 1 ? (info & 0x7fffffffu) >> 1 : 1;
    int kind = (int)(info & 1) | (int)(info >> 31) << 1;
    uint64_t pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
    if (__builtin_expect(a % PI_SHARE_LINE + size <= PI_SHARE_LINE, 1)) {
        /* the most frequent call: an access of a line's owner while its
         * footprint is taken (a thread's first accesses to each line it
         * touches) that adds nothing but its bytes and counts -- access1's
         * private case without its other tests (countdown, first call,
         * solo phase: none applies to a line that has a record with this
         * thread as owner and a countdown > 0), and nothing to store
         * before it knows that none of access1's rarer work is due: a
         * struct's bytes touched for the first time (their site), a later
         * epoch, the footprint's end */
        uint64_t ln = a / PI_SHARE_LINE;
        uint32_t num = my_num; /* (0 before its first call, which maps the shadows) */
        if (__builtin_expect(num != 0, 1)) {
            uint32_t k = __atomic_load_n(&ishadow[ln & SH_LINE_MASK], __ATOMIC_ACQUIRE);
            struct sh_line *l = &lines[k - 1];
            if (__builtin_expect(k != 0 && l->key == ln + 1 && l->owner == num &&
                                     !__atomic_load_n(&l->shared, __ATOMIC_RELAXED), 1) &&
                __perfinst_share_countdown != 0 && !__atomic_load_n(&solo, __ATOMIC_RELAXED)) {
                uint64_t bytes = ((2ull << (size - 1)) - 1) << (a % PI_SHARE_LINE); /* (size 1..64) */
                uint64_t ow = l->o_w, or = l->o_r;
                uint32_t writes = l->o_writes, reads = l->o_reads;
                if (kind & SH_WRITE)
                    ow |= bytes, writes++;
                if (kind != SH_WRITE)
                    or |= bytes, reads++;
                uint32_t ep = now_epoch();
                if (__builtin_expect((!what || (ow == l->o_w && or == l->o_r)) && l->o_elast >= ep &&
                                         l->o_efirst != PI_SHARE_EPOCH_NONE &&
                                         (uint64_t)reads + writes < footprint_fast, 1)) {
                    l->o_w = ow, l->o_r = or, l->o_writes = writes, l->o_reads = reads;
                    fp_arm(l, my_id, ep, (uint64_t)reads + writes);
                    return;
                }
            }
        }
    }
    share_general(a, size, kind, pc, what);
}

/* A block operation's bytes from the call at pc (__perfinst_share_block,
 * __perfinst_share_string). */
static void block_at(const void *addr, size_t size, uint32_t kind, uint64_t pc)
{
    if (!size)
        return;
    if (__builtin_expect(my_id == SH_NO_ID, 0)) { /* its first call: an id, as access1 would */
        if (__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1) {
            sh_init();
            if (sh_state != 1)
                return;
        }
        new_id();
    }
    __atomic_fetch_add(&blocks_checked, 1, __ATOMIC_RELAXED);
    access_range((uintptr_t)addr, size, (int)(kind & 1), pc, NULL, 1);
}

/* A block operation the plugin found (memset, memcpy, memmove, bzero,
 * GCC's inline expansions of them included): its bytes read (kind 0) or
 * written (kind 1) -- memcpy is two calls.  No inlined check before it
 * (the block may span many lines): the check is made here, line by line. */
PI_EXPORT void __perfinst_share_block(const void *addr, size_t size, uint32_t kind)
{
    block_at(addr, size, kind, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* A string's bytes from the call at pc, its first line checked (and
 * counted down) already. */
static void string_at(const char *s, uint32_t kind, uint64_t pc)
{
    uintptr_t a = (uintptr_t)s, len = strlen(s) + 1, first = PI_SHARE_LINE - a % PI_SHARE_LINE;
    __atomic_fetch_add(&blocks_checked, 1, __ATOMIC_RELAXED);
    if (!fp_take(a, (unsigned)(len < first ? len : first), (int)(kind & 1)))
        access1(a, (unsigned)(len < first ? len : first), (int)(kind & 1), pc, NULL);
    if (len > first)
        access_range(a + first, len - first, (int)(kind & 1), pc, NULL, 1);
}

/* A C string a string builtin reads or writes (strlen, strcpy, strcmp,
 * ...): its bytes, the terminating NUL included. */
PI_EXPORT void __perfinst_share_string(const char *s, uint32_t kind)
{
    if (!s)
        return;
    /* the inlined check's decision for its first line, before strlen: most
     * strings lie in one line, and a line private to this thread, or one the
     * countdown does not pick, needs nothing more */
    uint8_t b = __perfinst_share_shadow ? __atomic_load_n(
                    &__perfinst_share_shadow[((uintptr_t)s / PI_SHARE_LINE) & SH_LINE_MASK], __ATOMIC_RELAXED) : 0;
    if (my_id == SH_NO_ID) { /* its first call: block_at makes the id */
        block_at(s, strlen(s) + 1, kind, (uint64_t)(uintptr_t)__builtin_return_address(0));
        return;
    }
    uint64_t ln = (uintptr_t)s / PI_SHARE_LINE;
    if (b == my_id || (b == SH_RO_BYTE && !(kind & 1)) ||
        (b == SH_SAMPLED_BYTE && --__perfinst_share_countdown != 0 && known_test(ln, (int)(kind & 1))))
        return;
    string_at(s, kind, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* The same, behind the plugin's inlined check of the string's first line
 * (the string a call reads, before the call): the check was made. */
PI_EXPORT void __perfinst_share_string_checked(const char *s, uint32_t kind)
{
    if (!s)
        return;
    if (my_id == SH_NO_ID) { /* its first call: block_at makes the id */
        block_at(s, strlen(s) + 1, kind, (uint64_t)(uintptr_t)__builtin_return_address(0));
        return;
    }
    string_at(s, kind, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* ---- heap objects ------------------------------------------------------------ */

/* A new object is recorded over bytes [p, p + size): what the lines'
 * records hold of those bytes was done to an earlier object there (heap
 * reuse: freed, perhaps by another thread, and given to this one) and is
 * forgotten, so that each object is judged by its own life's accesses
 * (docs/sharing.md, "Heap reuse").  Each thread's read, write and pending
 * bytes there are cleared; a thread left with no byte on a shared line
 * also loses its epochs there (its other counts and the reloads observed
 * stay).  A line private to the allocating thread itself keeps them: its
 * own earlier objects share nothing with it, and once the line's
 * footprint is taken its accesses to the new object are not recorded
 * (forgetting would leave it no byte there).  A private line's owner ORs
 * its bytes in without the lock: the clear is atomic, so a race keeps old
 * bytes (as before), never loses new ones.  Cost: one index load per line
 * of the object, or a scan of the records in use when they are fewer;
 * nothing on the access path.  Returns the number of lines where another
 * thread's bytes were forgotten.
 *
 * live_only (an allocation outside instrumented code, heap-wrap.c): only
 * the bytes of other threads still running are forgotten -- the threads
 * whose accesses to the old object could be mixed with the new one's.
 * Those of ended threads stay: libc's own allocations after the workers
 * are joined (printf's buffer over their freed data) would otherwise take
 * the freed objects' verdicts with them, and the ended threads run at
 * once with no later one. */
static int retires(uint32_t t, uint32_t num, int live_only)
{
    if (!live_only)
        return 1;
    if (t == num || !t || t > threads_max)
        return 0;
    return !__atomic_load_n(&threads[t].ended, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&threads[t].death, __ATOMIC_ACQUIRE) == PI_SHARE_EPOCH_NONE;
}

static uint32_t retire_bytes(uint64_t p, uint64_t size, uint32_t num, int live_only)
{
    uint32_t retired = 0;
    if (!size || p + size < p)
        return 0;
    uint64_t first = p / PI_SHARE_LINE, last = (p + size - 1) / PI_SHARE_LINE;
    uint32_t used = __atomic_load_n(&nused, __ATOMIC_ACQUIRE);
    if (used > (1u << line_bits))
        used = 1u << line_bits;
    int scan = last - first >= used;
    for (uint64_t x = 0, n = scan ? used : last - first + 1; x < n; x++) {
        struct sh_line *l;
        uint64_t ln;
        if (scan) {
            l = &lines[x];
            ln = __atomic_load_n(&l->key, __ATOMIC_ACQUIRE) - 1;
            if (ln < first || ln > last) /* (also an unused record: key 0) */
                continue;
        } else {
            ln = first + x;
            uint32_t k = __atomic_load_n(&ishadow[ln & SH_LINE_MASK], __ATOMIC_ACQUIRE);
            if (!k || lines[k - 1].key != ln + 1)
                continue;
            l = &lines[k - 1];
        }
        uint64_t base = ln * PI_SHARE_LINE;
        uint64_t lo = p > base ? p - base : 0, hi = p + size - base < PI_SHARE_LINE ? p + size - base : PI_SHARE_LINE;
        uint64_t keep = ~bytes_of((unsigned)lo, (unsigned)(hi - lo));
        int had = 0;
        lock(l);
        if (__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE)) {
            struct sh_ext *e = l->ext;
            for (uint32_t i = 0; i < e->n; i++) {
                struct sh_te *t = &e->t[i];
                if (!retires(t->num, num, live_only))
                    continue;
                had |= t->num != num && ((t->r | t->w | t->pending) & ~keep) != 0;
                t->r &= keep, t->w &= keep, t->pending &= keep;
                if (!t->r && !t->w)
                    t->e_first = PI_SHARE_EPOCH_NONE, t->e_last = 0;
                known_clear(t->num, ln); /* (its first accesses to the new object call) */
            }
        } else if (l->owner != num && retires(l->owner, num, live_only)) {
            had = ((__atomic_fetch_and(&l->o_r, keep, __ATOMIC_RELAXED) |
                    __atomic_fetch_and(&l->o_w, keep, __ATOMIC_RELAXED)) & ~keep) != 0;
            known_clear(l->owner, ln);
        } else {
            unlock(l);
            continue; /* (its sites stay with its bytes) */
        }
        /* the sites go with the bytes: a site left without a byte is the
         * old object's alone and is not written (its struct would name the
         * new object) */
        for (uint32_t si = __atomic_load_n(&line_sites[l - lines], __ATOMIC_ACQUIRE); si;
             si = sites[si - 1].next)
            if (retires(sites[si - 1].thread, num, live_only))
                __atomic_fetch_and(&sites[si - 1].mask, keep, __ATOMIC_RELAXED);
        unlock(l);
        retired += had;
    }
    return retired;
}

/* An allocation record (the allocation's call stack from pc; kind
 * PI_SHARE_ALLOC_UNRECORDED: none). */
static void record_alloc(void *p, size_t size, uint32_t kind, uint64_t pc)
{
    uint32_t i = __atomic_fetch_add(&nallocs, 1, __ATOMIC_RELAXED);
    if (i >= allocs_max) {
        __atomic_fetch_add(&allocs_lost, 1, __ATOMIC_RELAXED);
        return;
    }
    struct sh_alloc *o = &allocs[i];
    o->addr = (uintptr_t)p;
    o->size = size;
    o->seq = __atomic_add_fetch(&alloc_seq, 1, __ATOMIC_RELAXED);
    if (kind == PI_SHARE_ALLOC_UNRECORDED)
        o->nframes = 0;
    else {
        uint32_t seen = __atomic_fetch_add(
            &stack_site_allocs[(pc * 0x9e3779b97f4a7c15ull) >> (64 - SH_STACK_SITES_BITS)], 1, __ATOMIC_RELAXED);
        if (seen < SH_STACKS_FULL || seen % SH_STACKS_FULL == 0 || stack_frames == 1)
            o->nframes = pi_stack_from(pc, o->frames, stack_frames);
        else {
            o->frames[0] = pc;
            o->nframes = 1;
        }
    }
    o->kind = kind;
    o->thread = my_num;
    __atomic_store_n(&o->ready, 1, __ATOMIC_RELEASE);
    uint64_t h = ((uintptr_t)p * 0x9e3779b97f4a7c15ull) >> (64 - alloc_hash_bits);
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t *slot = &alloc_hash[(h + k) & ((1u << alloc_hash_bits) - 1)];
        uint32_t cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
        if (cur && allocs[cur - 1].addr != (uintptr_t)p && !allocs[cur - 1].freed)
            continue; /* another live object */
        __atomic_store_n(slot, i + 1, __ATOMIC_RELEASE);
        break;
    }
}

/* (fresh 0: a realloc in place, the same object, whose accesses stay) */
static void note_alloc(void *p, size_t size, uint32_t kind, uint64_t pc, int fresh)
{
    if (!p)
        return;
    if (__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1) {
        sh_init();
        if (sh_state != 1)
            return;
    }
    if (my_id == SH_NO_ID)
        new_id();
    if (fresh)
        retire_bytes((uintptr_t)p, size, my_num, 0);
    record_alloc(p, size, kind, pc);
}

/* heap-wrap.c's: an allocation made outside the recording twins (libc's
 * own, a library's) while detection runs.  Its bytes' old accesses are
 * forgotten as for a recorded object -- those of other threads still
 * running (retire_bytes' live_only); when some were, the
 * block is recorded as unrecorded memory (PI_SHARE_ALLOC_UNRECORDED:
 * pmopt names its bytes by their mapping, not by the earlier object at
 * the address).  A block whose lines held nothing of another thread's is
 * not recorded: libc's allocations do not fill the allocation table. */
void pi_sharing_heap_reused(void *p, size_t size, uint64_t pc)
{
    if (in_twin || __atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1)
        return;
    if (retire_bytes((uintptr_t)p, size, my_num, 1))
        record_alloc(p, size, PI_SHARE_ALLOC_UNRECORDED, pc);
}

static void note_free(uintptr_t p)
{
    if (!p || __atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1)
        return;
    uint64_t h = (p * 0x9e3779b97f4a7c15ull) >> (64 - alloc_hash_bits);
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t cur = __atomic_load_n(&alloc_hash[(h + k) & ((1u << alloc_hash_bits) - 1)], __ATOMIC_ACQUIRE);
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
    in_twin = 1; /* (heap-wrap.c's malloc leaves it to us) */
    void *p = (malloc)(size); /* libc's: the program's object (runtime.h) */
    in_twin = 0;
    note_alloc(p, size, 1, PC, 1);
    return p;
}

PI_EXPORT void *__perfinst_share_calloc(size_t n, size_t size)
{
    in_twin = 1;
    void *p = (calloc)(n, size);
    in_twin = 0;
    note_alloc(p, n * size, 2, PC, 1);
    return p;
}

PI_EXPORT void *__perfinst_share_realloc(void *old, size_t size)
{
    /* marked freed first (a failed realloc keeps the object, rarely) */
    note_free((uintptr_t)old);
    in_twin = 1;
    void *p = (realloc)(old, size);
    in_twin = 0;
    note_alloc(p, size, 3, PC, p != old);
    return p;
}

PI_EXPORT void *__perfinst_share_aligned_alloc(size_t align, size_t size)
{
    in_twin = 1;
    void *p = aligned_alloc(align, size);
    in_twin = 0;
    note_alloc(p, size, 4, PC, 1);
    return p;
}

PI_EXPORT int __perfinst_share_posix_memalign(void **out, size_t align, size_t size)
{
    in_twin = 1;
    int rc = posix_memalign(out, align, size);
    in_twin = 0;
    if (!rc)
        note_alloc(*out, size, 5, PC, 1);
    return rc;
}

PI_EXPORT void __perfinst_share_free(void *p)
{
    note_free((uintptr_t)p);
    (free)(p);
}

/* line-alloc.c's allocators (a repaired realloc, a calloc that ends its
 * block) in a build with detection: the object at the program's call
 * site, the old block freed.  (Only once detection runs: a repaired
 * program with the runtime for other reasons maps no shadow for it.) */
void pi_sharing_line_alloc(void *p, size_t size, void *old, uint32_t kind, uint64_t pc)
{
    if (__atomic_load_n(&sh_state, __ATOMIC_ACQUIRE) != 1)
        return;
    note_free((uintptr_t)old);
    note_alloc(p, size, kind, pc, 1);
}

/* C++'s operator new and delete (and allocations the plugin sees only as a
 * call returning fresh memory): the plugin notes the object after the call
 * and before its release, the call left as it was. */
PI_EXPORT void __perfinst_share_note_alloc(void *p, size_t size)
{
    note_alloc(p, size, 6, PC, 1);
}

PI_EXPORT void __perfinst_share_note_free(void *p)
{
    note_free((uintptr_t)p);
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
    for (uint32_t j = 0, n = __atomic_load_n(&nunit_pcs, __ATOMIC_ACQUIRE); j < n; j++)
        note(unit_pcs[j]);
    uint32_t ns = __atomic_load_n(&nsites_used, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < ns && j < sites_max; j++)
        if (__atomic_load_n(&sites[j].ready, __ATOMIC_ACQUIRE))
            note((uintptr_t)sites[j].pc);
    uint32_t n = __atomic_load_n(&nallocs, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n && i < allocs_max; i++)
        if (__atomic_load_n(&allocs[i].ready, __ATOMIC_ACQUIRE))
            for (uint32_t k = 0; k < allocs[i].nframes; k++)
                note((uintptr_t)allocs[i].frames[k]);
}

/* (May run in a fatal-signal handler: no allocation.)  The record is made
 * in place, its entries after it, and written whole (one copy, one CRC);
 * a line of more than 8 threads is written in pieces of up to 8 entries. */
static void put_line(struct pi_rec_writer *w, struct sh_line *l)
{
    struct {
        struct pi_rec_share_line r;
        struct pi_share_thr th[8];
    } rec;
    _Static_assert(offsetof(__typeof__(rec), th) == sizeof rec.r, "the entries right after the record");
    struct pi_rec_share_line *r = &rec.r;
    struct sh_ext *e = __atomic_load_n(&l->shared, __ATOMIC_ACQUIRE) ? l->ext : NULL;
    uint32_t n = e ? __atomic_load_n(&e->n, __ATOMIC_ACQUIRE) : 1;
    const struct sh_te *te = e ? __atomic_load_n(&e->t, __ATOMIC_ACQUIRE) : NULL;
    r->addr = (l->key - 1) * PI_SHARE_LINE;
    r->nthreads = n;
    r->flags = PI_SHARE_LINE_EPOCHS;
    r->reloads_true = r->reloads_false = 0;
    if (e) {
        for (uint32_t i = 0; i < n; i++) {
            r->reloads_true += te[i].rt;
            r->reloads_false += te[i].rf;
        }
        memcpy(r->area_true, e->area_true, sizeof r->area_true);
        memcpy(r->area_false, e->area_false, sizeof r->area_false);
    } else {
        memset(r->area_true, 0, sizeof r->area_true);
        memset(r->area_false, 0, sizeof r->area_false);
        rec.th[0] = (struct pi_share_thr){.thread = l->owner, .cpu = ~0u, .rmask = l->o_r, .wmask = l->o_w,
                                          .reads = l->o_reads, .writes = l->o_writes, .epoch_first = l->o_efirst,
                                          .epoch_last = l->o_efirst == PI_SHARE_EPOCH_NONE ? PI_SHARE_EPOCH_NONE
                                                                                           : l->o_elast};
        w->whole(PI_REC_SHARE_LINE, &rec, sizeof rec.r + sizeof rec.th[0]);
        return;
    }
    if (n > 8)
        w->begin(PI_REC_SHARE_LINE);
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k == 8) { /* (more than 8 entries: the record so far put, then the rest 8 at a time) */
            w->put(i == 8 ? (const void *)&rec : (const void *)rec.th, (i == 8 ? sizeof rec.r : 0) + k * sizeof rec.th[0]);
            k = 0;
        }
        rec.th[k++] = (struct pi_share_thr){.thread = te[i].num, .cpu = te[i].cpu, .rmask = te[i].r,
                                            .wmask = te[i].w, .reads = te[i].reads, .writes = te[i].writes,
                                            .reloads_true = te[i].rt, .reloads_false = te[i].rf,
                                            .epoch_first = te[i].e_first,
                                            .epoch_last = te[i].e_first == PI_SHARE_EPOCH_NONE ? PI_SHARE_EPOCH_NONE
                                                                                               : te[i].e_last};
    }
    if (n > 8) {
        w->put(rec.th, k * sizeof rec.th[0]);
        w->end();
    } else
        w->whole(PI_REC_SHARE_LINE, &rec, sizeof rec.r + n * sizeof rec.th[0]);
}

/* PERFINST_SHARING_PRIVATE=N: also write up to N lines only one thread
 * touched (default 65536; they let pmopt predict sharing under other
 * placements) when the process had more than one thread. */
void pi_sharing_write(struct pi_rec_writer *w)
{
    if (!pi_sharing_active())
        return;
    uint32_t nt = __atomic_load_n(&nthreads_seen, __ATOMIC_RELAXED);
    for (uint32_t i = 1; i <= nt && i <= threads_max; i++) {
        const struct sh_thread *t = &threads[i];
        struct pi_rec_share_thread r = {.thread = i, .tid = t->tid, .cpu = t->cpu, .period = period,
                                        .birth = t->birth, .death = t->death, .flags = t->flags};
        if (!(r.flags & PI_SHARE_THREAD_EPOCHS))
            r.birth = 0, r.death = PI_SHARE_EPOCH_NONE;
        w->whole(PI_REC_SHARE_THREAD, &r, sizeof r);
    }
    static uint64_t private_max = 65536;
    static int env_read;
    if (!env_read) {
        env_read = 1;
        const char *v = secure_getenv("PERFINST_SHARING_PRIVATE");
        if (v)
            pi_env_sharing_private(v, &private_max);
    }
    uint64_t privates = 0, dropped = 0;
    uint32_t n = __atomic_load_n(&nused, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < n; i++) {
        if (i >= (1u << line_bits))
            break;
        struct sh_line *l = &lines[i];
        uint64_t k = __atomic_load_n(&l->key, __ATOMIC_ACQUIRE);
        if (!k || k == SH_BUSY)
            continue;
        if (!__atomic_load_n(&l->shared, __ATOMIC_ACQUIRE)) {
            if (nt < 2 || !(l->o_reads + l->o_writes))
                continue; /* (none: a line the solo thread touched, not since) */
            if (privates >= private_max) {
                dropped++;
                continue;
            }
            privates++;
        }
        put_line(w, l);
    }
    uint32_t ns = __atomic_load_n(&nsites_used, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < ns && j < sites_max; j++) {
        const struct sh_site *s = &sites[j];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE) || !__atomic_load_n(&s->mask, __ATOMIC_RELAXED))
            continue; /* (mask 0: retired, retire_bytes) */
        struct {
            struct pi_rec_share_site r;
            char what[256];
        } rec; /* (what: only its bytes written, not all 256) */
        rec.r = (struct pi_rec_share_site){.pc = s->pc, .line = s->line, .thread = s->thread, .flags = s->flags,
                                           .accesses = s->accesses, .reloads_true = s->rt, .reloads_false = s->rf,
                                           .mask = s->mask};
        _Static_assert(offsetof(__typeof__(rec), what) == sizeof rec.r, "what right after the record");
        size_t len = s->what ? strnlen(s->what, 255) : 0;
        rec.r.what_len = len ? (uint32_t)len + 1 : 0;
        if (len) {
            memcpy(rec.what, s->what, len);
            rec.what[len] = 0;
        }
        w->whole(PI_REC_SHARE_SITE, &rec, sizeof rec.r + rec.r.what_len);
    }
    uint32_t na = __atomic_load_n(&nallocs, __ATOMIC_RELAXED);
    for (uint32_t i = 0; nt >= 2 && i < na && i < allocs_max; i++) {
        const struct sh_alloc *o = &allocs[i];
        if (!__atomic_load_n(&o->ready, __ATOMIC_ACQUIRE))
            continue;
        struct pi_rec_share_alloc r = {.addr = o->addr, .size = o->size, .seq = o->seq, .thread = o->thread,
                                       .kind = o->kind, .freed = o->freed, .nframes = o->nframes};
        unsigned char buf[sizeof r + sizeof o->frames];
        uint32_t nf = r.nframes; /* (at most SH_MAX_FRAMES: PERFINST_SHARING_STACK's range) */
        memcpy(buf, &r, sizeof r);
        memcpy(buf + sizeof r, o->frames, nf * sizeof o->frames[0]);
        w->whole(PI_REC_SHARE_ALLOC, buf, sizeof r + nf * sizeof o->frames[0]);
    }
    struct pi_rec_share_stats st = {
        .lines_max = 1ull << line_bits, .lines_lost = lines_lost,
        .sites_max = sites_max, .sites_lost = sites_lost,
        .allocs_max = allocs_max, .allocs_lost = allocs_lost,
        .threads_max = threads_max, .threads_lost = threads_lost,
        .private_max = private_max, .private_dropped = dropped,
        .ids_recycled = ids_recycled, .nofast_threads = nofast_threads, .blocks = blocks_checked};
    w->begin(PI_REC_SHARE_STATS);
    w->put(&st, sizeof st);
    w->end();
    if (lines_lost + sites_lost + allocs_lost + threads_lost)
        pi_say("perfinst: sharing: a table was full, what did not fit is counted in the trace (pmopt report "
               "--sharing says which; PERFINST_SHARING_LINES, _SITES, _ALLOCS, _THREADS)\n", NULL);
}
