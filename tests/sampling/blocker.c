/* blocker.c — a thread that blocks in two known functions at a known ratio
 * (tests/sampling/t-idle.sh): block_long() sleeps 6 ms, block_short() 2 ms,
 * with a little work between them.  To-idle samples (taken while the thread
 * is blocked) should split between them as the time blocked in each (about
 * 3:1; the program measures and prints it, since a loaded machine wakes
 * sleepers late); from-idle samples (one per wake-up after an idle tick)
 * about 1:1.  Built -O2 without frame pointers.
 *
 *   blocker ROUNDS [sleep|cond]     prints "blocked_ms long=L short=S" and
 *                                    whether the worker's affinity came back
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long work_sink;
static double long_ms, short_ms;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static int use_cond;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static inline __attribute__((always_inline)) void wait_ms(int ms)
{
    if (use_cond) { /* a timed condition wait nobody signals */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += ms * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_mutex_lock(&mu);
        while (pthread_cond_timedwait(&cv, &mu, &ts) == 0)
            ;
        pthread_mutex_unlock(&mu);
    } else {
        struct timespec ts = {0, ms * 1000000L};
        nanosleep(&ts, NULL);
    }
}

__attribute__((noinline)) void block_long(void)
{
    double t0 = now_ms();
    wait_ms(6);
    long_ms += now_ms() - t0; /* (also: no sibling call, this frame stays) */
}

__attribute__((noinline)) void block_short(void)
{
    double t0 = now_ms();
    wait_ms(2);
    short_ms += now_ms() - t0;
}

__attribute__((noinline)) void work(void)
{
    for (int i = 0; i < 20000; i++)
        work_sink = work_sink * 31 + (unsigned long)i;
}

static int mask_kept = 1;

static void *worker(void *arg)
{
    int rounds = *(int *)arg;
    cpu_set_t before, after;
    sched_getaffinity(0, sizeof before, &before);
    for (int i = 0; i < rounds; i++) {
        block_long();
        work();
        block_short();
        work();
    }
    /* the samplers pinned this thread to one CPU for each stack they took,
     * and must have given its affinity back.  A to-idle sampler checks that
     * the thread is blocked, pins it, then signals it, and its handler gives
     * the mask back: a thread that wakes between the pin and the signal can
     * read the pinned mask once (the signal is taken on that very system
     * call's return).  So the mask must come back, within a second, not be
     * back at one instant. */
    for (int i = 0; i < 100; i++) {
        struct timespec settle = {0, 10000000};
        nanosleep(&settle, NULL);
        sched_getaffinity(0, sizeof after, &after);
        if ((mask_kept = CPU_EQUAL(&before, &after)))
            break;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    use_cond = argc > 2 && !strcmp(argv[2], "cond");
    pthread_t th;
    if (pthread_create(&th, NULL, worker, &rounds))
        return 1;
    pthread_join(th, NULL);
    printf("blocked_ms long=%.1f short=%.1f\n", long_ms, short_ms);
    printf("affinity %s\n", mask_kept ? "restored" : "NOT restored");
    return 0;
}
