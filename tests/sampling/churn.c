/* churn.c — threads that come, block and go while the idle samplers take
 * their stacks (tests/sampling/t-idle.sh): WAVES waves of 8 threads, each
 * sleeping 1 ms three times, then exiting.  A target may exit between being
 * chosen and being signalled: the sampler counts it lost, nothing crashes.
 *
 *   churn WAVES      prints "threads N"
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *short_life(void *arg)
{
    (void)arg;
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 3; i++)
        nanosleep(&ms, NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    int waves = argc > 1 ? atoi(argv[1]) : 20, n = 0;
    for (int w = 0; w < waves; w++) {
        pthread_t th[8];
        for (int i = 0; i < 8; i++)
            if (pthread_create(&th[i], NULL, short_life, NULL) == 0)
                n++;
            else
                th[i] = 0;
        for (int i = 0; i < 8; i++)
            if (th[i])
                pthread_join(th[i], NULL);
    }
    printf("threads %d\n", n);
    return 0;
}
