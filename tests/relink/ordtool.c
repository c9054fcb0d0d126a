/* ordtool: the order algorithms (optimizer/model/order.c) on a graph read from
 * stdin, for t-order.sh.  Lines: "node NAME SIZE SAMPLES" and
 * "arc FROM TO WEIGHT" (names).  Prints one line per algorithm:
 * "ALG: name name ... score S". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"

int main(void)
{
    char names[64][32], w1[32], w2[32];
    struct ord_node nodes[64];
    struct ord_arc arcs[256];
    size_t nn = 0, na = 0;
    char line[256], kind[16];
    while (fgets(line, sizeof line, stdin)) {
        unsigned long long a, b;
        if (sscanf(line, "%15s", kind) != 1 || kind[0] == '#')
            continue;
        if (!strcmp(kind, "node") && nn < 64 &&
            sscanf(line, "%*s %31s %llu %llu", names[nn], &a, &b) == 3) {
            nodes[nn++] = (struct ord_node){ a, b };
        } else if (!strcmp(kind, "arc") && na < 256 &&
                   sscanf(line, "%*s %31s %31s %llu", w1, w2, &a) == 3) {
            size_t f = nn, t = nn;
            for (size_t i = 0; i < nn; i++) {
                if (!strcmp(names[i], w1))
                    f = i;
                if (!strcmp(names[i], w2))
                    t = i;
            }
            if (f == nn || t == nn) {
                fprintf(stderr, "unknown node in: %s", line);
                return 2;
            }
            arcs[na++] = (struct ord_arc){ (uint32_t)f, (uint32_t)t, a };
        } else {
            fprintf(stderr, "bad line: %s", line);
            return 2;
        }
    }
    for (int alg = ORD_NONE; alg <= ORD_EXTTSP; alg++) {
        uint32_t out[64];
        size_t n = ord_compute(alg, nodes, nn, arcs, na, out);
        printf("%s:", ord_name(alg));
        for (size_t i = 0; i < n; i++)
            printf(" %s", names[out[i]]);
        printf(" score %.1f\n", ord_exttsp_score(nodes, nn, arcs, na, out, n));
    }
    return 0;
}
