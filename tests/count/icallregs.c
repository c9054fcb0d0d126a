/* icallregs.c — an indirect call's cache miss with a value live in every
 * caller-saved register (t-icall-regs.sh).  With clean-copies=final the
 * cache is one asm that GCC sees change no register (pass-count.cc
 * add_icall_asm); its miss calls the runtime's stub, which must give back
 * every register as it found it.  keep() holds 9 values in %rax ... %r11
 * and 16 in %xmm0 ... %xmm15 (local register variables: the compiler
 * reads them from those registers) from an asm before the cache to the
 * sum after it, and its one indirect call rotates over five targets, so
 * that the cache misses (the stub runs) at most of its calls.
 *
 * `icallregs wide` does the same with whole vector registers, where the
 * processor has them: keep_ymm() holds four doubles in each of %ymm0 ...
 * %ymm15 (AVX), keep_zmm() eight in each of %zmm16 ... %zmm31 and masks
 * in %k1 ... %k7 (AVX-512F), across their own caches.  Each prints its
 * line, or that the processor lacks the registers.  The first miss of the
 * run (the thread's first chunk: the runtime's miss that calls libc, after
 * the stub saved the whole vector state) is keep_ymm's, the others take
 * the runtime's path that uses general registers only. */
#include <stdio.h>
#include <string.h>

typedef long (*op_fn)(long);
__attribute__((noinline)) long f0(long x) { return x + 1; }
__attribute__((noinline)) long f1(long x) { return x + 2; }
__attribute__((noinline)) long f2(long x) { return x + 3; }
__attribute__((noinline)) long f3(long x) { return x + 4; }
__attribute__((noinline)) long f4(long x) { return x + 5; }
static op_fn volatile ops[5] = {f0, f1, f2, f3, f4};

/* the values keep() puts in the registers, and their sum as keep()
   computes it after the cache */
static long want(long x)
{
    long s = 0;
    for (int i = 0; i < 9; i++)
        s += (x + i) * (2 * i + 1);
    double d = 0;
    for (int i = 0; i < 16; i++)
        d += (double)(x + 100 + i) * (i + 1);
    return s + (long)d;
}

__attribute__((noinline)) long keep(op_fn op, long x)
{
    register long a __asm__("rax") = x, c __asm__("rcx") = x + 1, d __asm__("rdx") = x + 2,
                  si __asm__("rsi") = x + 3, di __asm__("rdi") = x + 4, r8 __asm__("r8") = x + 5,
                  r9 __asm__("r9") = x + 6, r10 __asm__("r10") = x + 7, r11 __asm__("r11") = x + 8;
    register double v0 __asm__("xmm0") = x + 100, v1 __asm__("xmm1") = x + 101, v2 __asm__("xmm2") = x + 102,
                    v3 __asm__("xmm3") = x + 103, v4 __asm__("xmm4") = x + 104, v5 __asm__("xmm5") = x + 105,
                    v6 __asm__("xmm6") = x + 106, v7 __asm__("xmm7") = x + 107, v8 __asm__("xmm8") = x + 108,
                    v9 __asm__("xmm9") = x + 109, v10 __asm__("xmm10") = x + 110, v11 __asm__("xmm11") = x + 111,
                    v12 __asm__("xmm12") = x + 112, v13 __asm__("xmm13") = x + 113, v14 __asm__("xmm14") = x + 114,
                    v15 __asm__("xmm15") = x + 115;
    /* every value in its register here; the cache comes after these asms
       (at most 30 operands an asm) */
    __asm__ volatile("" : "+r"(a), "+r"(c), "+r"(d), "+r"(si), "+r"(di), "+r"(r8), "+r"(r9), "+r"(r10), "+r"(r11));
    __asm__ volatile("" : "+x"(v0), "+x"(v1), "+x"(v2), "+x"(v3), "+x"(v4), "+x"(v5), "+x"(v6), "+x"(v7));
    __asm__ volatile("" : "+x"(v8), "+x"(v9), "+x"(v10), "+x"(v11), "+x"(v12), "+x"(v13), "+x"(v14), "+x"(v15));
    long s = a + c * 3 + d * 5 + si * 7 + di * 9 + r8 * 11 + r9 * 13 + r10 * 15 + r11 * 17;
    double e = v0 + v1 * 2 + v2 * 3 + v3 * 4 + v4 * 5 + v5 * 6 + v6 * 7 + v7 * 8 + v8 * 9 + v9 * 10 + v10 * 11 +
               v11 * 12 + v12 * 13 + v13 * 14 + v14 * 15 + v15 * 16;
    return op(s + (long)e);
}

typedef double v4d __attribute__((vector_size(32)));
typedef double v8d __attribute__((vector_size(64)));
#define Y(i) ((v4d){x + 200 + 4 * i, x + 201 + 4 * i, x + 202 + 4 * i, x + 203 + 4 * i})
#define Z(i) ((v8d){x + 300 + 8 * i, x + 301 + 8 * i, x + 302 + 8 * i, x + 303 + 8 * i, \
                    x + 304 + 8 * i, x + 305 + 8 * i, x + 306 + 8 * i, x + 307 + 8 * i})

/* the sum of lanes L of vectors 0..N-1 from BASE as keep_ymm() and
   keep_zmm() compute it: vector i weighted i + 1, lane j 2j + 1 */
static long want_wide(long x, long base, int n, int l)
{
    double d = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < l; j++)
            d += (double)(x + base + l * i + j) * (i + 1) * (2 * j + 1);
    return (long)d;
}

__attribute__((noinline, target("avx"))) long keep_ymm(op_fn op, long x)
{
    register v4d y0 __asm__("xmm0") = Y(0), y1 __asm__("xmm1") = Y(1), y2 __asm__("xmm2") = Y(2),
                 y3 __asm__("xmm3") = Y(3), y4 __asm__("xmm4") = Y(4), y5 __asm__("xmm5") = Y(5),
                 y6 __asm__("xmm6") = Y(6), y7 __asm__("xmm7") = Y(7), y8 __asm__("xmm8") = Y(8),
                 y9 __asm__("xmm9") = Y(9), y10 __asm__("xmm10") = Y(10), y11 __asm__("xmm11") = Y(11),
                 y12 __asm__("xmm12") = Y(12), y13 __asm__("xmm13") = Y(13), y14 __asm__("xmm14") = Y(14),
                 y15 __asm__("xmm15") = Y(15);
    __asm__ volatile("" : "+x"(y0), "+x"(y1), "+x"(y2), "+x"(y3), "+x"(y4), "+x"(y5), "+x"(y6), "+x"(y7));
    __asm__ volatile("" : "+x"(y8), "+x"(y9), "+x"(y10), "+x"(y11), "+x"(y12), "+x"(y13), "+x"(y14), "+x"(y15));
    v4d s = y0 + y1 * 2 + y2 * 3 + y3 * 4 + y4 * 5 + y5 * 6 + y6 * 7 + y7 * 8 + y8 * 9 + y9 * 10 + y10 * 11 +
            y11 * 12 + y12 * 13 + y13 * 14 + y14 * 15 + y15 * 16;
    return op((long)(s[0] + s[1] * 3 + s[2] * 5 + s[3] * 7));
}

__attribute__((noinline, target("avx512f"))) long keep_zmm(op_fn op, long x)
{
    register v8d z16 __asm__("xmm16") = Z(0), z17 __asm__("xmm17") = Z(1), z18 __asm__("xmm18") = Z(2),
                 z19 __asm__("xmm19") = Z(3), z20 __asm__("xmm20") = Z(4), z21 __asm__("xmm21") = Z(5),
                 z22 __asm__("xmm22") = Z(6), z23 __asm__("xmm23") = Z(7), z24 __asm__("xmm24") = Z(8),
                 z25 __asm__("xmm25") = Z(9), z26 __asm__("xmm26") = Z(10), z27 __asm__("xmm27") = Z(11),
                 z28 __asm__("xmm28") = Z(12), z29 __asm__("xmm29") = Z(13), z30 __asm__("xmm30") = Z(14),
                 z31 __asm__("xmm31") = Z(15);
    register unsigned short k1 __asm__("k1") = x & 0xff, k2 __asm__("k2") = x + 1 & 0xff,
                            k3 __asm__("k3") = x + 2 & 0xff, k4 __asm__("k4") = x + 3 & 0xff,
                            k5 __asm__("k5") = x + 4 & 0xff, k6 __asm__("k6") = x + 5 & 0xff,
                            k7 __asm__("k7") = x + 6 & 0xff;
    __asm__ volatile("" : "+v"(z16), "+v"(z17), "+v"(z18), "+v"(z19), "+v"(z20), "+v"(z21), "+v"(z22), "+v"(z23));
    __asm__ volatile("" : "+v"(z24), "+v"(z25), "+v"(z26), "+v"(z27), "+v"(z28), "+v"(z29), "+v"(z30), "+v"(z31));
    __asm__ volatile("" : "+k"(k1), "+k"(k2), "+k"(k3), "+k"(k4), "+k"(k5), "+k"(k6), "+k"(k7));
    v8d s = z16 + z17 * 2 + z18 * 3 + z19 * 4 + z20 * 5 + z21 * 6 + z22 * 7 + z23 * 8 + z24 * 9 + z25 * 10 +
            z26 * 11 + z27 * 12 + z28 * 13 + z29 * 14 + z30 * 15 + z31 * 16;
    long k = k1 + k2 * 3 + k3 * 5 + k4 * 7 + k5 * 9 + k6 * 11 + k7 * 13;
    return op((long)(s[0] + s[1] * 3 + s[2] * 5 + s[3] * 7 + s[4] * 9 + s[5] * 11 + s[6] * 13 + s[7] * 15) + k);
}

static long want_k(long x)
{
    long k = 0;
    for (int i = 0; i < 7; i++)
        k += (x + i & 0xff) * (2 * i + 1);
    return k;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "wide") == 0) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx")) {
            long bad = 0;
            for (long i = 0; i < 1000; i++)
                bad += keep_ymm(ops[i % 5], i) != want_wide(i, 200, 16, 4) + i % 5 + 1;
            printf("ymm calls 1000 wrong %ld\n", bad);
        } else
            printf("ymm: no AVX\n");
        if (__builtin_cpu_supports("avx512f")) {
            long bad = 0;
            for (long i = 0; i < 1000; i++)
                bad += keep_zmm(ops[i % 5], i) != want_wide(i, 300, 16, 8) + want_k(i) + i % 5 + 1;
            printf("zmm calls 1000 wrong %ld\n", bad);
        } else
            printf("zmm: no AVX-512F\n");
        return 0;
    }
    long bad = 0, n = 0;
    for (long i = 0; i < 1000; i++) {
        long r = keep(ops[i % 5], i);
        bad += r != want(i) + i % 5 + 1;
        n++;
    }
    printf("calls %ld wrong %ld\n", n, bad);
    return bad != 0;
}
