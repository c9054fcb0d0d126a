/* Four threads, each calling tick() (one unit a call) 500 times. */
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>

#pragma perfinst sample(every=10)
__attribute__((noinline)) int tick(int x) { return x + 1; }

static void *worker(void *arg)
{
    volatile int s = 0;
    for (int i = 0; i < 500; i++)
        s += tick(i);
    return arg;
}

int main(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    puts("done");
    return 0;
}
