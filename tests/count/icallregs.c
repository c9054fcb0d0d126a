/* icallregs.c — an indirect call's cache miss with a value live in every
 * caller-saved register (t-icall-regs.sh).  With clean-copies=final the
 * cache is one asm that GCC sees change no register (pass-count.cc
 * add_icall_asm); its miss calls the runtime's stub, which must give back
 * every register as it found it.  keep() holds 9 values in %rax ... %r11
 * and 16 in %xmm0 ... %xmm15 (local register variables: the compiler
 * reads them from those registers) from an asm before the cache to the
 * sum after it, and its one indirect call rotates over five targets, so
 * that the cache misses (the stub runs) at most of its calls. */
#include <stdio.h>

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

int main(void)
{
    long bad = 0, n = 0;
    for (long i = 0; i < 1000; i++) {
        long r = keep(ops[i % 5], i);
        bad += r != want(i) + i % 5 + 1;
        n++;
    }
    printf("calls %ld wrong %ld\n", n, bad);
    return bad != 0;
}
