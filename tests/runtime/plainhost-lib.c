/* plainhost-lib.c — the counted library of t-plain-host.sh: no indirect
 * call (a miss there would make the thread known another way). */
__attribute__((noinline)) static int step(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}
int work_linked(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s = step(s);
    return s;
}

/* threads the library starts itself (its own import of pthread_create) */
#include <pthread.h>
static void *run_linked(void *a)
{
    return (void *)(long)work_linked((int)(long)a);
}
int start_threads(int n)
{
    for (int i = 0; i < n; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, run_linked, (void *)(long)(100 + i)) || pthread_join(t, NULL))
            return -1;
    }
    return n;
}
