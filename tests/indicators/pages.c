/* pages.c — the performance page table (seed 004 M31) on pages touched in
 * known epochs.
 *
 *   pages          the fixed scenario below; prints what the API reports
 *   pages threads  4 threads touch every page of a range in each of 50
 *                  epochs (a barrier between epochs): one touch per page
 *                  per epoch whatever the threads do
 *   pages crash    writes into a watched read-only page: a real fault,
 *                  which must still kill the process with its trace
 *   pages badargs  the API's refusals
 *   pages nested   a threshold handler that touches another watched page
 *
 * Memory: 8 pages from mmap.  Ranges: A = pages 0-3 (threshold 5, handler),
 * B = pages 4-5, C = bytes 0..99 of page 6, D = bytes 2048..2147 of page 6.
 *
 *   epoch 1: read pages 0 1 2, write page 4                  -> A 3, B 1
 *   epoch 2: pages 0 1 (twice each), 3; page 6 + 2050 (D)    -> A 3, D 1
 *   epoch 3: page 0; pages 4 5; page 6 + 10 (C)              -> A 1, B 2, C 1
 *   epoch 4: page 2; page 6 + 1000 (outside C and D)         -> A 1, page 6 "outside"
 *
 * A reaches 5 touches at page 1 in epoch 2: the handler runs once.  The
 * look-aside buffer (16 entries, direct-mapped by page number) misses the
 * first time each of the 7 pages is looked up and hits afterwards: 7 misses,
 * 7 hits.
 */
#define _GNU_SOURCE
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>

#define PG 4096

PERFINST("count") __attribute__((noinline)) static int marked(int x)
{
    return x + 1; /* a counted unit, so that the process writes its trace */
}

static volatile int fired;
static volatile uint64_t fired_touches, fired_epoch;
static volatile uintptr_t fired_page;

static void on_threshold(const struct perfinst_page_event *ev)
{
    fired++;
    fired_touches = ev->touches;
    fired_epoch = ev->epoch;
    fired_page = ev->page;
}

static volatile char sink;
static void rd(char *p) { sink = *(volatile char *)p; }
static void wr(char *p) { *(volatile char *)p = 1; }

static char *mem;

static void touch_other(const struct perfinst_page_event *ev)
{
    fired++;
    rd((char *)ev->page + PG);
}
static int ra;
static pthread_barrier_t bar;

static void *toucher(void *arg)
{
    for (int e = 0; e < 50; e++) {
        pthread_barrier_wait(&bar); /* the main thread began epoch e */
        for (int p = 0; p < 4; p++)
            wr(mem + p * PG + (int)(long)arg * 8);
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    marked(1);
    mem = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return 2;

    if (!strcmp(mode, "threads")) {
        ra = perfinst_page_range_add(mem, 4 * PG, 0, NULL);
        pthread_t t[4];
        pthread_barrier_init(&bar, NULL, 5);
        for (long i = 0; i < 4; i++)
            pthread_create(&t[i], NULL, toucher, (void *)i);
        for (int e = 0; e < 50; e++) {
            if (e)
                perfinst_page_new_epoch();
            pthread_barrier_wait(&bar);
            pthread_barrier_wait(&bar);
        }
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        printf("threads: range touches %llu, page 0 touches %llu\n",
               (unsigned long long)perfinst_page_range_touches(ra),
               (unsigned long long)perfinst_page_touches(mem));
        return 0;
    }
    if (!strcmp(mode, "crash")) {
        mprotect(mem + 7 * PG, PG, PROT_READ);
        perfinst_page_range_add(mem + 7 * PG, PG, 0, NULL);
        rd(mem + 7 * PG); /* a touch: counted, the page readable again */
        printf("crash: read touch counted %llu\n",
               (unsigned long long)perfinst_page_touches(mem + 7 * PG));
        fflush(stdout);
        wr(mem + 7 * PG + 8); /* a write to a read-only page: a real SIGSEGV */
        printf("crash: survived\n");
        return 0;
    }
    if (!strcmp(mode, "nested")) {
        static int ry;
        ry = perfinst_page_range_add(mem + PG, PG, 0, NULL);
        ra = perfinst_page_range_add(mem, PG, 1, touch_other);
        rd(mem); /* touch of X: the handler touches Y, a nested fault */
        printf("nested: X %llu Y %llu fired %d\n",
               (unsigned long long)perfinst_page_range_touches(ra),
               (unsigned long long)perfinst_page_range_touches(ry), fired);
        return 0;
    }
    if (!strcmp(mode, "badargs")) {
        int r = perfinst_page_range_add(mem, 0, 0, NULL);
        printf("len 0: %d %s\n", r, strerror(errno));
        ra = perfinst_page_range_add(mem, PG, 0, NULL);
        r = perfinst_page_range_add(mem + 100, 10, 0, NULL);
        printf("overlap: %d %s\n", r, strerror(errno));
        munmap(mem + 7 * PG, PG);
        r = perfinst_page_range_add(mem + 7 * PG, PG, 0, NULL);
        printf("unmapped: %d %s\n", r, strerror(errno));
        printf("remove bad: %d\n", perfinst_page_range_remove(99));
        printf("remove: %d\n", perfinst_page_range_remove(ra));
        wr(mem); /* no longer watched: no fault, no touch */
        printf("after remove: %llu\n", (unsigned long long)perfinst_page_range_touches(ra));
        return 0;
    }

    ra = perfinst_page_range_add(mem, 4 * PG, 5, on_threshold);
    int rb = perfinst_page_range_add(mem + 4 * PG, 2 * PG, 0, NULL);
    int rc = perfinst_page_range_add(mem + 6 * PG, 100, 0, NULL);
    int rdd = perfinst_page_range_add(mem + 6 * PG + 2048, 100, 0, NULL);
    printf("ids: %d %d %d %d\n", ra, rb, rc, rdd);

    /* epoch 1 */
    rd(mem); rd(mem + PG); rd(mem + 2 * PG); wr(mem + 4 * PG + 7);
    printf("epoch %d: A %llu B %llu\n", 1, (unsigned long long)perfinst_page_range_touches(ra),
           (unsigned long long)perfinst_page_range_touches(rb));
    /* epoch 2 */
    uint64_t e = perfinst_page_new_epoch();
    rd(mem); wr(mem + 1); rd(mem + PG); wr(mem + PG + 9); rd(mem + 3 * PG);
    rd(mem + 6 * PG + 2050);
    printf("epoch %llu: A %llu fired %d (at %llu touches, epoch %llu, page %ld)\n",
           (unsigned long long)e, (unsigned long long)perfinst_page_range_touches(ra), fired,
           (unsigned long long)fired_touches, (unsigned long long)fired_epoch,
           (long)((char *)fired_page - mem) / PG);
    /* epoch 3 */
    e = perfinst_page_new_epoch();
    rd(mem); wr(mem + 4 * PG); rd(mem + 5 * PG + 4095); wr(mem + 6 * PG + 10);
    /* epoch 4 */
    e = perfinst_page_new_epoch();
    rd(mem + 2 * PG); rd(mem + 6 * PG + 1000);
    printf("epoch %llu: A %llu B %llu C %llu D %llu fired %d\n", (unsigned long long)e,
           (unsigned long long)perfinst_page_range_touches(ra),
           (unsigned long long)perfinst_page_range_touches(rb),
           (unsigned long long)perfinst_page_range_touches(rc),
           (unsigned long long)perfinst_page_range_touches(rdd), fired);
    printf("pages:");
    for (int p = 0; p < 8; p++)
        printf(" %llu", (unsigned long long)perfinst_page_touches(mem + p * PG));
    printf("\n");
    uint64_t h, m;
    perfinst_page_lookaside(&h, &m);
    printf("look-aside: %llu hits, %llu misses\n", (unsigned long long)h, (unsigned long long)m);
    return 0;
}
