/* settool: the set-pressure order (optimizer/model/order-sets.c) on functions
 * read from stdin, for t-sets.sh.  Lines: "cache SETS WAYS LINE",
 * "fn NAME SIZE ALIGN", "blk NAME LO HI COUNT" (an executed range of NAME),
 * "arc FROM TO WEIGHT", "affinity W" (the weight of the Ext-TSP score;
 * ORD_SETS_AFFINITY without it).  The functions in input order are the
 * starting order.  Prints "before: PRESSURE", "after: PRESSURE", "order: names",
 * and "at: NAME ADDRESS SET" per function of the spread order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order-sets.h"

static size_t find(char names[][32], size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    fprintf(stderr, "unknown function %s\n", s);
    exit(2);
}

int main(void)
{
    static char names[64][32];
    static struct ord_block blk[64][16];
    struct ord_fn f[64];
    struct ord_node nodes[64];
    struct ord_arc arcs[256];
    struct ord_cache c = { 64, 8, 64 };
    double affinity = ORD_SETS_AFFINITY;
    size_t nn = 0, na = 0;
    char line[256], kind[16], w1[32], w2[32];
    memset(f, 0, sizeof f);
    while (fgets(line, sizeof line, stdin)) {
        unsigned long long a, b, d;
        unsigned s, w, l;
        if (sscanf(line, "%15s", kind) != 1 || kind[0] == '#')
            continue;
        if (!strcmp(kind, "cache") && sscanf(line, "%*s %u %u %u", &s, &w, &l) == 3) {
            c = (struct ord_cache){ s, w, l };
        } else if (!strcmp(kind, "affinity") && sscanf(line, "%*s %lf", &affinity) == 1) {
            ;
        } else if (!strcmp(kind, "fn") && nn < 64 &&
                   sscanf(line, "%*s %31s %llu %llu", names[nn], &a, &b) == 3) {
            f[nn] = (struct ord_fn){ a, b, blk[nn], 0 };
            nodes[nn++] = (struct ord_node){ a, 0 };
        } else if (!strcmp(kind, "blk") &&
                   sscanf(line, "%*s %31s %llu %llu %llu", w1, &a, &b, &d) == 4) {
            size_t i = find(names, nn, w1);
            if (f[i].nb < 16) {
                blk[i][f[i].nb++] = (struct ord_block){ a, b, d };
                nodes[i].samples += d;
            }
        } else if (!strcmp(kind, "arc") && na < 256 &&
                   sscanf(line, "%*s %31s %31s %llu", w1, w2, &a) == 3) {
            arcs[na++] = (struct ord_arc){ (uint32_t)find(names, nn, w1),
                                           (uint32_t)find(names, nn, w2), a };
        } else {
            fprintf(stderr, "bad line: %s", line);
            return 2;
        }
    }
    uint32_t order[64];
    for (size_t i = 0; i < nn; i++)
        order[i] = (uint32_t)i;
    printf("before: %llu\n", (unsigned long long)ord_set_pressure_seq(f, order, nn, &c));
    if (ord_spread_seg(f, nodes, nn, arcs, na, &c, order, nn, nn, 4, affinity) < 0)
        return 1;
    printf("after: %llu\norder:", (unsigned long long)ord_set_pressure_seq(f, order, nn, &c));
    for (size_t i = 0; i < nn; i++)
        printf(" %s", names[order[i]]);
    printf("\n");
    unsigned long long p = 0;
    for (size_t i = 0; i < nn; i++) {
        const struct ord_fn *x = &f[order[i]];
        p = x->align > 1 ? (p + x->align - 1) / x->align * x->align : p;
        printf("at: %s %llu %llu\n", names[order[i]], p, p / c.line % c.sets);
        p += x->size;
    }
    return 0;
}
