/* A worker that leaves a blocking point (so the dispatch monitor counts it
 * running on some CPU) and then ends; afterwards only the main thread runs,
 * and it sleeps: every idle-sampler tick from then on finds no monitored
 * thread running anywhere.  Usage: exited SLEEPS (2 ms each). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void nap(long ns)
{
    struct timespec ts = { 0, ns };
    nanosleep(&ts, NULL);
}

static void *worker(void *arg)
{
    (void)arg;
    nap(1000000);   /* leaves a blocking point: counted running here */
    return NULL;    /* ... and ends */
}

int main(int argc, char **argv)
{
    int sleeps = argc > 1 ? atoi(argv[1]) : 100;
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        if (pthread_create(&th[i], NULL, worker, NULL))
            return 1;
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < sleeps; i++)
        nap(2000000);
    printf("slept %d\n", sleeps);
    return 0;
}
