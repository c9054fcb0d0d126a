/* histogram.c — bench/sharing.sh: per-thread histograms of an image (the
 * pattern of Huron's histogram): each thread counts the pixels of its
 * stripe into its own element of a heap array of a struct that has no tag,
 * only a typedef.  Three threads, 48-byte elements where glibc puts the
 * first block (+32 of a line): neighbours share lines; aligned alone, two
 * of them still would.
 *
 *     histogram [MEGAPIXELS] [THREADS]
 *
 * The image is made in memory (a fixed pseudo-random sequence).  The
 * counts go through memory on every pixel (the pixels are read as bytes,
 * which may alias them).  -DHAND_FIXED: the struct aligned to a line
 * (what a programmer writes).  Prints a checksum that must not change. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
#ifdef HAND_FIXED
    _Alignas(64)
#endif
    unsigned long bins[4];
    unsigned long pixels;
    int id;
} hist_t;

static unsigned char *image;
static size_t npix;
static int nthreads;
static hist_t *hists;

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    hist_t *h = &hists[me];
    size_t lo = npix * (size_t)me / (size_t)nthreads, hi = npix * (size_t)(me + 1) / (size_t)nthreads;
    for (int pass = 0; pass < 4; pass++)
        for (size_t i = lo; i < hi; i++) {
            h->bins[image[i] >> 6]++;
            h->pixels++;
        }
    return NULL;
}

int main(int argc, char **argv)
{
    npix = (argc > 1 ? (size_t)atol(argv[1]) : 16) << 20;
    nthreads = argc > 2 ? atoi(argv[2]) : 3;
    image = malloc(npix);
    unsigned x = 12345;
    for (size_t i = 0; i < npix; i++) {
        x = x * 1103515245u + 12345u;
        image[i] = (unsigned char)(x >> 16);
    }
#ifdef HAND_FIXED
    hists = aligned_alloc(64, (size_t)nthreads * sizeof *hists);
    for (int i = 0; i < nthreads; i++)
        hists[i] = (hist_t){{0}, 0, 0};
#else
    hists = calloc((size_t)nthreads, sizeof *hists);
#endif
    pthread_t t[64];
    for (long i = 0; i < nthreads && i < 64; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < nthreads && i < 64; i++)
        pthread_join(t[i], NULL);
    unsigned long sum = 0;
    for (int i = 0; i < nthreads; i++)
        for (int b = 0; b < 4; b++)
            sum = sum * 31 + hists[i].bins[b] + hists[i].pixels;
    printf("histogram %lu\n", sum);
    return 0;
}
