/* A function with more counters than one base register's disp8 reaches
 * (40 conditions), run by 4 threads: its counting copy updates its counters
 * through one register (gcc-plugin/pass-tls.cc), exact in every thread.
 * tests/count/t-counter-base.sh. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ITERS 4096

static __thread volatile unsigned sink; /* (each thread's own: a result the same every run) */

__attribute__((noinline)) unsigned steps(unsigned x)
{
    unsigned r = 0;
    if ((x >> 0) & 1) // expect-count-all: 16384
        sink += 1; // expect-count-all: 8192
    if ((x >> 1) & 1) // expect-count-all: 16384
        sink += 2; // expect-count-all: 8192
    if ((x >> 2) & 1) // expect-count-all: 16384
        sink += 3; // expect-count-all: 8192
    if ((x >> 3) & 1) // expect-count-all: 16384
        sink += 4; // expect-count-all: 8192
    if ((x >> 4) & 1) // expect-count-all: 16384
        sink += 5; // expect-count-all: 8192
    if ((x >> 5) & 1) // expect-count-all: 16384
        sink += 6; // expect-count-all: 8192
    if ((x >> 6) & 1) // expect-count-all: 16384
        sink += 7; // expect-count-all: 8192
    if ((x >> 7) & 1) // expect-count-all: 16384
        sink += 8; // expect-count-all: 8192
    if ((x >> 8) & 1) // expect-count-all: 16384
        sink += 9; // expect-count-all: 8192
    if ((x >> 9) & 1) // expect-count-all: 16384
        sink += 10; // expect-count-all: 8192
    if ((x >> 10) & 1) // expect-count-all: 16384
        sink += 11; // expect-count-all: 8192
    if ((x >> 11) & 1) // expect-count-all: 16384
        sink += 12; // expect-count-all: 8192
    if ((x >> 0) & 1) // expect-count-all: 16384
        sink += 13; // expect-count-all: 8192
    if ((x >> 1) & 1) // expect-count-all: 16384
        sink += 14; // expect-count-all: 8192
    if ((x >> 2) & 1) // expect-count-all: 16384
        sink += 15; // expect-count-all: 8192
    if ((x >> 3) & 1) // expect-count-all: 16384
        sink += 16; // expect-count-all: 8192
    if ((x >> 4) & 1) // expect-count-all: 16384
        sink += 17; // expect-count-all: 8192
    if ((x >> 5) & 1) // expect-count-all: 16384
        sink += 18; // expect-count-all: 8192
    if ((x >> 6) & 1) // expect-count-all: 16384
        sink += 19; // expect-count-all: 8192
    if ((x >> 7) & 1) // expect-count-all: 16384
        sink += 20; // expect-count-all: 8192
    if ((x >> 8) & 1) // expect-count-all: 16384
        sink += 21; // expect-count-all: 8192
    if ((x >> 9) & 1) // expect-count-all: 16384
        sink += 22; // expect-count-all: 8192
    if ((x >> 10) & 1) // expect-count-all: 16384
        sink += 23; // expect-count-all: 8192
    if ((x >> 11) & 1) // expect-count-all: 16384
        sink += 24; // expect-count-all: 8192
    if ((x >> 0) & 1) // expect-count-all: 16384
        sink += 25; // expect-count-all: 8192
    if ((x >> 1) & 1) // expect-count-all: 16384
        sink += 26; // expect-count-all: 8192
    if ((x >> 2) & 1) // expect-count-all: 16384
        sink += 27; // expect-count-all: 8192
    if ((x >> 3) & 1) // expect-count-all: 16384
        sink += 28; // expect-count-all: 8192
    if ((x >> 4) & 1) // expect-count-all: 16384
        sink += 29; // expect-count-all: 8192
    if ((x >> 5) & 1) // expect-count-all: 16384
        sink += 30; // expect-count-all: 8192
    if ((x >> 6) & 1) // expect-count-all: 16384
        sink += 31; // expect-count-all: 8192
    if ((x >> 7) & 1) // expect-count-all: 16384
        sink += 32; // expect-count-all: 8192
    if ((x >> 8) & 1) // expect-count-all: 16384
        sink += 33; // expect-count-all: 8192
    if ((x >> 9) & 1) // expect-count-all: 16384
        sink += 34; // expect-count-all: 8192
    if ((x >> 10) & 1) // expect-count-all: 16384
        sink += 35; // expect-count-all: 8192
    if ((x >> 11) & 1) // expect-count-all: 16384
        sink += 36; // expect-count-all: 8192
    if ((x >> 0) & 1) // expect-count-all: 16384
        sink += 37; // expect-count-all: 8192
    if ((x >> 1) & 1) // expect-count-all: 16384
        sink += 38; // expect-count-all: 8192
    if ((x >> 2) & 1) // expect-count-all: 16384
        sink += 39; // expect-count-all: 8192
    if ((x >> 3) & 1) // expect-count-all: 16384
        sink += 40; // expect-count-all: 8192
    return r + sink;
}

static void *worker(void *arg)
{
    unsigned s = 0;
    for (unsigned i = 0; i < ITERS; i++) // expect-count-all: 16388
        s += steps(i);                   // expect-count-all: 16384
    return (void *)(unsigned long)s;
}

int main(void)
{
    pthread_t t[THREADS];
    unsigned sum = 0;
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++) {
        void *s;
        pthread_join(t[i], &s);
        sum += (unsigned)(unsigned long)s;
    }
    printf("%u\n", sum);
    return 0;
}
