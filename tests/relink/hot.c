/* Hot functions scattered between cold ones (source order), with a call
 * graph: main -> parse (hot) -> lex (hottest) and -> hash; main -> emit
 * (warm).  The cold functions run only for bad input.  The output is a
 * checksum that depends on every hot function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (.bss starts at a line boundary whatever precedes it in the link:
   table's place in it, as linked, is the program's own) */
static char bss_anchor[1] __attribute__((aligned(64), used));
static unsigned long table[64];

/* inlined into a hot and a cold function: its sites have one counter for
 * both copies, which must not make the cold copy look hot */
static inline __attribute__((always_inline)) unsigned fold(unsigned x)
{
    for (int i = 0; i < 3; i++)
        x = (x << 5) ^ (x >> 3) ^ (unsigned)i;
    return x;
}

__attribute__((noinline)) void cold_usage(const char *p)
{
    fprintf(stderr, "usage: %s N [name]\n", p);
    exit(2);
}

__attribute__((noinline)) unsigned lex(unsigned x)
{
    return fold(x * 2654435761u) >> 7;
}

__attribute__((noinline)) void cold_dump(void)
{
    for (int i = 0; i < 64; i++)
        fprintf(stderr, "%d %lu %u\n", i, table[i], fold((unsigned)i));
}

__attribute__((noinline)) unsigned hash(unsigned x)
{
    x ^= x >> 13;
    return x * 0x5bd1e995u;
}

__attribute__((noinline)) void cold_error(int code)
{
    fprintf(stderr, "error %d\n", code);
    cold_dump();
    exit(3);
}

__attribute__((noinline)) unsigned parse(unsigned x)
{
    unsigned s = 0;
    for (int i = 0; i < 4; i++)
        s += lex(x + i);
    return hash(s);
}

__attribute__((noinline)) void cold_banner(void)
{
    puts("perfinst relink fixture");
}

__attribute__((noinline)) void emit(unsigned v)
{
    table[v & 63] += v;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        cold_usage(argv[0]);
    long n = atol(argv[1]);
    if (n < 0)
        cold_error((int)n);
    if (argc > 2 && !strcmp(argv[2], "banner"))
        cold_banner();
    if (argc > 2 && !strcmp(argv[2], "self"))
        printf("%s\n", argv[0]);
    for (long i = 0; i < n; i++) {
        unsigned v = parse((unsigned)i);
        if (i % 8 == 0)
            emit(v);
    }
    unsigned long sum = 0;
    for (int i = 0; i < 64; i++)
        sum = sum * 31 + table[i];
    printf("n %ld sum %lu\n", n, sum);
    return 0;
}
