/* busy.c — load for t-loaded.sh: one spinning thread per CPU until killed,
 * so that the fixtures beside it run time-sliced, as on a machine other
 * programs keep busy. */
#include <pthread.h>
#include <unistd.h>

static void *spin(void *arg)
{
    volatile unsigned long n = 0;
    for (;;)
        n++;
    return arg;
}

int main(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    pthread_t t;
    for (long i = 1; i < cpus; i++)
        pthread_create(&t, NULL, spin, NULL);
    spin(NULL);
    return 0;
}
