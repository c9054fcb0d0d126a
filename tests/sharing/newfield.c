/* newfield.c — tests/sharing/t-joiner.sh: a thread's first accesses to a
 * shared line while every access to it calls (its byte SH_SHARED_BYTE: a
 * newcomer's footprint open, docs/sharing.md), in an order semaphores fix
 * (no timing): thread A writes s.a past its footprint (the line becomes
 * A's); thread B spends its introduction on pre's line (pre.y, pre.x A's),
 * then writes s.b once -- the line becomes shared and B's newcomer
 * footprint makes every access to it call; thread C, new, reads s.a and
 * writes s.c once each, then ends.  B's and C's calls there are neither
 * samples nor their introduction's countdown: before the fix no site of
 * theirs named s.b or s.c (only their bytes were kept), so the plan knew
 * one field of s, padded none, and gave advice.  The plan must pad s.b
 * and s.c (one writer each), in every run.  Prints the sums.
 *
 *     newfield */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

struct s3 {
    volatile long a; /* thread A */
    volatile long b; /* thread B, once */
    volatile long c; /* thread C, once */
};
struct pre2 {
    volatile long x; /* thread A */
    volatile long y; /* thread B's introduction */
};
_Alignas(64) struct s3 s;
_Alignas(64) struct pre2 pre;
static sem_t go_b, go_c, done_a, done_b;

static void *thread_a(void *arg)
{
    for (int i = 0; i < 4; i++)
        pre.x = pre.x + i;
    for (int i = 0; i < 100; i++)
        s.a = s.a + i;
    sem_post(&go_b);
    sem_wait(&done_a);
    return arg;
}

static void *thread_b(void *arg)
{
    sem_wait(&go_b);
    for (int i = 0; i < 200; i++) /* its introduction: pre's line, shared with A */
        pre.y = pre.y + i;
    s.b = s.b + 1;
    sem_post(&go_c);
    sem_wait(&done_b);
    return arg;
}

static void *thread_c(void *arg)
{
    long seen = s.a;
    s.c = s.c + 1;
    return (void *)seen;
}

int main(void)
{
    pthread_t a, b, c;
    sem_init(&go_b, 0, 0);
    sem_init(&go_c, 0, 0);
    sem_init(&done_a, 0, 0);
    sem_init(&done_b, 0, 0);
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, NULL);
    sem_wait(&go_c);
    pthread_create(&c, NULL, thread_c, NULL);
    void *seen;
    pthread_join(c, &seen);
    sem_post(&done_a);
    sem_post(&done_b);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("newfield %ld %ld %ld %ld %ld %ld\n", s.a, s.b, s.c, pre.x, pre.y, (long)seen);
    return 0;
}
