/* noreturn.c — a call that may not return, followed in its block only by
 * statements without a line (the clobbers of arrays going out of scope,
 * a `return` GCC gave no location): gcov splits the block after the call
 * and the piece after it, without lines, runs what the call returned;
 * the call's line keeps the count of the piece it is on, every time the
 * block was entered (tests/count/t-noreturn-lines.sh).  bail longjmps for
 * a third of its calls (in inner, 5 of 15), stop exits (main's last
 * block: the piece after the call is GCC's last block, which gcov lists
 * under no line).  And setjmp's block, entered again after the call by
 * each longjmp: gcov -O2 counts those entries where its block is not the
 * function's first (retry), not where it is (guarded: the entry's edge
 * reaches it).  `expect-count-all: N` is each line's exact count. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf back;
volatile int sink;

__attribute__((noinline)) void fill(int *p, int x) { p[0] = x; p[1] = x + 1; p[2] = x * 2; p[3] = sink; } // expect-count-all: 71
__attribute__((noinline)) int bail(int x)          // expect-count-all: 70
{
    if (x % 3 == 0)                                // expect-count-all: 70
        longjmp(back, 1);                          // expect-count-all: 25
    return x;                                      // expect-count-all: 45
}
__attribute__((noinline)) int stop(int x)          // expect-count-all: 1
{
    if (x > 1000) {                                // expect-count-all: 1
        printf("stop %d\n", x);                    // expect-count-all: 1
        exit(0);                                   // expect-count-all: 1
    }
    return x;                                      // expect-count-all: 0
}

/* the call's block is not the function's last */
__attribute__((noinline)) int inner(int x)         // expect-count-all: 30
{
    int a[4];
    fill(a, x);                                    // expect-count-all: 30
    if (x & 1) {                                   // expect-count-all: 30
        int b[4];
        fill(b, x);                                // expect-count-all: 15
        bail(b[0]);                                // expect-count-all: 15
    }
    return a[1];                                   // expect-count-all: 25
}

__attribute__((noinline)) int outer(int x)         // expect-count-all: 25
{
    int a[4];
    fill(a, x);                                    // expect-count-all: 25
    return bail(a[2] + 1);                         // expect-count-all: 25
}

__attribute__((noinline)) long guarded(int i)      // expect-count-all: 30
{
    if (setjmp(back) == 0)                         // expect-count-all: 30
        return inner(i) + outer(i);                // expect-count-all: 30
    return 100;                                    // expect-count-all: 15
}

/* setjmp's block entered from above (not the function's first): gcov -O2
   counts its entries after the longjmps too (40, not 30) */
__attribute__((noinline)) long retry(int n)        // expect-count-all: 1
{
    long s = 0;                                    // expect-count-all: 1
    for (int i = 0; i < n; i++) {                  // expect-count-all: 31
        if (setjmp(back) == 0)                     // expect-count-all: 40
            s += bail(i);                          // expect-count-all: 30
        else
            s += 100;                              // expect-count-all: 10
    }
    return s;                                      // expect-count-all: 1
}

/* the call's block is the function's last */
int main(int argc, char **argv)                    // expect-count-all: 1
{
    (void)argv;
    int a[4];
    long s = 0;                                    // expect-count-all: 1
    for (int i = 0; i < 30; i++)                   // expect-count-all: 31
        s += guarded(i);                           // expect-count-all: 30
    s += retry(30);                                // expect-count-all: 1
    fill(a, (int)s);                               // expect-count-all: 1
    printf("sum %ld\n", s);                        // expect-count-all: 1
    fflush(stdout);                                // expect-count-all: 1
    return stop(a[1] + argc);                      // expect-count-all: 1
}
