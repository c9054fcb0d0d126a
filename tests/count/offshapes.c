/* tests/count/t-off-shapes.sh: functions of the shapes pass-countfn.cc
 * does not make a function of their own (variadic, an aggregate returned
 * in memory, a nested function; pass-split.cc copies them within the
 * function), one it splits with a label table of its own (computed goto),
 * one with a variable-length array, and one that calls setjmp (mujs's
 * interpreter loop does, for `try`).  Each counts exactly, and nothing
 * with PERFINST_MODE=off.  Prints 43785 for 100 (worked out by hand:
 * 5450 + 34650 + 1300 + 1000 + 785 + 600). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct big { long a[8]; };

__attribute__((noinline)) static long vsum(int n, ...)          /* variadic */
{
    va_list ap;
    long s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long);                           // expect-count: 300
    va_end(ap);
    return s;                                            // expect-count: 100
}

__attribute__((noinline)) static struct big mkbig(long x)       /* an aggregate in memory */
{
    struct big b;
    for (int i = 0; i < 8; i++)
        b.a[i] = x * i;                                  // expect-count: 800
    return b;                                            // expect-count: 100
}

__attribute__((noinline)) static long outer(long x)             /* a nested function */
{
    long k = x & 3;
    __attribute__((noinline)) long inner(long y) { return y * k + 1; } // expect-count: 400
    long s = 0;
    for (long i = 0; i < 4; i++)
        s += inner(i);                                   // expect-count: 400
    return s;                                            // expect-count: 100
}

__attribute__((noinline)) static long threaded(const unsigned char *code) /* computed goto */
{
    static const void *const table[] = {&&op_inc, &&op_dbl, &&op_end};
    long acc = 0;
    goto *table[*code++];
op_inc:
    acc++;                                               // expect-count: 300
    goto *table[*code++];
op_dbl:
    acc *= 2;                                            // expect-count: 200
    goto *table[*code++];
op_end:
    return acc;                                          // expect-count: 100
}

__attribute__((noinline)) static long vla(int n)                /* a variable-length array */
{
    long v[n];
    for (int i = 0; i < n; i++)
        v[i] = i;                                        // expect-count: 395
    long s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];                                       // expect-count: 395
    return s;                                            // expect-count: 100
}

static jmp_buf env;
__attribute__((noinline)) static void bail(long x)
{
    if (x & 1)                                           // expect-count: 400
        longjmp(env, 1);                                 // expect-count: 200
}

__attribute__((noinline)) static long jumpy(long x)             /* calls setjmp */
{
    volatile long r = 0;
    for (int k = 0; k < 4; k++) {
        if (setjmp(env) == 0) {
            bail(x + k);                                 // expect-count: 400
            r += 2;                                      // expect-count: 200
        } else {
            r += 1;                                      // expect-count: 200
        }
    }
    return r;                                            // expect-count: 100
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    static const unsigned char prog[] = {0, 0, 1, 0, 1, 2};
    long s = 0;
    for (int i = 0; i < n; i++) {
        s += vsum(3, (long)i, 2L, 3L);                   // expect-count: 100
        s += mkbig(i).a[7];                              // expect-count: 100
        s += outer(i);                                   // expect-count: 100
        s += threaded(prog);                             // expect-count: 100
        s += vla(i % 7 + 1);                             // expect-count: 100
        s += jumpy(i);                                   // expect-count: 100
    }
    printf("%ld\n", s);                                  // expect-count: 1
    return 0;
}
