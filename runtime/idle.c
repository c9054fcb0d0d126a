/* idle.c — idle-transition sampling (seed 003, docs/sampling-stacks.md).
 *
 *   PERFINST_IDLE=to|from|both   PERFINST_IDLE_PERIOD=1ms
 *
 * One sampler thread per CPU, pinned there, ticks at a fixed rate (the
 * seed's sample interrupt).  A CPU is idle when no monitored thread is
 * running on it: the dispatch monitor (pi_block_enter / pi_block_exit,
 * called around every blocking point: the interposed pthread and libc
 * waits of idle-wrap.c and the `blocking`-marked functions) keeps, per
 * thread, running or blocked and the CPU it was dispatched on, and per CPU
 * the number of monitored threads running there and the last one that
 * blocked there ("last dispatched", removed from the other CPUs' slots: a
 * thread is remembered on one CPU only).
 *
 * to-idle (seed Fig. 8B): an idle tick takes the CPU's last-dispatched
 * thread, if it is still blocked: claims it (de-duplication across
 * samplers), marks a sample outstanding on the CPU, saves its affinity and
 * pins it to this CPU (sched_setaffinity on our own threads), signals it —
 * the thread's handler walks its own stack (it is blocked, so this is the
 * stack where it waits) and posts a semaphore — restores the affinity and
 * adds the stack to the CPU's buffer; the calling-context tree is built by
 * pmopt from these stacks (to/from counts per leaf).
 *
 * from-idle (Fig. 8A): an idle tick sets the CPU's deferred flag; the first
 * monitored thread that leaves a blocking point on that CPU takes the flag
 * (atomic exchange), pins itself to the CPU, names itself in the CPU's slot
 * and wakes the sampler, then waits to be released: the sampler signals it,
 * its handler walks the stack (inside the wait, under the blocking point it
 * came out of), and the sampler restores its affinity and releases it.
 *
 * Counted: ticks, idle, busy, skipped (an idle tick while the CPU's sample
 * is outstanding), lost (target exited, unblocked during the walk, no
 * answer in 100 ms), dup (target already claimed by another CPU's sampler).
 */
#include "sample.h"
#include "env.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int pi_idle_mode;

#define MAX_CPUS 256
struct cpu_slot {
    struct pi_sthread *last;     /* last monitored thread that blocked here */
    int running;                 /* monitored threads running here */
    int deferred;                /* from-idle wanted: set by an idle tick */
    int outstanding;             /* a sample is being taken on this CPU */
    struct pi_sthread *from;     /* the from-idle target that woke the sampler */
    int parked;                  /* the sampler sleeps: no monitored thread is blocked */
    sem_t wake;
    struct pi_sbuf buf;          /* idle samples of this CPU (written by its sampler) */
    pthread_t th;
} __attribute__((aligned(64)));
static struct cpu_slot *cpus;
static int ncpus;
static uint64_t period_ns = 1000000;
static int fifo;
static int nblocked;             /* monitored threads in a blocking point */
static struct {
    uint64_t idle, busy, skipped, lost, dup, to, from, eintr; /* ticks = idle + busy */
} st;
#define ADD(f) __atomic_fetch_add(&st.f, 1, __ATOMIC_RELAXED)

enum { T_RUNNING = 1, T_BLOCKED = 2 };

/* ---- the dispatch monitor ------------------------------------------------------------------ */

static __thread int in_monitor;

static void take_stack(struct pi_sthread *t, int k, int kind, cpu_set_t *saved);

void pi_block_enter(int kind, uintptr_t ra)
{
    if (!pi_idle_mode || in_monitor)
        return;
    struct pi_sthread *t = pi_sself ? pi_sself : pi_sthread_self();
    if (!t || t->daemon || t->block_depth++)
        return; /* only the outermost blocking point counts */
    in_monitor = 1;
    int cpu = sched_getcpu();
    if (t->run_cpu >= 0 && t->run_cpu < ncpus)
        __atomic_fetch_sub(&cpus[t->run_cpu].running, 1, __ATOMIC_RELAXED);
    t->block_kind = kind;
    t->block_ra = ra;
    PI_STORE(&t->state, T_BLOCKED);
    if (__atomic_fetch_add(&nblocked, 1, __ATOMIC_SEQ_CST) == 0)
        for (int k = 0; k < ncpus; k++) /* someone to sample: wake the parked samplers */
            if (__atomic_exchange_n(&cpus[k].parked, 0, __ATOMIC_SEQ_CST))
                sem_post(&cpus[k].wake);
    if (cpu >= 0 && cpu < ncpus) {
        PI_STORE(&cpus[cpu].last, t);
        for (int k = 0; k < ncpus; k++) { /* remembered on one CPU only (seed block 305) */
            struct pi_sthread *expect = t;
            if (k != cpu)
                __atomic_compare_exchange_n(&cpus[k].last, &expect, NULL, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_RELAXED);
        }
    }
    in_monitor = 0;
}

/* A monitored thread ends: it runs nowhere any more (else the CPU it last
 * left a blocking point on would count as busy for ever), and one that ends
 * inside a blocking point (cancelled in a wait) is no longer blocked. */
void pi_idle_thread_end(struct pi_sthread *t)
{
    if (!pi_idle_mode || !cpus || t->daemon)
        return;
    if (t->block_depth) {
        t->block_depth = 0;
        __atomic_fetch_sub(&nblocked, 1, __ATOMIC_SEQ_CST);
    } else if (t->run_cpu >= 0 && t->run_cpu < ncpus) {
        __atomic_fetch_sub(&cpus[t->run_cpu].running, 1, __ATOMIC_RELAXED);
    }
    t->run_cpu = -1;
}

void pi_block_exit(void)
{
    if (!pi_idle_mode || in_monitor)
        return;
    struct pi_sthread *t = pi_sself;
    if (!t || t->daemon || !t->block_depth || --t->block_depth)
        return;
    in_monitor = 1;
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= ncpus)
        cpu = -1;
    t->run_cpu = cpu;
    if (cpu >= 0)
        __atomic_fetch_add(&cpus[cpu].running, 1, __ATOMIC_RELAXED);
    PI_STORE(&t->state, T_RUNNING);
    __atomic_fetch_sub(&nblocked, 1, __ATOMIC_SEQ_CST);
    if (cpu >= 0 && (pi_idle_mode & 2) && __atomic_exchange_n(&cpus[cpu].deferred, 0, __ATOMIC_ACQ_REL)) {
        /* the first monitored thread dispatched here after an idle tick */
        struct cpu_slot *s = &cpus[cpu];
        int zero = 0;
        if (!__atomic_compare_exchange_n(&s->outstanding, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                         __ATOMIC_RELAXED)) {
            ADD(skipped);
        } else if (zero = 0, !__atomic_compare_exchange_n(&t->claimed, &zero, cpu + 1, 0,
                                                          __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            ADD(dup);
            PI_STORE(&s->outstanding, 0);
        } else {
            cpu_set_t one;
            if (sched_getaffinity(0, sizeof t->from_saved, &t->from_saved) == 0) {
                CPU_ZERO(&one);
                CPU_SET(cpu, &one);
                sched_setaffinity(0, sizeof one, &one); /* held on this CPU */
                PI_STORE(&s->from, t);
                sem_post(&s->wake);
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                ts.tv_sec += 1;
                while (sem_clockwait(&t->release, CLOCK_MONOTONIC, &ts) && errno == EINTR)
                    ;
                /* the sampler restored the affinity; if it never came, do it here */
                if (PI_LOAD(&s->from) == t) {
                    PI_STORE(&s->from, NULL);
                    sched_setaffinity(0, sizeof t->from_saved, &t->from_saved);
                    ADD(lost);
                    PI_STORE(&t->claimed, 0);
                    PI_STORE(&s->outstanding, 0);
                }
            } else {
                ADD(lost);
                PI_STORE(&t->claimed, 0);
                PI_STORE(&s->outstanding, 0);
            }
        }
    }
    in_monitor = 0;
}

PI_EXPORT void __perfinst_block_enter(uint32_t kind)
{
    pi_block_enter(kind ? (int)kind : PI_BLK_MARKED, 0);
}

PI_EXPORT void __perfinst_block_exit(void)
{
    /* A from-idle sample walks the stack from inside this call: its return
     * address (in the marked function) is where the kept stack starts. */
    struct pi_sthread *t = pi_sself;
    if (t && t->block_depth == 1)
        t->block_ra = (uintptr_t)__builtin_return_address(0);
    pi_block_exit();
}

/* ---- the handler's part ------------------------------------------------------------------------- */

void pi_idle_handle_request(struct pi_sthread *t, const ucontext_t *uc)
{
    __atomic_fetch_add(&t->hits, 1, __ATOMIC_RELAXED);
    if (PI_LOAD(&t->req) != 1)
        return;
    int complete = 0;
    t->req_n = pi_unwind(uc, t->stack_lo, t->stack_hi, t->req_frames, PI_SAMPLE_MAX_FRAMES,
                         &complete, &t->ucache);
    t->req_complete = complete;
    /* The thread gives its affinity back itself, before it answers: when
     * the sampler did it after the answer, the thread could leave its wait
     * and run (or read its own mask) still pinned to the sampler's CPU —
     * seen under load with SCHED_OTHER samplers (t-idle.sh: "affinity NOT
     * restored", 4 of 40 runs).  The sampler gives it back only when no
     * answer came. */
    sched_setaffinity(0, sizeof t->req_saved, &t->req_saved);
    PI_STORE(&t->req, 2);
    sem_post(&t->req_done);
}

/* ---- the samplers ----------------------------------------------------------------------------------- */

/* Ask t for its stack (it is pinned to CPU k, or runs there held) and add
 * it to CPU k's buffer; restore its affinity to *saved. */
static void take_stack(struct pi_sthread *t, int k, int kind, cpu_set_t *saved)
{
    uint32_t block = (uint32_t)t->block_kind;
    uintptr_t ra = t->block_ra;
    while (sem_trywait(&t->req_done) == 0)
        ; /* an answer that came after a timeout */
    memcpy(&t->req_saved, saved, sizeof t->req_saved);
    PI_STORE(&t->req, 1);
    int ok = syscall(SYS_tgkill, pi.pid, t->tid, pi_sample_signo) == 0;
    if (ok) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 100000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        int r;
        while ((r = sem_clockwait(&t->req_done, CLOCK_MONOTONIC, &ts)) && errno == EINTR)
            ;
        ok = r == 0 && PI_LOAD(&t->req) == 2;
    }
    PI_STORE(&t->req, 0);
    if (!ok) /* else its handler gave it back */
        sched_setaffinity(t->tid, sizeof *saved, saved);
    /* to-idle: the thread must still be blocked, else the stack is torn */
    if (ok && kind == PI_SK_IDLE_TO && PI_LOAD(&t->state) != T_BLOCKED)
        ok = 0;
    if (!ok) {
        ADD(lost);
        return;
    }
    /* Leave out the runtime's frames and what they called: the stack starts
     * at the return address the runtime saw — the interposed call's (its
     * caller is the leaf), or for a marked function's from-idle sample the
     * exit call's (in the marked function).  A marked function's to-idle
     * stack is kept whole: the leaf is where it waits. */
    int n = t->req_n, first = 0;
    if (ra)
        for (int i = 1; i < n; i++)
            if (t->req_frames[i] == ra) {
                first = i;
                break;
            }
    if (!pi_sbuf_add(&cpus[k].buf, pi_mono_ns(), (uint32_t)kind,
                     t->req_complete ? 0 : PI_SF_TRUNCATED, (uint32_t)k, block, (uint32_t)t->tid, 1,
                     t->req_frames + first, n - first)) {
        if (kind == PI_SK_IDLE_TO)
            ADD(to);
        else
            ADD(from);
    } else
        ADD(lost);
}

static void to_idle(int k)
{
    struct cpu_slot *s = &cpus[k];
    struct pi_sthread *t = PI_LOAD(&s->last);
    if (!t || PI_LOAD(&t->state) != T_BLOCKED || !PI_LOAD(&t->alive))
        return;
    int zero = 0;
    if (!__atomic_compare_exchange_n(&s->outstanding, &zero, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED)) {
        ADD(skipped);
        return;
    }
    zero = 0;
    if (!__atomic_compare_exchange_n(&t->claimed, &zero, k + 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED)) {
        ADD(dup);
        PI_STORE(&s->outstanding, 0);
        return;
    }
    cpu_set_t saved, one;
    if (sched_getaffinity(t->tid, sizeof saved, &saved)) {
        ADD(lost); /* ESRCH: it exited */
    } else {
        CPU_ZERO(&one);
        CPU_SET(k, &one);
        if (sched_setaffinity(t->tid, sizeof one, &one))
            ADD(lost);
        else
            take_stack(t, k, PI_SK_IDLE_TO, &saved);
    }
    PI_STORE(&t->claimed, 0);
    PI_STORE(&s->outstanding, 0);
}

static void from_idle(int k)
{
    struct cpu_slot *s = &cpus[k];
    struct pi_sthread *t = PI_LOAD(&s->from);
    if (!t)
        return;
    take_stack(t, k, PI_SK_IDLE_FROM, &t->from_saved);
    PI_STORE(&s->from, NULL);
    PI_STORE(&t->claimed, 0);
    PI_STORE(&s->outstanding, 0);
    sem_post(&t->release);
}

/* A sampler's own record becomes a daemon's: never monitored, never
 * sampled.  It was made before (the runtime's pthread_create starts every
 * thread in pi_thread_main, which takes the runtime's lock, and refreshes
 * the unwinder's tables under another), and a wait in one of those locks
 * is a monitored blocking point: leaving it counted the sampler running on
 * its CPU, and as a daemon it never blocked again, so that CPU counted
 * busy at every tick until the end (seen under load: half the ticks busy
 * in tests/sampling/t-idle.sh's exited run).  It leaves the monitor as an
 * ending thread does.  tests/sampling/daemon.c. */
static void sampler_self(struct pi_sthread *me)
{
    if (!me)
        return;
    pi_idle_thread_end(me);
    me->daemon = 1;
    if (me->has_timer) { /* never sampled itself */
        syscall(SYS_timer_delete, me->timer);
        me->has_timer = 0;
    }
}

static void *sampler_main(void *arg)
{
    int k = (int)(intptr_t)arg;
    sampler_self(pi_sthread_self());
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(k, &one);
    pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    struct cpu_slot *s = &cpus[k];
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (uint64_t tick = 0;; ) {
        if (!__atomic_load_n(&nblocked, __ATOMIC_SEQ_CST)) {
            /* No monitored thread is blocked: no to-idle target, and no
             * thread can come out of a blocking point (from-idle).  Sleep
             * until one blocks (pi_block_enter posts), then tick afresh. */
            __atomic_store_n(&s->parked, 1, __ATOMIC_SEQ_CST);
            if (!__atomic_load_n(&nblocked, __ATOMIC_SEQ_CST)) {
                struct timespec until;
                clock_gettime(CLOCK_MONOTONIC, &until);
                until.tv_sec += 1;
                if (sem_clockwait(&s->wake, CLOCK_MONOTONIC, &until) == 0)
                    from_idle(k); /* (a from-idle target, or just the wake-up) */
            }
            __atomic_store_n(&s->parked, 0, __ATOMIC_SEQ_CST);
            if (!__atomic_load_n(&nblocked, __ATOMIC_SEQ_CST))
                continue;
            clock_gettime(CLOCK_MONOTONIC, &next);
        }
        next.tv_nsec += (long)period_ns;
        while (next.tv_nsec >= 1000000000) {
            next.tv_nsec -= 1000000000;
            next.tv_sec++;
        }
        for (;;) {
            int r = sem_clockwait(&s->wake, CLOCK_MONOTONIC, &next);
            if (r == 0) { /* a from-idle target is held on this CPU */
                from_idle(k);
                continue;
            }
            if (errno == ETIMEDOUT)
                break;
        }
        if (++tick % 256 == 0)
            pi_unwind_refresh();
        if (PI_LOAD(&s->running) > 0) {
            ADD(busy);
            continue;
        }
        ADD(idle);
        if (PI_LOAD(&s->outstanding)) {
            ADD(skipped);
            continue;
        }
        if (pi_idle_mode & 2)
            PI_STORE(&s->deferred, 1);
        if (pi_idle_mode & 1)
            to_idle(k);
    }
    return NULL;
}

void pi_idle_init(void)
{
    const char *v = secure_getenv("PERFINST_IDLE_PERIOD");
    if (v)
        pi_env_idle_period(v, &period_ns);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set))
        CPU_ZERO(&set);
    int max = 0;
    for (int c = 0; c < MAX_CPUS; c++)
        if (CPU_ISSET(c, &set))
            max = c + 1;
    if (!max) {
        pi_idle_mode = 0;
        return;
    }
    cpus = calloc((size_t)max, sizeof *cpus);
    if (!cpus) {
        pi_idle_mode = 0;
        return;
    }
    ncpus = max;
    struct pi_sthread *t = pi_sthread_self();
    if (t) { /* the main thread runs */
        int cpu = sched_getcpu();
        t->run_cpu = cpu >= 0 && cpu < ncpus ? cpu : -1;
        if (t->run_cpu >= 0)
            cpus[cpu].running = 1;
    }
    for (int k = 0; k < ncpus; k++) {
        sem_init(&cpus[k].wake, 0, 0);
        pi_sbuf_register(&cpus[k].buf);
    }
    /* Samplers run SCHED_FIFO when allowed (they must run as soon as they
     * are due); unprivileged they stay SCHED_OTHER (reported). */
    pthread_attr_t a;
    pthread_attr_init(&a);
    struct sched_param sp = {.sched_priority = sched_get_priority_max(SCHED_FIFO)};
    pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&a, SCHED_FIFO);
    pthread_attr_setschedparam(&a, &sp);
    pthread_attr_setstacksize(&a, 256 * 1024);
    int use_fifo = 1;
    for (int k = 0; k < ncpus; k++) {
        if (!CPU_ISSET(k, &set))
            continue;
        int r = use_fifo ? pthread_create(&cpus[k].th, &a, sampler_main, (void *)(intptr_t)k) : EPERM;
        if (r == EPERM) {
            use_fifo = 0;
            pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED);
            r = pthread_create(&cpus[k].th, &a, sampler_main, (void *)(intptr_t)k);
        }
        if (!r)
            pthread_detach(cpus[k].th);
    }
    fifo = use_fifo;
    pthread_attr_destroy(&a);
}

void pi_idle_write(struct pi_rec_writer *w)
{
    if (!pi_idle_mode || !cpus)
        return;
    struct pi_rec_idle_stats r = {
        .period_ns = (uint32_t)period_ns, .mode = (uint32_t)pi_idle_mode, .ncpus = (uint32_t)ncpus,
        .fifo = (uint32_t)fifo, .idle = PI_LOAD(&st.idle), .busy = PI_LOAD(&st.busy), .skipped = PI_LOAD(&st.skipped), .lost = PI_LOAD(&st.lost),
        .dup = PI_LOAD(&st.dup), .to_samples = PI_LOAD(&st.to), .from_samples = PI_LOAD(&st.from),
        .eintr = PI_LOAD(&st.eintr)};
    r.ticks = r.idle + r.busy; /* one snapshot: the samplers keep ticking while we write */
    w->begin(PI_REC_IDLE_STATS);
    w->put(&r, sizeof r);
    w->end();
}

void pi_idle_count_eintr(void)
{
    ADD(eintr);
}
