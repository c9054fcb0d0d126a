/* Hot global data that aliases in L1d and does not fit (docs/layout.md
 * "Data colouring"): 80 hot arrays of 512 bytes (40 KiB in all), each
 * followed in the source by a cold array of 3584 bytes, so that the plain
 * link puts every hot array at a 4 KiB stride — the 40 of each output
 * section in the same 8 of the 64 sets of a 32 KiB 8-way L1d — and main sums all of them in turn
 * ROUNDS times: a cyclic working set.  Under LRU every hot line misses
 * every round, in the plain link (80 lines per set) and with the hot
 * arrays merely contiguous (40 KiB > 32 KiB) alike; coloured (56 arrays in
 * sets 0-55 of 8 pages, 24 in the reserved sets 56-63) 56 of them stay. */
#include <stdio.h>
#include <stdlib.h>

/* h0..h39 in .bss, h40..h79 in .data: the colouring shares the sets
 * between output sections.  The hot arrays are line-aligned, so that each
 * is 8 lines wherever the link puts the output section: GCC aligns a
 * 512-byte array to 32 bytes only, and the writable sections before .bss
 * (perfinst's `__perfinst_jumps` with entry=jump, for one) decide whether
 * a 32-aligned array spans 8 lines or 9. */
#define HOT __attribute__((aligned(64)))
#define A(n) HOT double h##n[64]; double c##n[448];
#define A10(d) A(d##0) A(d##1) A(d##2) A(d##3) A(d##4) A(d##5) A(d##6) A(d##7) A(d##8) A(d##9)
#define D(n) HOT double h##n[64] = { 1 }; double c##n[448] = { 1 };
#define D10(d) D(d##0) D(d##1) D(d##2) D(d##3) D(d##4) D(d##5) D(d##6) D(d##7) D(d##8) D(d##9)
#ifdef FEW /* 10 hot arrays (5 KiB): they fit, but the plain link crowds them into 8 sets */
A10()
#define ALL(M) M##10()
#else
A10() A10(1) A10(2) A10(3) D10(4) D10(5) D10(6) D10(7)
#define ALL(M) M##10() M##10(1) M##10(2) M##10(3) M##10(4) M##10(5) M##10(6) M##10(7)
#endif

__attribute__((noipa)) static double sum(const double *a)
{
    double s = 0;
    for (int i = 0; i < 64; i++)
        s += a[i];
    return s;
}

__attribute__((noipa)) static void fill(double *a, int n)
{
    for (int i = 0; i < 64; i++)
        a[i] = n + i * 0.5;
}

/* never called in training: touches the cold arrays */
__attribute__((noinline)) static void cold_clear(void)
{
#define Z(n) c##n[0] = 0;
#define Z10(d) Z(d##0) Z(d##1) Z(d##2) Z(d##3) Z(d##4) Z(d##5) Z(d##6) Z(d##7) Z(d##8) Z(d##9)
    ALL(Z)
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    if (rounds < 0)
        cold_clear();
#define F(n) fill(h##n, n);
#define F10(d) F(d##0) F(d##1) F(d##2) F(d##3) F(d##4) F(d##5) F(d##6) F(d##7) F(d##8) F(d##9)
    ALL(F)
    double s = 0;
    for (int r = 0; r < rounds; r++) {
#define S(n) s += sum(h##n);
#define S10(d) S(d##0) S(d##1) S(d##2) S(d##3) S(d##4) S(d##5) S(d##6) S(d##7) S(d##8) S(d##9)
        ALL(S)
    }
    printf("rounds %d sum %.1f\n", rounds, s);
    return 0;
}
