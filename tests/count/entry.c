/* entry.c — split functions entered through their jump slots while the
 * mode changes (tests/count/t-entry-jump.sh).  argv[1] = n; `flip` adds two
 * threads calling branchy while main flips the mode 2000 times. */
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int leaf(int x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) int branchy(int x)
{
    if (x & 1)
        return leaf(x);
    return x / 2;
}

static volatile int stop;
static volatile long sink;
static void *worker(void *arg)
{
    long s = 0;
    (void)arg;
    while (!stop)
        s += branchy((int)s & 7);
    return (void *)s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    long s = 0;
    if (argc > 2 && !strcmp(argv[2], "flip")) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, worker, NULL);
        for (int i = 0; i < 2000; i++) {
            if (i & 1)
                perfinst_enable();
            else
                perfinst_disable();
            s += branchy(i);
        }
        stop = 1;
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        perfinst_enable();
        sink = s; /* (else -O2 drops the calls of branchy, a const function) */
        printf("flipped\n");
        return 0;
    }
    for (int i = 0; i < n; i++) /* counted: n entries, n/2 of leaf */
        s += branchy(i);
    perfinst_disable();
    for (int i = 0; i < n; i++) /* not counted */
        s += branchy(i);
    perfinst_enable();
    for (int i = 0; i < n; i++) /* counted again */
        s += branchy(i);
    printf("%ld\n", s);
    return 0;
}
