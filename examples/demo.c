/* demo.c — the program `make demo` runs through the whole perfinst loop.
 *
 * Marked code, both spellings: a function counted whole (attribute), one
 * counted whole (pragma), and one loop counted as a statement region.
 * Four threads share the work, so the counts also show that per-thread
 * counters add up exactly.  Expected counts (N = 10000, 4 threads):
 *   is_prime entered 4 × 10000 = 40000 times
 *   collatz  entered 4 × 100   = 400 times
 */
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>

#define N 10000
#define THREADS 4

PERFINST("count")
static int is_prime(int n)
{
    if (n < 2)
        return 0;
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

#pragma perfinst count
static int collatz(long n)
{
    int steps = 0;
    while (n != 1) {
        n = (n % 2) ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}

static void *worker(void *arg)
{
    long *result = arg;
    long primes = 0, steps = 0;
    for (int i = 0; i < N; i++)
        primes += is_prime(i);
    #pragma perfinst count
    for (int i = 1; i <= 100; i++)
        steps += collatz(i);
    result[0] = primes;
    result[1] = steps;
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    long r[THREADS][2];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, r[i]);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("primes below %d: %ld, collatz steps 1..100: %ld\n", N, r[0][0], r[0][1]);
    return 0;
}
