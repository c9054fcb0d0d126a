/* Many threads (t-limits.sh): ./threads MODE
 *
 *   phases  30 phases of 12 threads (360 over the run, as kmeans starts
 *           them), each phase's threads writing their own slot of one
 *           array: more threads than fast-path ids (250), so ended
 *           threads' ids are given again
 *   crowd   20 threads at once, each writing its own byte of one line:
 *           more threads on a line than it holds in place
 *   allocs  2000 small allocations, two threads writing the last two
 *   lines   two threads writing their own halves of a 1 MiB array (16384
 *           lines)
 * Prints a checksum on stdout. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PHASE_THREADS 12
static long slot[PHASE_THREADS];
static volatile char crowd[20];
static long *objs[2000];
static char big[1 << 20];
static const char *mode;

static void *worker(void *arg)
{
    long me = (long)arg;
    if (!strcmp(mode, "phases"))
        for (int i = 0; i < 2000; i++)
            ((volatile long *)slot)[me] += i;
    else if (!strcmp(mode, "crowd")) /* (each thread sampled there at least once: more than 2 x 1024 accesses) */
        for (int i = 0; i < 20000; i++)
            crowd[me] = (char)(crowd[me] + 1);
    else if (!strcmp(mode, "allocs"))
        for (int i = 0; i < 2000; i++)
            *(volatile long *)objs[1998 + me] += i;
    else if (!strcmp(mode, "lines"))
        for (size_t i = me * sizeof big / 2; i < (me + 1) * sizeof big / 2; i += 8)
            ((volatile char *)big)[i] += 1;
    return NULL;
}

static void run(int n)
{
    pthread_t t[PHASE_THREADS * 2];
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "phases";
    long sum = 0;
    if (!strcmp(mode, "phases")) {
        for (int p = 0; p < 30; p++)
            run(PHASE_THREADS);
        for (int i = 0; i < PHASE_THREADS; i++)
            sum += slot[i];
    } else if (!strcmp(mode, "crowd")) {
        run(20);
        for (int i = 0; i < 20; i++)
            sum += crowd[i];
    } else if (!strcmp(mode, "allocs")) {
        for (int i = 0; i < 2000; i++)
            objs[i] = calloc(1, 16);
        run(2);
        sum = *objs[1998] + *objs[1999];
    } else {
        run(2);
        for (size_t i = 0; i < sizeof big; i += 8)
            sum += big[i];
    }
    printf("%s %ld\n", mode, sum);
    return 0;
}
