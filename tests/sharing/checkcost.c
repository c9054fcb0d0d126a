/* The inlined check's cost on a line private to its thread, counted under
 * callgrind (t-checkcost.sh): each of two workers fills a buffer of its own
 * and reads it byte by byte, once in first() (each line's footprint) and
 * PASSES times in again(): every access of again() finds its line the
 * thread's own, the check's fast path.  The same loop in both functions
 * (noipa: one call a pass, none folded away).  ./checkcost PASSES prints
 * the sums, the same in every build.  Neither worker frees its buffer
 * before both are done: a thread ending first would hand its malloc arena
 * and the buffer's memory to the other, whose accesses would then find
 * lines another thread owned (the slow path; 10 instructions an access in
 * about half of the runs under callgrind, which runs one thread at a
 * time). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 65536

static int passes;
static pthread_barrier_t done;
static unsigned long sums[2];

#define PASS_BODY                                                                                                    \
    unsigned long s = 0;                                                                                             \
    for (size_t i = 0; i < LEN; i++)                                                                                 \
        s += b[i] * (i | 1);                                                                                         \
    return s;

__attribute__((noipa)) static unsigned long first(const unsigned char *b)
{
    PASS_BODY
}

__attribute__((noipa)) static unsigned long again(const unsigned char *b)
{
    PASS_BODY
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    unsigned char *b = malloc(LEN);
    if (!b)
        abort();
    for (size_t i = 0; i < LEN; i++)
        b[i] = (unsigned char)(i * 7 + me);
    unsigned long s = first(b);
    for (int p = 0; p < passes; p++)
        s += again(b);
    sums[me] = s;
    pthread_barrier_wait(&done);
    free(b);
    return NULL;
}

int main(int argc, char **argv)
{
    passes = argc > 1 ? atoi(argv[1]) : 4;
    pthread_t t[2];
    pthread_barrier_init(&done, NULL, 2);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%lu %lu\n", sums[0], sums[1]);
    return 0;
}
