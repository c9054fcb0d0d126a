/* The layout an instrumented program gives its data (t-layout.sh): the
 * same as the plain build's, so that the sharing verdicts judge the
 * placement production has.  Heap objects allocated before and inside
 * threads, and globals, each printed as its offset in its page (heap) or
 * line (globals); the workers' results printed after the join. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hist {
    unsigned bins[5];
};
long counter_a;
char name_buf[37];
long counter_b;
static struct hist *hists;
static unsigned long off_of[4];

static void *worker(void *arg)
{
    long me = (long)arg;
    char *own = malloc(100 + 20 * me); /* a worker's arena: its own */
    memset(own, (int)me, 100);
    off_of[me] = (unsigned long)own % 4096;
    hists[me].bins[me] += 1;
    counter_a += own[3];
    free(own);
    return NULL;
}

int main(void)
{
    char *a = malloc(24), *b = calloc(3, 40), *c = malloc(1000);
    hists = calloc(4, sizeof *hists);
    printf("heap %lx %lx %lx %lx\n", (unsigned long)a % 4096, (unsigned long)b % 4096, (unsigned long)c % 4096,
           (unsigned long)hists % 4096);
    printf("globals %lx %lx %lx\n", (unsigned long)&counter_a % 64, (unsigned long)name_buf % 64,
           (unsigned long)&counter_b % 64);
    pthread_t t[2];
    for (long i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, worker, (void *)i);
        pthread_join(t[i], NULL); /* one at a time: each worker's arena is made the same way */
    }
    printf("workers %lx %lx\n", off_of[0], off_of[1]);
    free(a), free(b), free(c), free(hists);
    return 0;
}
