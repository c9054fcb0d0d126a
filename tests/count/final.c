/* clean-copies=final (gcc-plugin/finalcopy.cc): functions whose clean copy
 * is made of the counting copy's assembly — a switch through a jump table
 * (a section switch in the body), recursion (the copy's call of itself
 * becomes f's), a path GCC moves out of line and never runs, a loop that
 * calls, a static local — and two that keep late's clean copy: a loop
 * without calls (its counters left to GCC's store motion) and an indirect
 * call (its inline cache).  Built with all=count; `expect-count-all: N` is
 * each line's exact count (tests/count/check-counts.py). */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) int pick(int x, const int *p)
{
    switch (x) {                           // expect-count-all: 90
    case 0: return p[1] + 3;               // expect-count-all: 10
    case 1: return p[2] * 7;               // expect-count-all: 10
    case 2: sink = 4; return p[0];         // expect-count-all: 10
    case 3: return p[3] - 1;               // expect-count-all: 10
    case 4: return p[x] ^ 9;               // expect-count-all: 10
    case 5: return 11;                     // expect-count-all: 10
    default: break;
    }
    if (__builtin_expect(x < -100, 0)) {   // expect-count-all: 30
        fprintf(stderr, "bad %d\n", x);    // expect-count-all: 0
        abort();
    }
    return x;                              // expect-count-all: 30
}

__attribute__((noinline)) int fib(int n)
{
    if (n < 2)                             // expect-count-all: 177
        return n;
    return fib(n - 1) + fib(n - 2);        // expect-count-all: 88
}

__attribute__((noinline)) int twice(int v) { return 2 * v; }   // expect-count-all: 399
__attribute__((noinline)) int thrice(int v) { return 3 * v; }  // expect-count-all: 0

__attribute__((noinline)) long calls(const int *a, int n)
{
    static int seen;
    long s = 0;                            // expect-count-all: 90
    for (int i = 0; i < n; i++) {          // expect-count-all: 399
        sink = i;                          // expect-count-all: 309
        s += twice(a[i]);                  // expect-count-all: 309
    }
    seen += n;                             // expect-count-all: 90
    return s + seen;                       // expect-count-all: 90
}

__attribute__((noinline)) long tight(const int *a, int n)
{
    long s = 0;                            // expect-count-all: 90
    for (int i = 0; i < n; i++)            // expect-count-all: 399
        s += a[i] > 3 ? a[i] : 1;          // expect-count-all: 375 (gcov's: runs of lines)
    return s;                              // expect-count-all: 90
}

__attribute__((noinline)) int apply(int (*f)(int), int v)
{
    return f(v) + 1;                       // expect-count-all: 90
}

/* a local zeroed by SSE stores that assume the ABI's 16-byte stack
   alignment (movaps), in a function made of its copy's assembly: its
   callers must keep the stack aligned, whatever its one asm needs
   (-fipa-stack-alignment) */
__attribute__((noinline)) long vsum(const long *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

__attribute__((noinline)) long zeroed(int k)
{
    long v[8] = {0};
    v[k & 7] = k;
    return vsum(v, 8) + vsum(v, k & 3);
}

__attribute__((noinline)) long via(int k) { return zeroed(k) + 1; }

int main(int argc, char **argv)
{
    int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    long t = 0;
    for (int i = 0; i < 90; i++)           // expect-count-all: 91
        t += pick(i % 9, a) + calls(a, i % 8) + tight(a, i % 8) + apply(twice, i);  // expect-count-all: 90
    t += fib(10 + argc - 1);               // expect-count-all: 1
    t += via(argc + 4);
    printf("%ld\n", t);                    // expect-count-all: 1
    return 0;
}
