/* callocs.c — tests/sharing/t-callocs.sh: calloc sites a hand-written
 * feedback file names for align-alloc; each must come back zeroed (over
 * memory a freed block left dirty), starting a line, and a product that
 * wraps must fail as calloc's does (NULL, ENOMEM).  Prints, per site,
 * "SITE +OFFSET zero|DIRTY" and "wrap NULL ENOMEM"; the control, an
 * aligned_alloc'ed block, must be DIRTY (else the test proves nothing).
 * Then realloc sites (realloc cannot be written in the program: the
 * runtime's __perfinst_line_realloc): a block grown, one shrunk, one from
 * NULL, one freed by a size of 0; "SITE +OFFSET kept|LOST" says whether
 * the old contents came along.  (A second thread touches a global first:
 * a trace of a process with one thread holds no allocation records.) */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct acc {
    long sx, sy, sxy;
};

/* the heap's top full of 0xaa: a block freed back into it */
static void *volatile sink; /* (GCC would drop a malloc, memset and free it can see whole) */
static void dirty(void)
{
    sink = malloc(16384);
    memset(sink, 0xaa, 16384);
    free(sink);
}

static void say(const char *site, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    while (i < n && b[i] == 0)
        i++;
    printf("%s +%u %s\n", site, (unsigned)((uintptr_t)p % 64), i == n ? "zero" : "DIRTY");
}

/* the first n bytes of p are 0x5a, 0x5b, ...: the old block's contents */
static void fill(void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((unsigned char *)p)[i] = (unsigned char)(0x5a + i);
}

static void kept(const char *site, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    while (i < n && b[i] == (unsigned char)(0x5a + i))
        i++;
    printf("%s +%u %s\n", site, (unsigned)((uintptr_t)p % 64), p && i == n ? "kept" : "LOST");
}

volatile int touched; /* (read by no one: volatile, or GCC drops the write) */
static void *touch(void *arg)
{
    touched++;
    return arg;
}

int main(int argc, char **argv)
{
    pthread_t t;
    int started = pthread_create(&t, NULL, touch, NULL) == 0;
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 3; /* not known to the compiler */
    dirty();
    void *d = aligned_alloc(64, 256); /* the control: memory nobody zeroes is dirty here */
    say("control", d, 256);
    struct acc *c = calloc(3, sizeof *c);         /* site const */
    say("const", c, 3 * sizeof *c);
    struct acc *v = calloc(n, sizeof *v);         /* site var */
    say("var", v, n * sizeof *v);
    size_t k = n * 64 + 13;
    char *bytes = calloc(k, 1);                   /* site bytes */
    say("bytes", bytes, k);
    errno = 0;
    void *w = calloc(SIZE_MAX / 8 + n, 16);       /* site wrap */
    printf("wrap %s %s\n", w ? "NOT-NULL" : "NULL", errno == ENOMEM ? "ENOMEM" : "no-errno");
    char *g = malloc(40);
    fill(g, 40);
    g = realloc(g, n * 1000);                     /* site grow */
    kept("grow", g, 40);
    fill(g, 200);
    g = realloc(g, n * 8);                        /* site shrink */
    kept("shrink", g, n * 8);
    char *z = realloc(NULL, n * 10);              /* site null */
    fill(z, n * 10);
    kept("null", z, n * 10);
    z = realloc(z, 0);                            /* site zero */
    printf("zero %s\n", z ? "NOT-NULL" : "NULL");
    free(g);
    if (started)
        pthread_join(t, NULL);
    free(c);
    free(v);
    free(bytes);
    free(d);
    return 0;
}
