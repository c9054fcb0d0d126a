/* tests/runtime/t-small-stack.sh: threads created with small stacks of
 * the program's own size (PTHREAD_STACK_MIN, 64 KiB), in a program whose
 * counters (in static TLS, which glibc takes from each thread's stack)
 * outgrow them: bulk.c, generated, has 3,000 functions of four or five blocks each. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

long bulk(long x); /* bulk.c: every generated function once */

static void *work(void *p)
{
    long *v = p;
    char frame[4096]; /* a frame of the program's own on the small stack */
    memset(frame, (int)*v, sizeof frame);
    *v = bulk(*v) + frame[100];   // expect-count: 3
    return NULL;
}

static void *deep(void *p)
{
    long *v = p;
    volatile char frame[1 << 20];
    frame[0] = (char)*v;
    frame[sizeof frame - 1] = 1;
    *v = frame[0] + frame[sizeof frame - 1];   // expect-count: 1
    return NULL;
}

int main(void)
{
    size_t sizes[] = {PTHREAD_STACK_MIN, 65536, 3 * PTHREAD_STACK_MIN + 42};
    long sum = 0;
    for (int i = 0; i < 3; i++) {
        pthread_attr_t a;
        pthread_t t;
        long v = i;
        pthread_attr_init(&a);
        if (pthread_attr_setstacksize(&a, sizes[i]) != 0)
            return 2;
        int rc = pthread_create(&t, &a, work, &v);   // expect-count: 3
        if (rc != 0) {
            printf("pthread_create(stack %zu): %s\n", sizes[i], strerror(rc));
            return 1;
        }
        pthread_join(t, NULL);
        pthread_attr_destroy(&a);
        sum += v;
    }
    /* attributes with no stack size: glibc's default stack (8 MiB), of
       which the thread uses 1 MiB */
    pthread_attr_t a;
    pthread_t t;
    long v = 7;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_JOINABLE);
    if (pthread_create(&t, &a, deep, &v) != 0)   // expect-count: 1
        return 1;
    pthread_join(t, NULL);
    pthread_attr_destroy(&a);
    printf("%ld %ld\n", sum, v);
    return 0;
}
