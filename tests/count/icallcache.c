/* icallcache.c — indirect calls whose target changes, in several threads
 * (t-icall-cache.sh).  Each thread calls through one call site: 1000 times
 * f, then f and g alternately 500 times (250 each), then 300 times h; the
 * main thread does the same once more after its threads end, then forks a
 * child that calls h 7 times.  pass-count's inline cache keeps one target
 * per site and thread; every pair (site, target) must still be exact. */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

typedef long (*op_fn)(long);
__attribute__((noinline)) long f(long x) { return x + 1; }
__attribute__((noinline)) long g(long x) { return x * 3; }
__attribute__((noinline)) long h(long x) { return x - 2; }

__attribute__((noinline)) long call(op_fn op, long x)
{
    return op(x); /* the one indirect call site */
}

static op_fn volatile ops[3] = {f, g, h};

static void *work(void *arg)
{
    long s = (long)arg;
    for (int i = 0; i < 1000; i++)
        s += call(ops[0], i);
    for (int i = 0; i < 500; i++)
        s += call(ops[i & 1], i);
    for (int i = 0; i < 300; i++)
        s += call(ops[2], i);
    return (void *)s;
}

int main(void)
{
    pthread_t t[3];
    long sum = 0;
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, work, (void *)(long)i);
    for (int i = 0; i < 3; i++) {
        void *r;
        pthread_join(t[i], &r);
        sum += (long)r;
    }
    sum += (long)work(0);
    printf("sum %ld\n", sum);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        long s = 0;
        for (int i = 0; i < 7; i++)
            s += call(ops[2], i);
        return s == 0;
    }
    int st;
    waitpid(pid, &st, 0);
    return 0;
}
