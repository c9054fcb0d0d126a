/* Which locals the sharing checks skip (-fplugin-arg-perfinst-sharing-locals):
 *
 *   private_sum   a local array whose address only a pointer in the same
 *                 function and a callee that does not keep it see: no
 *                 other thread can reach it, no check (default `escaped`)
 *   shared_pair   a local struct whose address goes to pthread_create: two
 *                 threads take turns writing its two fields, exact counts:
 *                 2 * (ROUNDS - 1) false reloads (the checks stay)
 */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000

__attribute__((noinline)) static long fill(long *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = (long)i * 3;
    return v[n - 1];
}

__attribute__((noinline)) long private_sum(int n)
{
    long v[32];
    long last = fill(v, 32);
    long *p = v;
    long s = 0;
    for (int i = 0; i < n && i < 32; i++)
        s += p[i];
    return s + last;
}

struct pair {
    volatile long a, b;
    pthread_barrier_t bar;
};

static void *worker_a(void *arg)
{
    struct pair *p = arg;
    for (int i = 0; i < ROUNDS; i++) {
        p->a = p->a + 1;
        pthread_barrier_wait(&p->bar);
        pthread_barrier_wait(&p->bar);
    }
    return NULL;
}

__attribute__((noinline)) long shared_pair(void)
{
    struct pair pr = {0, 0};
    pthread_barrier_init(&pr.bar, NULL, 2);
    pthread_t t;
    pthread_create(&t, NULL, worker_a, &pr);
    for (int i = 0; i < ROUNDS; i++) {
        pthread_barrier_wait(&pr.bar);
        pr.b = pr.b + 1;
        pthread_barrier_wait(&pr.bar);
    }
    pthread_join(t, NULL);
    return pr.a + pr.b;
}

int main(void)
{
    printf("%ld %ld\n", private_sum(32), shared_pair());
    return 0;
}
