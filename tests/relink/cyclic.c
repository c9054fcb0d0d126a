/* A cyclic hot working set slightly larger than L1i: 80 functions of about
 * 500 bytes (460 executed nops), 40 KiB in all, called in turn ROUNDS
 * times.  Under LRU every line misses every round; with a reserved region
 * (docs/layout.md "Chase-tail reserved regions") 56 of them stay.  Every
 * function but the first ten is static: the reserved region's table must name
 * those too (a script cannot name a local symbol). */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define F(s, n) \
    s __attribute__((noinline)) void f##n(void) \
    { \
        __asm__ volatile(".rept 460\n\tnop\n\t.endr"); \
        sink += n; \
    }
#define F10(s, d) F(s, d##0) F(s, d##1) F(s, d##2) F(s, d##3) F(s, d##4) \
                  F(s, d##5) F(s, d##6) F(s, d##7) F(s, d##8) F(s, d##9)
F10(, ) F10(static, 1) F10(static, 2) F10(static, 3) F10(static, 4) F10(static, 5) F10(static, 6) F10(static, 7)

/* never called: it only sits between them */
__attribute__((noinline)) void cold_report(int code)
{
    fprintf(stderr, "unexpected %d\n", code);
    exit(3);
}

#define C(n) f##n();
#define C10(d) C(d##0) C(d##1) C(d##2) C(d##3) C(d##4) C(d##5) C(d##6) C(d##7) C(d##8) C(d##9)

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    if (rounds < 0)
        cold_report(rounds);
    for (int r = 0; r < rounds; r++) {
        C10() C10(1) C10(2) C10(3) C10(4) C10(5) C10(6) C10(7)
    }
    printf("rounds %d sink %lu\n", rounds, sink);
    return 0;
}
