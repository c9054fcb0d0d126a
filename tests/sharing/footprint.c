/* The inlined footprint path (pass-sharing.cc, fp_path): ./footprint [KIB]
 *
 * main fills a buffer of KIB KiB (64 by default) byte by byte before any
 * other thread exists; two workers each read their half of it byte by byte
 * (a line's first 64 accesses are its footprint: every access of the pass)
 * and count into their own element of a heap array of a struct, field by
 * field (the plugin names the fields: new bytes of a field call), the two
 * elements on one line: false sharing.  Each worker also writes and reads
 * a buffer of its own with 2-, 4- and 8-byte accesses, aligned (the path)
 * and one 4-byte access at an odd address in a packed struct (no path: it
 * may cross a line).  Then passes over a third buffer of its own that start
 * and end inside lines, by 1-, 2-, 4- and 8-byte steps, reads and
 * read-modify-writes: the runs (pass-sharing.cc, find_runs) record a line's
 * accesses at once, and must record what the accesses one by one do.
 * Prints the sums. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct acc {
    long bytes;
    long spaces;
    long odd;
    long pad;
};
struct __attribute__((packed)) unaligned {
    char c;
    uint32_t v;
};

static unsigned char *buf;
static size_t len;
static struct acc *accs;
volatile void *kept[2][2]; /* (the workers' buffers escape: their accesses are checked) */

/* passes from byte lo, n elements each, over r (4096 bytes, its thread's) */
static uint64_t runs(unsigned char *r, size_t lo, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = lo; i < lo + n; i++) /* 1-byte reads */
        sum += r[i];
    uint16_t *h = (uint16_t *)(r + 1024);
    for (size_t i = lo / 2; i < lo / 2 + n; i++) /* 2-byte read-modify-writes */
        h[i] += 3;
    uint32_t *w = (uint32_t *)(r + 2048);
    for (size_t i = lo / 4; i < lo / 4 + n / 2; i++) /* 4-byte writes */
        w[i] = (uint32_t)i;
    uint64_t *d = (uint64_t *)(r + 3072);
    for (size_t i = lo / 8; i < lo / 8 + n / 8; i++) /* 8-byte reads */
        sum += d[i];
    return sum;
}

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    struct acc *a = &accs[me];
    for (size_t i = len / 2 * (size_t)me; i < len / 2 * (size_t)(me + 1); i++) {
        a->bytes++;
        if (buf[i] == ' ')
            a->spaces++;
        if (buf[i] & 1)
            a->odd++;
    }
    /* a buffer of its own: aligned 2-, 4- and 8-byte accesses */
    volatile uint64_t *w = aligned_alloc(64, 4096);
    volatile uint32_t *h = (volatile uint32_t *)(w + 256);
    volatile uint16_t *s = (volatile uint16_t *)(h + 256);
    volatile struct unaligned *u = aligned_alloc(64, 64 * sizeof *u);
    if (!w || !u)
        return NULL;
    kept[me][0] = w, kept[me][1] = u;
    for (int i = 0; i < 256; i++)
        w[i] = (uint64_t)i, h[i] = (uint32_t)i, s[i] = (uint16_t)i;
    for (int i = 0; i < 64; i++)
        u[i].v = (uint32_t)i;
    uint64_t sum = 0;
    for (int i = 0; i < 256; i++)
        sum += w[i] + h[i] + s[i];
    for (int i = 0; i < 64; i++)
        sum += u[i].v;
    /* r on a line's start, whichever arena malloc took it from (the
       threads' own or a shared one, as they happen to start): the runs'
       line records are then the same in every run */
    unsigned char *raw = calloc(1, 4096 + 64);
    if (!raw)
        return NULL;
    kept[me][1] = raw;
    unsigned char *r = raw + (-(uintptr_t)raw & 63);
    for (size_t k = 0; k < 6; k++) /* passes of 5 to 225 elements from byte 3 + 131 k on */
        sum += runs(r, 3 + 131 * k, 5 + 44 * k);
    a->pad = (long)sum; /* (w and u not freed: another worker's would reuse their lines) */
    return NULL;
}

int main(int argc, char **argv)
{
    len = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 10;
    buf = aligned_alloc(64, len); /* (each worker's half on lines of its own) */
    accs = aligned_alloc(64, 2 * sizeof *accs); /* (one line, the two elements' halves) */
    if (!buf || !accs)
        return 1;
    for (int i = 0; i < 2; i++)
        accs[i] = (struct acc){0, 0, 0, 0};
    unsigned x = 1;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (x >> 16) % 9 == 0 ? ' ' : (unsigned char)('a' + (x >> 20) % 26);
    }
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        printf("worker %d: %ld bytes, %ld spaces, %ld odd, sum %ld\n", i, accs[i].bytes, accs[i].spaces, accs[i].odd,
               accs[i].pad);
    return 0;
}
