/* perfinst_range_add: ranges named at run time by address.
 *   work()  entered exactly 7 times from main, a loop of 5 trips inside;
 *   other() called 3 times before its range is added and 4 times after
 *           (ranges are resolved from the whole run: it has 7 visits);
 *   bad input: NULL, empty and too long names, lo >= hi, addresses in no
 *           module of ours (heap, libc, a range leaving the program).
 *   loop    (argv[3], argv[4]: offset in work and length, hex) the code of
 *           one block inside work, entered from outside only by an edge;
 *   rec     (argv[5]: its size, hex) called twice from main, recursing 3
 *           deep: 8 entries, of which 6 are calls from inside the range.
 * argv[1], argv[2]: the sizes of work and other in hex (nm -S). */
#include <errno.h>
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;

PERFINST("count")
__attribute__((noinline)) long work(int n)
{
    long s = 0;
    int i = 0;
    do
        s += (long)i * n + sink;
    while (++i < 5);
    return s;
}

PERFINST("count")
__attribute__((noinline)) long rec(int n)
{
    sink++;
    if (n <= 0)
        return 1;
    return rec(n - 1) + n;
}

PERFINST("count")
__attribute__((noinline)) long other(int n)
{
    if (n & 1)
        sink += n;
    return n * 2;
}

static int bad(const char *what, const char *name, const void *lo, const void *hi, int want)
{
    errno = 0;
    int rc = perfinst_range_add(name, lo, hi);
    int ok = rc == -1 && errno == want;
    printf("bad %s: %s (rc %d, %s)\n", what, ok ? "refused" : "NOT REFUSED AS EXPECTED", rc,
           strerror(errno));
    return !ok;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    unsigned long wsz = strtoul(argv[1], NULL, 16), osz = strtoul(argv[2], NULL, 16);
    char *w = (char *)(void *)&work, *o = (char *)(void *)&other;
    long s = 0;
    for (int i = 0; i < 3; i++)
        s += other(i);
    if (perfinst_range_add("work", w, w + wsz) || perfinst_range_add("other-late", o, o + osz)) {
        perror("perfinst_range_add");
        return 1;
    }
    if (argc > 4 && perfinst_range_add("loop", w + strtoul(argv[3], NULL, 16),
                                       w + strtoul(argv[3], NULL, 16) + strtoul(argv[4], NULL, 16))) {
        perror("perfinst_range_add loop");
        return 1;
    }
    if (argc > 5) {
        char *r = (char *)(void *)&rec;
        if (perfinst_range_add("rec", r, r + strtoul(argv[5], NULL, 16))) {
            perror("perfinst_range_add rec");
            return 1;
        }
        s += rec(3) + rec(3) - 14;
    }
    for (int v = 0; v < 7; v++)
        s += work(v);
    for (int i = 3; i < 7; i++)
        s += other(i);
    printf("%ld\n", s);

    char *heap = malloc(1 << 20);
    char longname[PERFINST_RANGE_NAME_MAX + 1];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    int nbad = bad("NULL name", NULL, w, w + wsz, EINVAL) +
               bad("empty name", "", w, w + wsz, EINVAL) +
               bad("long name", longname, w, w + wsz, EINVAL) +
               bad("lo == hi", "x", w, w, EINVAL) +
               bad("lo > hi", "x", w + 1, w, EINVAL) +
               bad("heap", "x", heap, heap + 64, ENXIO) +
               bad("libc", "x", (void *)&abort, (char *)(void *)&abort + 16, ENXIO) +
               bad("leaves the program", "x", w, w + (1ul << 40), ENXIO);
    free(heap);
    return nbad ? 3 : 0;
}
