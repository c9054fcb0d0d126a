/* wrapalloc.c — tests/sharing/t-wrapalloc.sh: an allocation wrapper whose
 * malloc is a tail call at -O2 (xz's lzma_alloc).  Two threads write the
 * two halves of a pair the wrapper allocated: the object must be named by
 * the wrapper's malloc (the call a repair can align), its caller next on
 * the stack. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct pair {
    long a, b;
};

__attribute__((noinline)) void *xalloc(size_t n)
{
    if (n == 0)
        n = 1;
    return malloc(n); /* site malloc */
}

static void *work(void *arg)
{
    volatile long *p = arg;
    for (long i = 0; i < 20000; i++)
        *p += i;
    return NULL;
}

int main(void)
{
    struct pair *pr = xalloc(sizeof *pr); /* site caller */
    pr->a = pr->b = 0;
    pthread_t t1, t2;
    pthread_create(&t1, NULL, work, &pr->a);
    pthread_create(&t2, NULL, work, &pr->b);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("%ld\n", pr->a + pr->b);
    free(pr);
    return 0;
}
