/* kmeans.c — bench/sharing.sh: k-means clustering by threads made and
 * joined every iteration (the pattern of Phoenix's kmeans): the workers
 * read the sizes of the problem, global variables, for every point, and
 * set the shared `modified` flag when a point changes cluster; the flag
 * sits on one line with the sizes.
 *
 *     kmeans [POINTS] [THREADS] [ITERATIONS]
 *
 * -DHAND_FIXED: the flag on a line of its own (aligned and padded).  Prints
 * a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define DIM 3
#define K 8
long num_points;
long dim;
long num_means;
#ifdef HAND_FIXED
/* the flag on a line of its own: aligned, and padded to the line's end
 * (aligned alone, the globals after it would share its line) */
static struct {
    volatile int v;
    char pad[64 - sizeof(int)];
} modified_line __attribute__((aligned(64)));
#define modified modified_line.v
#else
volatile int modified;
#endif
static int *points, *means, *cluster;
static int nthreads;

static void *worker(void *arg)
{
    long me = (long)arg;
    long lo = num_points * me / nthreads, hi = num_points * (me + 1) / nthreads;
    for (long i = lo; i < hi; i++) {
        long best = 0, bestd = -1;
        for (long c = 0; c < *(volatile long *)&num_means; c++) {
            long d = 0;
            for (long j = 0; j < *(volatile long *)&dim; j++) {
                long x = points[i * DIM + j] - means[c * DIM + j];
                d += x * x;
            }
            if (bestd < 0 || d < bestd)
                bestd = d, best = c;
        }
        if (cluster[i] != best) {
            cluster[i] = (int)best;
            modified = 1;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    num_points = argc > 1 ? atol(argv[1]) : 200000;
    nthreads = argc > 2 ? atoi(argv[2]) : 2;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    dim = DIM;
    num_means = K;
    points = malloc(num_points * DIM * sizeof *points);
    cluster = calloc(num_points, sizeof *cluster);
    means = malloc(K * DIM * sizeof *means);
    unsigned x = 99;
    for (long i = 0; i < num_points * DIM; i++) {
        x = x * 1103515245u + 12345u;
        points[i] = (int)((x >> 16) % 1000);
    }
    for (int i = 0; i < K * DIM; i++)
        means[i] = points[i];
    int it;
    for (it = 0; it < iters; it++) {
        modified = 0;
        pthread_t t[64];
        for (long i = 0; i < nthreads && i < 64; i++)
            pthread_create(&t[i], NULL, worker, (void *)i);
        for (int i = 0; i < nthreads && i < 64; i++)
            pthread_join(t[i], NULL);
        long sum[K][DIM] = {{0}}, cnt[K] = {0};
        for (long i = 0; i < num_points; i++) {
            cnt[cluster[i]]++;
            for (int j = 0; j < DIM; j++)
                sum[cluster[i]][j] += points[i * DIM + j];
        }
        for (int c = 0; c < K; c++)
            for (int j = 0; j < DIM; j++)
                means[c * DIM + j] = cnt[c] ? (int)(sum[c][j] / cnt[c]) : means[c * DIM + j];
        if (!modified)
            break;
    }
    long s = it;
    for (int i = 0; i < K * DIM; i++)
        s = s * 31 + means[i];
    printf("kmeans %ld\n", s);
    return 0;
}
