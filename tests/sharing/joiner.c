/* joiner.c — tests/sharing/t-joiner.sh: a thread that joins a line two
 * others already share.  Two workers each write their own field of one
 * global struct (false sharing: `a` and `b`); once both have written it
 * (the line is shared), a third thread writes its own field `c` a few
 * times -- far fewer than a sampling period -- and reads `a`.  By default
 * main starts the third thread then (its first accesses to sampled lines:
 * its introduction); with `late` the third thread starts with the workers
 * and first spends its introduction on another shared line (it writes
 * pre.y 200 times, worker 0 wrote pre.x before), so that none of its
 * accesses to trio is in its introduction.  The verdict and the plan (each
 * of a, b, c padded: one writer each) must not depend on whether a sample
 * fell on the third thread's few accesses.  Prints the sums (they must not
 * change), and to stderr "addr T<k> FIRST LAST" for each thread's field of
 * trio (check-addrs.py).
 *
 *     joiner [ROUNDS [late]] */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trio {
    volatile long a; /* worker 0 */
    volatile long b; /* worker 1 */
    volatile long c; /* the joiner */
};
struct pre {
    volatile long x; /* worker 0, a few times first (late) */
    volatile long y; /* the joiner's introduction (late) */
};
struct trio trio;
struct pre pre;
static volatile int started[3];
static long rounds;
static int late;

static void *worker(void *arg)
{
    long me = (long)arg;
    if (me == 0 && late) {
        for (int i = 0; i < 4; i++)
            pre.x = pre.x + i;
        __atomic_store_n(&started[2], 1, __ATOMIC_RELEASE);
    }
    for (long i = 0; i < rounds; i++) {
        if (me == 0)
            trio.a = trio.a + 1;
        else
            trio.b = trio.b + 1;
        if (i == 1000)
            __atomic_store_n(&started[me], 1, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&started[me], 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *joiner(void *arg)
{
    (void)arg;
    if (late) {
        while (!__atomic_load_n(&started[2], __ATOMIC_ACQUIRE))
            sched_yield();
        for (int i = 0; i < 200; i++) /* its introduction: pre's line, shared with worker 0 */
            pre.y = pre.y + i;
        while (!__atomic_load_n(&started[0], __ATOMIC_ACQUIRE) || !__atomic_load_n(&started[1], __ATOMIC_ACQUIRE))
            sched_yield();
    }
    long seen = 0;
    for (int i = 0; i < 8; i++) {
        trio.c = trio.c + i;
        seen += trio.a > 0;
    }
    return (void *)seen;
}

int main(int argc, char **argv)
{
    rounds = argc > 1 ? atol(argv[1]) : 2000000;
    late = argc > 2 && !strcmp(argv[2], "late");
    pthread_t t[3];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    if (!late)
        while (!__atomic_load_n(&started[0], __ATOMIC_ACQUIRE) || !__atomic_load_n(&started[1], __ATOMIC_ACQUIRE))
            sched_yield();
    pthread_create(&t[2], NULL, joiner, NULL);
    void *seen;
    pthread_join(t[2], &seen);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("joiner %ld %ld %ld %ld %ld %ld\n", trio.a, trio.b, trio.c, pre.x, pre.y, (long)seen);
    const volatile long *f[3] = {&trio.a, &trio.b, &trio.c};
    for (int i = 0; i < 3; i++)
        fprintf(stderr, "addr T%d %p %p\n", i, (const void *)f[i], (const void *)((const char *)f[i] + sizeof *f[i] - 1));
    return 0;
}
