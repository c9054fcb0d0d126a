/* perf.c — perf_event counters in a trace region (PERFINST_PERF).
 *
 * The region runs 3 times in the main thread and once in each of 2 more
 * threads: 5 intervals of the same trace_start site.  Each interval spins
 * for about 2 ms of CPU time, so task-clock (nanoseconds of CPU) is well
 * above 0 whatever the machine.  perfinst_perf_read reads the calling
 * thread's counters directly.
 */
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double spin(void)
{
    struct timespec a, b;
    double x = 1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    do {
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 2000000);
    return x;
}

PERFINST("count") __attribute__((noinline)) static double region(void)
{
    double x;
    #pragma perfinst trace_start
    x = spin();
    #pragma perfinst trace_stop
    return x;
}

static void *worker(void *arg)
{
    (void)arg;
    region();
    return NULL;
}

int main(void)
{
    double s = 0;
    for (int i = 0; i < 3; i++)
        s += region();
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    uint64_t v[8];
    int n = perfinst_perf_read(v, 8);
    printf("events: %d\n", n);
    for (int i = 0; i < n; i++)
        printf("event %s: %s\n", perfinst_perf_name(i), v[i] > 0 ? "counting" : "zero");
    return s < 0;
}
