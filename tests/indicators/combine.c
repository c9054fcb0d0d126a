/* Counter combinations (seed 004 M24).  Built with combine=marked:
 *   A, B    marked count: `2*count(A) - count(B) > 10` fires at a predicted
 *           entry of A (the handler records how many calls of A and B the
 *           program had made), then restarts from zero;
 *   slow    a pointer chase over 32 MiB (a cache miss per step): many
 *           cycles per instruction;
 *   fast    independent additions: well under one cycle per instruction.
 * `cycles(F) - 3*insns(F) > 0` (the seeds' CPI > 3) must fire for slow and
 * never for fast.  Argument "api": the A/B combination is installed with
 * perfinst_combine_add instead of PERFINST_COMBINE. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int na, nb;
static char fired[64][48];
static int nfired;

#include "pcname.h"

static void on_combine(const struct perfinst_event *ev)
{
    if (nfired < 64)
        snprintf(fired[nfired++], sizeof fired[0], "%s A=%d B=%d value=%lld", sym(ev->pc), na, nb,
                 (long long)ev->value);
}

PERFINST("count") __attribute__((noinline)) int A(int x) { return x + 1; }
PERFINST("count") __attribute__((noinline)) int B(int x) { return x + 2; }

PERFINST("count") __attribute__((noinline)) size_t slow(const size_t *next, long steps)
{
    size_t i = 0;
    for (long k = 0; k < steps; k++)
        i = next[i];
    return i;
}

PERFINST("count") __attribute__((noinline)) long fast(const int *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(int argc, char **argv)
{
    perfinst_set_handler(PERFINST_EV_COMBINE, on_combine);
    if (argc > 1 && !strcmp(argv[1], "api")) {
        char err[128];
        int id = perfinst_combine_add("ab: 2*count(A) - count(B) > 10", NULL, err, sizeof err);
        if (id < 0) {
            printf("combine_add: %s\n", err);
            return 1;
        }
        if (perfinst_combine_add("2*count(A) - > 10", NULL, err, sizeof err) != -1)
            return 1;
        printf("bad spec: %s\n", err);
    }
    long s = 0;
    for (int i = 1; i <= 40; i++) {
        na++;
        s += A(i);
        if (i % 3 == 0) {
            nb++;
            s += B(i);
        }
    }
    /* a random cyclic permutation over 32 MiB (Sattolo) */
    size_t n = 4u << 20;
    size_t *next = malloc(n * sizeof *next);
    int *v = malloc(4096 * sizeof *v);
    if (!next || !v)
        return 1;
    for (size_t i = 0; i < n; i++)
        next[i] = i;
    srand(7);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = ((size_t)rand() * 65536u + (size_t)rand()) % i;
        size_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    for (int i = 0; i < 4096; i++)
        v[i] = i;
    for (int r = 0; r < 2000; r++)
        s += fast(v, 4096);
    s += (long)slow(next, 200000);
    printf("sum %ld\n", s);
    for (int i = 0; i < nfired; i++)
        printf("fired %s\n", fired[i]);
    return 0;
}
