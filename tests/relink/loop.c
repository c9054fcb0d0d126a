/* The one loop of docs/layout.md (rebuild + relink from one feedback file):
 * main -> work (hot) -> mix (hottest); work has a block that never runs in
 * training (the "strict" check), which the rebuild moves to work.cold;
 * report never runs (function-tier cold).  The output is a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long seen[16];

__attribute__((noinline)) unsigned mix(unsigned x)
{
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    return x ^ (x >> 15);
}

__attribute__((noinline)) void report(const char *why)
{
    for (int i = 0; i < 16; i++)
        fprintf(stderr, "%s %d %lu\n", why, i, seen[i]);
}

__attribute__((noinline)) unsigned work(unsigned x, int strict)
{
    unsigned s = 0;
    for (int i = 0; i < 8; i++) {
        s += mix(x + (unsigned)i);
        if (strict && (s & 0xff) == 0x5a) { /* never in training */
            fprintf(stderr, "strict: %u at %d of %u\n", s, i, x);
            seen[(s >> 8) & 15] += s;
            if (getenv("LOOP_STRICT_ABORT"))
                abort();
            s ^= (unsigned)strlen(getenv("LOOP_STRICT_TAG") ? getenv("LOOP_STRICT_TAG") : "x");
        }
    }
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        report("usage");
        return 2;
    }
    long n = atol(argv[1]);
    int strict = argc > 2 && !strcmp(argv[2], "strict");
    unsigned long sum = 0;
    for (long i = 0; i < n; i++) {
        unsigned v = work((unsigned)i, strict);
        seen[v & 15]++;
        sum += v;
    }
    printf("%lu %lu\n", sum, seen[3]);
    return 0;
}
