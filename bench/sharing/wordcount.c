/* wordcount.c — bench/sharing.sh: each thread counts the words and
 * characters of its share of a text into its own element of a heap array
 * of a typedef'd struct without a tag (the pattern of Phoenix's
 * word_count): neighbours' counters share lines.
 *
 *     wordcount [MEGABYTES] [THREADS]
 *
 * -DHAND_FIXED: the struct aligned to a line.  Prints the counts. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
#ifdef HAND_FIXED
    _Alignas(64)
#endif
    long words;
    long chars;
    long longest;
} wc_count_t;

static char *text;
static size_t len;
static int nthreads;
static wc_count_t *counts;

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    wc_count_t *c = &counts[me];
    size_t lo = len * (size_t)me / (size_t)nthreads, hi = len * (size_t)(me + 1) / (size_t)nthreads;
    long cur = 0;
    for (size_t i = lo; i < hi; i++) {
        if (text[i] == ' ') {
            if (cur) {
                c->words++;
                if (cur > c->longest)
                    c->longest = cur;
            }
            cur = 0;
        } else {
            c->chars++;
            cur++;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    len = (argc > 1 ? (size_t)atol(argv[1]) : 32) << 20;
    nthreads = argc > 2 ? atoi(argv[2]) : 2;
    text = malloc(len);
    unsigned x = 777;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        text[i] = ((x >> 16) & 7) == 0 ? ' ' : (char)('a' + (x >> 20) % 26);
    }
#ifdef HAND_FIXED
    counts = aligned_alloc(64, (size_t)nthreads * sizeof *counts);
    for (int i = 0; i < nthreads; i++)
        counts[i] = (wc_count_t){0, 0, 0};
#else
    counts = calloc((size_t)nthreads, sizeof *counts);
#endif
    pthread_t t[64];
    for (long i = 0; i < nthreads && i < 64; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long w = 0, ch = 0, lg = 0;
    for (int i = 0; i < nthreads && i < 64; i++) {
        pthread_join(t[i], NULL);
        w += counts[i].words, ch += counts[i].chars;
        lg = counts[i].longest > lg ? counts[i].longest : lg;
    }
    printf("wordcount %ld %ld %ld\n", w, ch, lg);
    return 0;
}
