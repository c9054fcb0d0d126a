/* dedup.c — the de-duplication rules of idle-transition sampling (seed 003
 * M4/block 305, M10, M14), each driven step by step with exact counts.
 *
 * runtime/idle.c is compiled into this file (its state and the samplers'
 * steps, to_idle and from_idle, are static there); the rest of the runtime
 * comes from libperfinst.a, whose idle.o is then never linked.  No sampler
 * thread runs: main plays the samplers of CPUs 0 and 1, one tick at a time,
 * so a race the samplers could only meet by chance (a second CPU's sampler
 * wanting a target the first is taking) is set up by hand.  The worker
 * thread blocks in a marked blocking point (pi_block_enter) on a
 * semaphore and answers stack requests with the runtime's own signal
 * handler.  Run with PERFINST_SAMPLE=cpu:4s, so that the handler is that of
 * a program with both samplers; the worker, blocked, never spends 4 s.
 *
 * Checked (t-dedup.sh reads the lines and the trace):
 *   one-cpu   the worker blocked on CPU 1, then on CPU 0: only CPU 0
 *             remembers it; a tick of each CPU gives one to-idle stack,
 *             not two (block 305: remembered on one CPU only)
 *   claimed   CPU 1's sampler holds the worker (its claim): CPU 0's tick
 *             takes nothing and counts dup (M14)
 *   outstanding  CPU 0 has a sample outstanding: its tick counts skipped
 *   from-dup  a from-idle target already claimed: no hold, dup (M14)
 *   from      the same unclaimed: one from-idle stack
 *   timer     3 timer expiries at the blocked worker give 3 timer samples
 *             and no idle sample; the idle requests gave no timer sample:
 *             one signal, one stack, for one sampler
 *   lost      the worker blocks the signal: no answer in 100 ms, lost, no
 *             sample; the answer that comes when it unblocks it is seen
 *             (hits) and taken for nothing
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define pi_idle_init pi_idle_init_unused
#include "../../runtime/idle.c"
#undef pi_idle_init

void pi_idle_init(void) {} /* PERFINST_IDLE is not set: never called */

static sem_t go, parked;
static struct pi_sthread *worker_t;
static int ncpu_real;

static void pin(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one))
        perror("sched_setaffinity"), exit(2);
}

/* One blocking point on cpu: blocked until main posts go. */
static void block_on(int cpu)
{
    pin(cpu);
    pi_block_enter(PI_BLK_MARKED, 0);
    sem_post(&parked);
    while (sem_wait(&go) && errno == EINTR) /* our signal interrupts it */
        ;
    pi_block_exit();
}

static void *worker(void *arg)
{
    (void)arg;
    worker_t = pi_sthread_self();
    block_on(ncpu_real > 1 ? 1 : 0); /* 1: one-cpu */
    block_on(0);                     /* one-cpu, claimed, outstanding, from-dup */
    block_on(0);                     /* from */
    block_on(0);                     /* timer */
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, pi_sample_signo);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
    block_on(0);                     /* lost */
    pthread_sigmask(SIG_UNBLOCK, &s, NULL); /* the pending request: its handler runs now */
    return NULL;
}

static unsigned samples(const struct pi_sbuf *b) { return PI_LOAD(&b->nsamples); }

static void say(const char *what)
{
    printf("%s: to %llu from %llu dup %llu skipped %llu lost %llu idle-samples %u,%u timer-samples %u hits %u\n",
           what, (unsigned long long)st.to, (unsigned long long)st.from, (unsigned long long)st.dup,
           (unsigned long long)st.skipped, (unsigned long long)st.lost, samples(&cpus[0].buf),
           samples(&cpus[1].buf), samples(&worker_t->buf), PI_LOAD(&worker_t->hits));
    fflush(stdout);
}

static void wait_blocked(void)
{
    while (sem_wait(&parked) && errno == EINTR)
        ;
    while (PI_LOAD(&worker_t->state) != T_BLOCKED)
        sched_yield();
}

static void timer_once(pid_t tid)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = pi_sample_signo;
    sev._sigev_un._tid = tid;
    int id = -1;
    if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &id))
        perror("timer_create"), exit(2);
    struct itimerspec its = {.it_value = {0, 1000000}};
    unsigned before = samples(&worker_t->buf);
    syscall(SYS_timer_settime, id, 0, &its, NULL);
    for (int i = 0; i < 2000 && samples(&worker_t->buf) == before; i++)
        usleep(1000);
    syscall(SYS_timer_delete, id);
}

int main(void)
{
    cpu_set_t all;
    sched_getaffinity(0, sizeof all, &all);
    ncpu_real = CPU_COUNT(&all);
    if (!pi_sample_active() || !pi_sample_signo) {
        fprintf(stderr, "dedup: run with PERFINST_SAMPLE=cpu:4s\n");
        return 2;
    }
    /* What pi_idle_init sets up, without the sampler threads. */
    pi_idle_mode = 3;
    ncpus = 2;
    cpus = calloc(2, sizeof *cpus);
    for (int k = 0; k < 2; k++) {
        sem_init(&cpus[k].wake, 0, 0);
        pi_sbuf_register(&cpus[k].buf);
    }
    sem_init(&go, 0, 0);
    sem_init(&parked, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, worker, NULL);

    /* one-cpu: blocked on CPU 1, then on CPU 0 */
    wait_blocked();
    sem_post(&go);
    wait_blocked();
    printf("last: cpu0 %s cpu1 %s\n", PI_LOAD(&cpus[0].last) == worker_t ? "worker" : "none",
           PI_LOAD(&cpus[1].last) == worker_t ? "worker" : "none");
    to_idle(1);
    to_idle(0);
    say("one-cpu");

    /* claimed: CPU 1's sampler is taking the worker's stack */
    PI_STORE(&worker_t->claimed, 2);
    to_idle(0);
    PI_STORE(&worker_t->claimed, 0);
    say("claimed");

    /* outstanding: CPU 0's previous sample is not done */
    PI_STORE(&cpus[0].outstanding, 1);
    to_idle(0);
    PI_STORE(&cpus[0].outstanding, 0);
    say("outstanding");

    /* from-dup: CPU 0's idle tick wanted a from-idle target; the worker
     * leaves its blocking point there while CPU 1's sampler holds it */
    PI_STORE(&cpus[0].deferred, 1);
    PI_STORE(&worker_t->claimed, 2);
    sem_post(&go);
    wait_blocked();
    PI_STORE(&worker_t->claimed, 0);
    say("from-dup");

    /* from: the same, unclaimed: the worker holds itself on CPU 0 and wakes
     * CPU 0's sampler (main), which takes its stack and releases it */
    PI_STORE(&cpus[0].deferred, 1);
    sem_post(&go);
    while (sem_wait(&cpus[0].wake) && errno == EINTR)
        ;
    from_idle(0);
    wait_blocked();
    say("from");

    /* timer: three expiries of a timer at the blocked worker */
    for (int i = 0; i < 3; i++)
        timer_once(worker_t->tid);
    say("timer");

    /* lost: the worker, blocked with the signal masked, cannot answer */
    sem_post(&go);
    wait_blocked();
    to_idle(0);
    sem_post(&go);
    pthread_join(th, NULL);
    say("lost");
    return 0;
}
