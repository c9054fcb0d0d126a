/* lu.c — bench/sharing.sh: LU factorisation (no pivoting) of an N x N
 * matrix of doubles by threads, in blocks of 8 x 8 (the pattern of
 * Splash-2's lu_ncb, "non-contiguous blocks"): the matrix is stored by
 * rows and each block column belongs to one thread (J % THREADS).  When
 * the matrix starts a line, each line of a row is a piece of one block;
 * malloc puts it 32 bytes into a line (16 when it comes from mmap), so
 * every line of a row holds the end of one thread's block and the start
 * of the next thread's.
 *
 *     lu [N] [REPEATS] [THREADS]     (N a multiple of 8)
 *
 * Each repetition copies every thread's own blocks back from the original.
 * -DHAND_FIXED: aligned_alloc(64, ...).  Prints a checksum that must not
 * change (every element sees the same operations in the same order,
 * whatever the threads). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BS 8
static int n, nb, repeats, nthreads;
static double *a, *orig;
static pthread_barrier_t bar;

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    for (int rep = 0; rep < repeats; rep++) {
        for (int J = me; J < nb; J += nthreads)
            for (int i = 0; i < n; i++)
                memcpy(&a[i * n + J * BS], &orig[i * n + J * BS], BS * sizeof *a);
        pthread_barrier_wait(&bar);
        for (int K = 0; K < nb; K++) {
            int k0 = K * BS;
            if (K % nthreads == me) /* the panel: block column K, from the diagonal down */
                for (int k = k0; k < k0 + BS; k++)
                    for (int i = k + 1; i < n; i++) {
                        double f = a[i * n + k] / a[k * n + k];
                        a[i * n + k] = f;
                        for (int j = k + 1; j < k0 + BS; j++)
                            a[i * n + j] -= f * a[k * n + j];
                    }
            pthread_barrier_wait(&bar);
            for (int J = K + 1; J < nb; J++) {
                if (J % nthreads != me)
                    continue;
                int j0 = J * BS;
                for (int k = k0; k < k0 + BS; k++) /* U of block (K, J) */
                    for (int i = k + 1; i < k0 + BS; i++) {
                        double f = a[i * n + k];
                        for (int j = j0; j < j0 + BS; j++)
                            a[i * n + j] -= f * a[k * n + j];
                    }
                for (int i = k0 + BS; i < n; i++) /* the blocks (I, J) below it */
                    for (int k = k0; k < k0 + BS; k++) {
                        double f = a[i * n + k];
                        for (int j = j0; j < j0 + BS; j++)
                            a[i * n + j] -= f * a[k * n + j];
                    }
            }
            pthread_barrier_wait(&bar);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 128;
    repeats = argc > 2 ? atoi(argv[2]) : 10;
    nthreads = argc > 3 ? atoi(argv[3]) : 2;
    if (n < BS || n % BS || nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "usage: lu [N (a multiple of %d)] [REPEATS] [THREADS (1-64)]\n", BS);
        return 2;
    }
    nb = n / BS;
    size_t bytes = (size_t)n * n * sizeof *a;
#ifdef HAND_FIXED
    a = aligned_alloc(64, (bytes + 63) / 64 * 64);
#else
    a = malloc(bytes);
#endif
    orig = malloc(bytes);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            orig[i * n + j] = i == j ? n + 1.0 : 1.0 / (1 + i + j);
    pthread_barrier_init(&bar, NULL, (unsigned)nthreads);
    pthread_t t[64];
    for (long i = 0; i < nthreads; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    double s = 0;
    for (int i = 0; i < n * n; i++)
        s += a[i] * (1 + i % 7);
    printf("lu %.9e\n", s);
    return 0;
}
