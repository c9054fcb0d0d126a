/* inline-counts fixture (tests/layout/t-inlcounts.sh): work calls two
 * static helpers once each, which GCC's IPA inliner inlines as functions
 * called once (the test keeps the early inliner off them).  sortit's
 * nested loops run about a million times a call; build's last loop
 * (marked 0x515) runs 2,047 times a call.  Without inline-counts=keep GCC
 * estimates work's counts again after inlining, capping each loop at 100
 * iterations, and build's loop comes out below a run: the split sends it
 * to work.cold.  Argument N: N rounds (default 50). */
#include <stdio.h>
#include <stdlib.h>
#define N 2048
typedef struct {
    unsigned count;
    unsigned short parent;
    unsigned char nb;
} node;

static void sortit(node *h, const unsigned *c, int n)
{
    for (int i = 0; i < n; i++)
        h[i].count = c[i];
    for (int i = 1; i < n; i++) { /* insertion sort, largest first */
        node k = h[i];
        int j = i - 1;
        while (j >= 0 && h[j].count < k.count) {
            h[j + 1] = h[j];
            j--;
        }
        h[j + 1] = k;
    }
}

static int build(node *h, int n)
{
    int r = n - 1;
    while (h[r].count == 0)
        r--;
    for (int i = 0; i <= r; i++)
        h[i].nb = (unsigned char)(h[i].count & 7);
    for (int i = r; i > 0; i--)
        h[i - 1].parent = (unsigned short)(h[i].nb + h[i - 1].nb + 0x515);
    return r + h[0].parent;
}

__attribute__((noinline)) int work(node *h, const unsigned *c, int n)
{
    if (n > 4096)
        return -1;
    sortit(h, c, n);
    return build(h, n);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 50;
    static node h[N];
    static unsigned c[N];
    long s = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < N; i++)
            c[i] = (unsigned)((i * 2654435761u + (unsigned)r) >> 7) % 1000 + 1;
        s += work(h, c, N);
    }
    printf("%ld\n", s);
    return 0;
}
