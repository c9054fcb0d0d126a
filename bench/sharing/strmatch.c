/* strmatch.c — bench/sharing.sh: each thread looks for keys in its share
 * of a text (the pattern of Huron's string_match), clearing its word
 * buffer with bzero before each word.  The buffers are allocated one after
 * the other by the main thread, 24 bytes each, right after the array that
 * holds them: glibc's chunks are 32 bytes apart and the first buffer
 * starts a line (+0), so neighbours share a line, and bzero (expanded
 * inline by GCC) is what writes them.
 *
 *     strmatch [MEGABYTES] [THREADS]
 *
 * -DHAND_FIXED: each buffer from aligned_alloc(64, 64).  Prints the
 * number of matches (it must not change). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WORD 24
static char *text;
static size_t len;
static int nthreads;
static char **bufs;
static long matches[64 * 8];
static const char *keys[] = {"helloworld", "howareyou", "ferrari", "whotheman"};

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    char *w = bufs[me];
    size_t lo = len * (size_t)me / (size_t)nthreads, hi = len * (size_t)(me + 1) / (size_t)nthreads;
    long found = 0;
    size_t i = lo;
    while (i < hi) {
        bzero(w, WORD);
        int k = 0;
        while (i < hi && text[i] != ' ' && k < WORD - 1)
            w[k++] = text[i++];
        i++;
        for (int q = 0; q < 4; q++)
            found += !strcmp(w, keys[q]);
    }
    matches[me * 8] = found;
    return NULL;
}

int main(int argc, char **argv)
{
    len = (argc > 1 ? (size_t)atol(argv[1]) : 16) << 20;
    nthreads = argc > 2 ? atoi(argv[2]) : 2;
    text = malloc(len + 1);
    unsigned x = 4321;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        int r = (x >> 16) & 63;
        text[i] = r < 6 ? ' ' : (char)('a' + r % 26);
        if (r == 7 && i + 10 < len) { /* now and then a key */
            memcpy(text + i, keys[(x >> 8) & 3], strlen(keys[(x >> 8) & 3]));
            i += strlen(keys[(x >> 8) & 3]) - 1;
        }
    }
    text[len] = 0;
    bufs = malloc((size_t)nthreads * sizeof *bufs);
    for (int i = 0; i < nthreads && i < 64; i++) {
#ifdef HAND_FIXED
        bufs[i] = aligned_alloc(64, 64);
#else
        bufs[i] = malloc(WORD);
#endif
    }
    pthread_t t[64];
    for (long i = 0; i < nthreads && i < 64; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long total = 0;
    for (int i = 0; i < nthreads && i < 64; i++) {
        pthread_join(t[i], NULL);
        total += matches[i * 8];
    }
    printf("strmatch %ld\n", total);
    return 0;
}
