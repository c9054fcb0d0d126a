/* lurow.c — bench/sharing.sh: LU factorisation of a matrix by two threads
 * (the pattern of Phoenix/Splash lu): rows are given out cyclically, each
 * thread updates its own rows below the pivot at every step.  The matrix
 * comes from malloc, 16 bytes into a line, so every row boundary's line
 * holds the end of one thread's row and the start of the other's.
 *
 *     lu [N] [REPEATS]
 *
 * -DHAND_FIXED: aligned_alloc(64, ...) (rows of N doubles are whole lines).
 * Prints a checksum that must not change. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, repeats;
static double *a, *orig;
static pthread_barrier_t bar;

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    for (int rep = 0; rep < repeats; rep++) {
        for (int k = 0; k < n - 1; k++) {
            for (int i = k + 1; i < n; i++) {
                if (i % 2 != me)
                    continue;
                double f = a[i * n + k] / a[k * n + k];
                a[i * n + k] = f;
                for (int j = k + 1; j < n; j++)
                    a[i * n + j] -= f * a[k * n + j];
            }
            pthread_barrier_wait(&bar);
        }
        pthread_barrier_wait(&bar);
        if (me == 0)
            memcpy(a, orig, (size_t)n * n * sizeof *a);
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 96;
    repeats = argc > 2 ? atoi(argv[2]) : 40;
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
    memcpy(a, orig, bytes);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    /* the last factorisation, before the copy back: redo it once alone */
    for (int k = 0; k < n - 1; k++)
        for (int i = k + 1; i < n; i++) {
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            for (int j = k + 1; j < n; j++)
                a[i * n + j] -= f * a[k * n + j];
        }
    double s = 0;
    for (int i = 0; i < n * n; i++)
        s += a[i];
    printf("lu %.6e\n", s);
    return 0;
}
