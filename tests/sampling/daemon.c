/* daemon.c — a sampler thread's record leaves the dispatch monitor
 * (tests/sampling/t-dedup.sh).  Like dedup.c it compiles runtime/idle.c in
 * and plays the part itself: a thread, held on one CPU, leaves a blocking
 * point (as a sampler does when its start waited in one of the runtime's
 * locks) and counts as running there; then it becomes a sampler
 * (sampler_self): its CPU must count no monitored thread running, or every
 * idle tick there is busy until the end.  Its later blocking points are
 * not monitored.  Prints one line per step:
 *   STEP: running N blocked N daemon N
 * Then the handler's part of a stack request: a thread pinned to one CPU
 * (as a sampler pins its target) answers and gives its affinity back
 * itself, before its handler returns (main, playing the sampler, does not
 * restore it; run with PERFINST_SAMPLE for the handler):
 *   handler: answered 1 affinity restored|pinned|one-cpu
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#define pi_idle_init pi_idle_init_unused
#include "../../runtime/idle.c"
#undef pi_idle_init

void pi_idle_init(void) {} /* PERFINST_IDLE is not set: never called */

static struct pi_sthread *me, *target;
static int done;
static sem_t ready, go;

static void say(const char *what)
{
    int running = 0;
    for (int k = 0; k < ncpus; k++)
        running += PI_LOAD(&cpus[k].running);
    printf("%s: running %d blocked %d daemon %d\n", what, running, PI_LOAD(&nblocked),
           me ? me->daemon : -1);
    fflush(stdout);
}

static void *thread(void *arg)
{
    (void)arg;
    int cpu = sched_getcpu();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one); /* its blocking points on one CPU */
    /* monitored from here on: only this thread's own steps count (main
     * waits on a flag, in no blocking point) */
    PI_STORE(&pi_idle_mode, 3);
    me = pi_sthread_self();
    say("started");
    pi_block_enter(PI_BLK_MARKED, 0);
    say("blocked");
    pi_block_exit();
    say("left");
    sampler_self(me);
    say("sampler");
    pi_block_enter(PI_BLK_MARKED, 0);
    say("sampler blocked");
    pi_block_exit();
    say("sampler left");
    PI_STORE(&done, 1);
    return NULL;
}

static void *answering(void *arg)
{
    (void)arg;
    target = pi_sthread_self();
    sem_post(&ready);
    while (sem_wait(&go) && errno == EINTR) /* our signal interrupts it */
        ;
    return NULL;
}

static void handler_part(const cpu_set_t *all)
{
    sem_init(&ready, 0, 0);
    sem_init(&go, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, answering, NULL);
    while (sem_wait(&ready) && errno == EINTR)
        ;
    const char *verdict = "one-cpu";
    int answered = 0;
    if (CPU_COUNT(all) > 1 && pi_sample_signo) {
        cpu_set_t one, now;
        CPU_ZERO(&one);
        for (int c = 0; c < MAX_CPUS; c++)
            if (CPU_ISSET(c, all)) {
                CPU_SET(c, &one);
                break;
            }
        sched_setaffinity(target->tid, sizeof one, &one); /* the sampler's pin */
        memcpy(&target->req_saved, all, sizeof target->req_saved);
        PI_STORE(&target->req, 1);
        syscall(SYS_tgkill, getpid(), target->tid, pi_sample_signo);
        while (sem_wait(&target->req_done) && errno == EINTR)
            ;
        answered = PI_LOAD(&target->req) == 2;
        PI_STORE(&target->req, 0);
        sched_getaffinity(target->tid, sizeof now, &now);
        verdict = CPU_EQUAL(&now, all) ? "restored" : "pinned";
    }
    printf("handler: answered %d affinity %s\n", answered, verdict);
    fflush(stdout);
    sem_post(&go);
    pthread_join(th, NULL);
}

int main(void)
{
    cpu_set_t all;
    sched_getaffinity(0, sizeof all, &all);
    /* What pi_idle_init sets up, without the sampler threads (the mode
     * is set by the thread). */
    ncpus = 0;
    for (int c = 0; c < MAX_CPUS; c++)
        if (CPU_ISSET(c, &all))
            ncpus = c + 1;
    cpus = calloc((size_t)ncpus, sizeof *cpus);
    for (int k = 0; k < ncpus; k++)
        sem_init(&cpus[k].wake, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, thread, NULL);
    while (!PI_LOAD(&done))
        sched_yield();
    pthread_join(th, NULL);
    PI_STORE(&pi_idle_mode, 0);
    handler_part(&all);
    return 0;
}
