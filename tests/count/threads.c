/* 8 threads × 1,000,000 iterations of a counted loop: exact totals, also
 * with threads still running at exit (argv[1] = "detach"). */
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define THREADS 8
#define ITERS 1000000

static volatile long sink;
static pthread_barrier_t done_counting;

PERFINST("count")
static void spin(long n)
{
    for (long i = 0; i < n; i++)   // expect-count: 8000008
        sink += i;                 // expect-count: 8000000
}

static void *worker(void *arg)
{
    spin(ITERS);
    if (arg) {                     /* detached mode: stay alive past exit */
        pthread_barrier_wait(&done_counting);
        pause();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int detach = argc > 1 && strcmp(argv[1], "detach") == 0;
    pthread_t t[THREADS];
    pthread_barrier_init(&done_counting, NULL, THREADS + 1);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, detach ? (void *)1 : NULL);
    if (detach) {
        pthread_barrier_wait(&done_counting);
        return 0; /* exit with 8 threads still running */
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    return 0;
}
