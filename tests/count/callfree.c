/* callfree.c — the counters of loops that make no call
 * (callfree-counters=delta, copies.cc pi_promote_loop_counters): a hash
 * chain walk whose counters run on some iterations only (GCC's store
 * motion would keep a flag per counter), left by a return from inside and
 * at the chain's end, called from a loop that calls; a scan inside an
 * outer loop that calls; a call-free loop nest (left to GCC: its counters
 * leave the whole nest once); a loop whose one counter runs every
 * iteration; a loop that calls memcmp (writes no memory, but a register
 * would live across the call: left to GCC).  t-callfree.sh compares every site's count with
 * callfree-counters=gcc's, and a few with what the program prints.  A
 * @NAME comment marks a line the test looks up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node { long key; int kind; int next; };   /* next: the offset to the next node, 0 at the end */

static struct node pool[4096];
static long probes, found;

/* the chain from pool[h]: its node holding KEY of kind 3, else NULL */
__attribute__((noinline)) struct node *lookup(int h, long key)
{
    struct node *n = &pool[h];
    for (;;) {
        if (n->kind == 3 && n->key == key)
            return n;                           /* @lookup-hit */
        if (n->next == 0)
            break;
        n += n->next;                           /* @lookup-step */
    }
    return NULL;                                /* @lookup-end */
}

__attribute__((noinline)) void tally(struct node *n) { probes++; found += n != NULL; }

/* an outer loop that calls, an inner scan that does not */
__attribute__((noinline)) long scan_rows(const int *a, int rows, int cols)
{
    long s = 0;
    for (int r = 0; r < rows; r++) {
        int c = 0;
        while (c < cols && a[r * cols + c] >= 0) {
            if (a[r * cols + c] & 1)
                s += a[r * cols + c];           /* @scan-odd */
            c++;
        }
        tally(c == cols ? &pool[0] : NULL);
    }
    return s;
}

/* a call-free nest: GCC's store motion takes its counters out of both loops */
__attribute__((noinline)) long nest(const int *a, int rows, int cols)
{
    long s = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (a[r * cols + c] > 2)
                s += a[r * cols + c];           /* @nest-big */
    return s;
}

/* one counter that runs every iteration (no flag for GCC either) */
__attribute__((noinline)) long sum(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (long)i;
    return s;
}

/* a loop that calls memcmp: left to GCC */
__attribute__((noinline)) int find_name(const char *const *names, int n, const char *key, size_t len)
{
    for (int i = 0; i < n; i++)
        if (names[i][0] == key[0] && memcmp(names[i], key, len) == 0)
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 50;
    unsigned seed = 7;
    for (int i = 0; i < 4096; i++) {
        seed = seed * 1103515245 + 12345;
        pool[i].key = (seed >> 8) % 64;
        pool[i].kind = (seed >> 20) % 4;
        pool[i].next = i + 5 < 4096 && (seed >> 4) % 5 ? 5 : 0;
    }
    static int grid[64 * 32];
    for (int i = 0; i < 64 * 32; i++) {
        seed = seed * 1103515245 + 12345;
        grid[i] = (int)((seed >> 9) % 9) - (i % 37 == 0);
    }
    long hits = 0, steps = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int r = 0; r < rounds; r++) {
        for (int h = 0; h < 4096; h += 3) {
            struct node *n = lookup(h, (h + r) % 64);
            tally(n);
            if (n) {
                hits++;
                steps += n - &pool[h];
            }
        }
        s1 += scan_rows(grid, 64, 32);
        s2 += nest(grid, 64, 32);
        s3 += sum(grid, 64 * 32);
    }
    static const char *const names[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"};
    int at = find_name(names, 6, argc > 2 ? argv[2] : "delta", 5) + find_name(names, 6, "zzz", 3);
    printf("at %d\n", at);
    printf("hits %ld probes %ld found %ld steps %ld scan %ld nest %ld sum %ld\n", hits, probes, found, steps, s1, s2, s3);
    return 0;
}
