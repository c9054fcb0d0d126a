/* sample.c — timer sampling with call stacks (PERFINST_SAMPLE), the sample
 * buffers, and the sampling records of the trace.
 *
 *   PERFINST_SAMPLE=cpu:1ms     every 1 ms of a thread's CPU time
 *   PERFINST_SAMPLE=wall:500us  every 500 µs of real time, running or not
 *
 * Each thread the runtime knows (the main thread, every thread started
 * through pthread_create) makes its own POSIX timer on its own CPU-time
 * clock (CLOCK_THREAD_CPUTIME_ID; wall: CLOCK_MONOTONIC) whose expiry is a
 * real-time signal sent to that thread alone (SIGEV_THREAD_ID).  The
 * handler walks the interrupted context's stack with the CFI unwinder
 * (unwind.c) and appends {time, kind, cpu, tid, frames} to the thread's own
 * buffer: one writer, no lock, chunks from mmap (a system call, so the
 * handler never calls malloc).  The trace writer reads every buffer up to
 * what each chunk has published.  The same signal, sent with tgkill by an
 * idle sampler, asks the thread for its stack (idle.c).
 *
 * A cpu timer only runs while its thread runs, so a blocked thread is never
 * interrupted; a wall timer interrupts sleeps (EINTR for calls the kernel
 * does not restart: poll, epoll_wait, nanosleep — docs/sampling-stacks.md).
 */
#include "sample.h"
#include "env.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

__thread struct pi_sthread *pi_sself __attribute__((tls_model("initial-exec")));
struct pi_sthread *pi_sthreads;
int pi_sample_signo;

static struct {
    int kind;              /* 0 off, PI_SK_CPU, PI_SK_WALL */
    uint64_t period_ns;
    uint64_t max_bytes;    /* all buffers together */
    uint64_t bytes;        /* mapped so far */
    uint64_t taken, dropped, truncated, threads, weight, cycles;
    pthread_key_t key;
    struct pi_sbuf *bufs;  /* every buffer, for the writer */
    int ready;
} S;

uint64_t pi_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- buffers ------------------------------------------------------------------------------ */

#define CHUNK_BYTES (256 * 1024)
struct pi_chunk {
    struct pi_chunk *next;
    uint64_t packed;       /* words used << 32 | samples: published together */
    uint64_t cap;          /* words */
    uint64_t w[];
};

void pi_sbuf_register(struct pi_sbuf *b)
{
    struct pi_sbuf *head = __atomic_load_n(&S.bufs, __ATOMIC_RELAXED);
    do
        b->next = head;
    while (!__atomic_compare_exchange_n(&S.bufs, &head, b, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

static struct pi_chunk *chunk_new(void)
{
    uint64_t had = __atomic_fetch_add(&S.bytes, CHUNK_BYTES, __ATOMIC_RELAXED);
    if (had + CHUNK_BYTES > S.max_bytes) {
        __atomic_fetch_sub(&S.bytes, CHUNK_BYTES, __ATOMIC_RELAXED);
        return NULL;
    }
    void *p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    struct pi_chunk *c = p;
    c->cap = (CHUNK_BYTES - sizeof *c) / 8;
    return c;
}

int pi_sbuf_add(struct pi_sbuf *b, uint64_t ts, uint32_t kind, uint32_t flags, uint32_t cpu,
                uint32_t block, uint32_t tid, uint32_t weight, const uint64_t *frames, int n)
{
    uint64_t need = PI_SAMPLE_HDR_WORDS + (uint64_t)n;
    struct pi_chunk *c = b->tail;
    uint64_t used = c ? PI_LOAD(&c->packed) >> 32 : 0;
    if (!c || used + need > c->cap) {
        struct pi_chunk *nc = chunk_new();
        if (!nc) {
            __atomic_fetch_add(&S.dropped, 1, __ATOMIC_RELAXED);
            return -1;
        }
        if (c)
            PI_STORE(&c->next, nc);
        else
            PI_STORE(&b->head, nc);
        b->tail = c = nc;
        used = 0;
    }
    uint64_t *w = c->w + used;
    w[0] = ts;
    w[1] = (uint64_t)(n & 0xffff) | (uint64_t)(flags & 0xff) << 16 | (uint64_t)(kind & 0xff) << 24 |
           (uint64_t)(cpu & 0xffff) << 32 | (uint64_t)(block & 0xffff) << 48;
    w[2] = tid | (uint64_t)(weight ? weight - 1 : 0) << 32;
    memcpy(w + 3, frames, (size_t)n * 8);
    uint32_t ns = (uint32_t)PI_LOAD(&c->packed);
    PI_STORE(&c->packed, (used + need) << 32 | (ns + 1));
    PI_STORE(&b->nsamples, b->nsamples + 1);
    return 0;
}

/* ---- the signal ------------------------------------------------------------------------------ */

static void on_sample(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    int saved = errno;
    struct pi_sthread *t = pi_sself;
    const ucontext_t *uc = ucv;
    if (!t)
        goto out;
    if (si->si_code == SI_TKILL) { /* an idle sampler wants this thread's stack */
        pi_idle_handle_request(t, uc);
        goto out;
    }
    if (si->si_code != SI_TIMER || !S.kind)
        goto out;
    uint64_t t0 = __rdtsc();
    uint64_t frames[PI_SAMPLE_MAX_FRAMES];
    int complete, n = pi_unwind(uc, t->stack_lo, t->stack_hi, frames, PI_SAMPLE_MAX_FRAMES,
                                &complete, &t->ucache);
    unsigned cpu = 0;
    getcpu(&cpu, NULL); /* vDSO: no system call */
    if (!pi_sbuf_add(&t->buf, pi_mono_ns(), (uint32_t)S.kind, complete ? 0 : PI_SF_TRUNCATED, cpu,
                     0, (uint32_t)t->tid, 1u + (uint32_t)(si->si_overrun > 0 ? si->si_overrun : 0),
                     frames, n)) {
        __atomic_fetch_add(&S.taken, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&S.weight, 1u + (uint32_t)(si->si_overrun > 0 ? si->si_overrun : 0),
                           __ATOMIC_RELAXED);
        if (!complete)
            __atomic_fetch_add(&S.truncated, 1, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(&S.cycles, __rdtsc() - t0, __ATOMIC_RELAXED);
out:
    errno = saved;
}

/* ---- threads ------------------------------------------------------------------------------------ */

static void stack_bounds(struct pi_sthread *t)
{
    pthread_attr_t a;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &a))
        return;
    if (!pthread_attr_getstack(&a, &addr, &size)) {
        t->stack_lo = (uintptr_t)addr;
        t->stack_hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&a);
}

static void thread_end(void *p)
{
    struct pi_sthread *t = p;
    if (t->has_timer) {
        syscall(SYS_timer_delete, t->timer);
        t->has_timer = 0;
    }
    pi_idle_thread_end(t);
    PI_STORE(&t->state, 0);
    PI_STORE(&t->alive, 0);
    pi_sself = NULL;
}

/* The calling thread's record, made on first need (normal context). */
struct pi_sthread *pi_sthread_self(void)
{
    if (pi_sself)
        return pi_sself;
    struct pi_sthread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->tid = gettid();
    t->alive = 1;
    t->state = 1;
    t->run_cpu = -1;
    sem_init(&t->req_done, 0, 0);
    sem_init(&t->release, 0, 0);
    stack_bounds(t);
    pi_sbuf_register(&t->buf);
    struct pi_sthread *head = __atomic_load_n(&pi_sthreads, __ATOMIC_RELAXED);
    do
        t->next = head;
    while (!__atomic_compare_exchange_n(&pi_sthreads, &head, t, 1, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED));
    pi_sself = t;
    pthread_setspecific(S.key, t);
    return t;
}

static void start_timer(struct pi_sthread *t)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = pi_sample_signo;
    sev._sigev_un._tid = t->tid; /* sigev_notify_thread_id */
    clockid_t clk = S.kind == PI_SK_CPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    /* The system call, not glibc's timer_create: that one carries the
     * SIGEV_THREAD machinery, which would drag libc.a's pthread_create into
     * a static link (tests/runtime/t-static.sh). */
    int id = -1;
    if (syscall(SYS_timer_create, clk, &sev, &id)) {
        static int said;
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            pi_say("perfinst: PERFINST_SAMPLE: timer_create failed: ", strerror(errno),
                   "; this thread is not sampled\n", NULL);
        return;
    }
    struct itimerspec its;
    its.it_interval.tv_sec = (time_t)(S.period_ns / 1000000000u);
    its.it_interval.tv_nsec = (long)(S.period_ns % 1000000000u);
    its.it_value = its.it_interval;
    t->timer = id;
    syscall(SYS_timer_settime, id, 0, &its, NULL);
    t->has_timer = 1;
    __atomic_fetch_add(&S.threads, 1, __ATOMIC_RELAXED);
}

void pi_sample_thread_start(void)
{
    if (!S.ready)
        return;
    struct pi_sthread *t = pi_sthread_self();
    if (!t)
        return;
    pi_unwind_refresh(); /* a library the new thread runs in may be new */
    if (S.kind && !t->has_timer)
        start_timer(t);
}

/* ---- the environment ------------------------------------------------------------------------------ */

static void parse_sample_env(void)
{
    const char *v = secure_getenv("PERFINST_SAMPLE");
    if (v && *v && strcmp(v, "off"))
        pi_env_sample(v, &S.kind, &S.period_ns);
    S.max_bytes = 512ull << 20;
    v = secure_getenv("PERFINST_SAMPLE_MAX_MB");
    if (v)
        pi_env_sample_max_mb(v, &S.max_bytes);
    v = secure_getenv("PERFINST_IDLE");
    if (v && *v)
        pi_env_idle(v, &pi_idle_mode);
}

static void fork_child(void)
{
    /* Timers and sampler threads do not survive fork; the child samples
     * afresh (its parent's samples are the parent's). */
    S.bufs = NULL;
    S.bytes = 0;
    S.taken = S.dropped = S.truncated = S.threads = 0;
    pi_sthreads = NULL;
    pi_idle_mode = 0; /* no sampler threads in the child: its blocking points stay quiet */
    if (pi_sself) {
        pi_sself = NULL;
        struct pi_sthread *t = pi_sthread_self();
        if (t && S.kind)
            start_timer(t);
    }
}

void pi_sample_init(void)
{
    parse_sample_env();
    if (!S.kind && !pi_idle_mode)
        return;
    pi_sample_signo = SIGRTMIN + 4;
    pthread_key_create(&S.key, thread_end);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sample;
    /* SA_ONSTACK: on the runtime's 64 KiB signal stack where the thread has one
     * (the walk needs a few KiB; a thread near the end of a small stack
     * would not have them); the walk reads the interrupted stack anyway. */
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    pi_sigaction_real(pi_sample_signo, &sa, NULL);
    pi_unwind_refresh();
    S.ready = 1;
    pthread_atfork(NULL, NULL, fork_child);
    pi_sample_thread_start();
    if (pi_idle_mode)
        pi_idle_init();
}

int pi_sample_active(void)
{
    return S.ready;
}

/* ---- the records -------------------------------------------------------------------------------- */

void pi_sample_write(struct pi_rec_writer *w)
{
    if (!S.ready)
        return;
    if (S.kind) {
        struct pi_rec_sample_stats st = {
            .kind = (uint32_t)S.kind, .period_ns = (uint32_t)S.period_ns,
            .taken = PI_LOAD(&S.taken), .dropped = PI_LOAD(&S.dropped),
            .truncated = PI_LOAD(&S.truncated), .threads = PI_LOAD(&S.threads),
            .periods = PI_LOAD(&S.weight), .handler_cycles = PI_LOAD(&S.cycles)};
        w->begin(PI_REC_SAMPLE_STATS);
        w->put(&st, sizeof st);
        w->end();
    }
    pi_idle_write(w);
    pi_unwind_write_maps(w);
    for (struct pi_sbuf *b = PI_LOAD(&S.bufs); b; b = b->next)
        for (struct pi_chunk *c = PI_LOAD(&b->head); c; c = PI_LOAD(&c->next)) {
            uint64_t packed = PI_LOAD(&c->packed);
            struct pi_rec_samples r = {.nsamples = (uint32_t)packed,
                                       .nwords = (uint32_t)(packed >> 32)};
            if (!r.nsamples)
                continue;
            w->begin(PI_REC_SAMPLES);
            w->put(&r, sizeof r);
            w->put(c->w, (size_t)r.nwords * 8);
            w->end();
        }
}
