/* Heap reuse between threads that run at once (t-reuse.sh, t-loaded.sh):
 * thread A mallocs a block (a struct old_blk), writes its first word and
 * frees it; thread B then mallocs a block of the same size -- glibc gives
 * it the same address (one arena for both, a size above the per-thread
 * caches) -- as a struct new_blk, and writes its second word.  The two
 * words lie on one line, written by two threads whose lives overlap, but
 * by two objects one after the other: no sharing.  Meanwhile A writes
 * pair.a and B pair.b, one line: false sharing.  Prints "reuse same" when
 * B's block is A's old address ("reuse moved" else) on stderr, with the
 * addresses.  `reuse strdup`: B's block comes from libc's strdup, an
 * allocation no instrumented call makes (the runtime sees it through
 * libperfinst.so's malloc, docs/sharing.md "Heap reuse"). */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 2048              /* above glibc's tcache and fastbin sizes */
#define ROUNDS 20000

struct pair {
    long a, b;
};
/* A's object and B's, of two types: the sites of A's accesses (a struct
 * field names its struct) must go with A's bytes when B's object is
 * allocated over them, or B's object would be named old_blk */
struct old_blk {
    long first, second;
    char rest[SIZE - 16];
};
struct new_blk {
    long x, y;
    char rest[SIZE - 16];
};
struct pair pair;
/* (each on a line of its own: no other sharing; both flags' lines are
 * shared before A's malloc, so that the runtime's own allocations for a
 * newly shared line do not come between A's free and B's malloc; ready is
 * 2 once B has its block) */
static int ready __attribute__((aligned(64)));
static int freed __attribute__((aligned(64)));
static void *a_block __attribute__((aligned(64)));
static void *b_block __attribute__((aligned(64)));
static int use_strdup;
static char text[SIZE];        /* SIZE - 1 letters: strdup mallocs SIZE bytes */

static void *thread_a(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
        sched_yield();
    if (__atomic_load_n(&freed, __ATOMIC_ACQUIRE))
        abort();
    volatile struct old_blk *p = malloc(sizeof *p);
    if (!p)
        abort();
    p->first = 1;
    for (int i = 0; i < 64; i++)
        p->first = p->first * 3 + i;
    a_block = (void *)p;
    free((void *)p);
    __atomic_store_n(&freed, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < ROUNDS; i++)
        pair.a = pair.a * 5 + i;
    /* (alive until B has its block: a thread's exit frees memory of its
     * own into the arena, which could merge with the freed block) */
    while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != 2)
        sched_yield();
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    /* (B's first malloc makes its thread cache: now, not from A's block) */
    void *volatile warm = malloc(16);
    free(warm);
    int f = __atomic_load_n(&freed, __ATOMIC_ACQUIRE);
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    while (!f)
        f = __atomic_load_n(&freed, __ATOMIC_ACQUIRE), sched_yield();
    volatile struct new_blk *q = use_strdup ? (void *)strdup(text) : malloc(sizeof *q);
    __atomic_store_n(&ready, 2, __ATOMIC_RELEASE);
    if (!q)
        abort();
    q->y = 1;
    for (int i = 0; i < 64; i++)
        q->y = q->y * 3 + i;
    b_block = (void *)q;
    for (int i = 0; i < ROUNDS; i++)
        pair.b = pair.b * 7 + i;
    long v = q->y;
    free((void *)q);
    return (void *)v;
}

int main(int argc, char **argv)
{
    use_strdup = argc > 1 && !strcmp(argv[1], "strdup");
    memset(text, 'x', SIZE - 1);
    mallopt(M_ARENA_MAX, 1);
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, NULL);
    void *v;
    pthread_join(a, NULL);
    pthread_join(b, &v);
    printf("pair %ld %ld %ld\n", pair.a, pair.b, (long)v);
    fprintf(stderr, "reuse %s %p %p\n", a_block == b_block ? "same" : "moved", a_block, b_block);
    return 0;
}
