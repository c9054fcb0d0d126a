/* envbad.c — a program that reads every PERFINST_* variable: counted
 * functions, RI sample points, data marked for sharing detection touched by
 * two threads, idle sampling's blocking point (a join).  It prints what it
 * computed and exits with status 3, which no setting may change
 * (t-env-bad.sh). */
#include <pthread.h>
#include <stdio.h>
#include <perfinst.h>

PERFINST("sharing") volatile long shared[2] __attribute__((aligned(64)));

PERFINST("count", "sample(every=3)") static long work(long i)
{
    return i % 7 ? i * 3 : i / 7;
}

static void *other(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++)
        shared[1] += i;
    return NULL;
}

int main(void)
{
    pthread_t th;
    pthread_create(&th, NULL, other, NULL);
    long sum = 0;
    for (long i = 0; i < 1000; i++)
        sum += work(i);
    for (int i = 0; i < 100; i++)
        shared[0] += i;
    pthread_join(th, NULL);
    printf("sum %ld shared %ld %ld\n", sum, shared[0], shared[1]);
    return 3;
}
