/* clean-copies=final: tail calls in f (gcc-plugin/finalcopy.cc, "tail
 * calls").  The counting copy counts the block after each call (the
 * callee may not return), so its calls stay calls; f, made of its code,
 * jumps to the callee where -O2 would (GCC's tail-call analysis, then
 * no argument on the stack): direct, indirect, void, mutually recursive,
 * after a branch, out of line,
 * entered by a jump.  It must not where a local the callee sees is still live, or
 * where arguments go on the stack (t-final-tails.sh checks f's code).
 * `expect-count-all: N` is each line's exact count with all=count. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) int step(int x) { return x * 3 + 1; }        // expect-count-all: 48
__attribute__((noinline)) int other(int x) { return x - 7; }           // expect-count-all: 20
__attribute__((noinline)) void bump(int *p) { p[1] += p[0]; }          // expect-count-all: 40
__attribute__((noinline)) int peek(const int *p) { return p[0] + 2; }  // expect-count-all: 120
__attribute__((noinline)) int many(int a, int b, int c, int d, int e, int f, int g, int h)
{
    return a + b + c + d + e + f + g + h;                              // expect-count-all: 80
}
__attribute__((noinline)) int bye(int x)
{
    if (x == 12345) {                                                  // expect-count-all: 1
        printf("bye %d\n", x);                                         // expect-count-all: 1
        exit(0);
    }
    return x;                                                          // expect-count-all: 0
}

int (*const ops[2])(int) = {step, other};

/* must: a direct call after a branch */
__attribute__((noinline)) int direct(int x)
{
    if (x > 1)                                                         // expect-count-all: 40
        return step(x + 1);                                            // expect-count-all: 28
    return x;                                                          // expect-count-all: 12
}

/* must: an indirect call */
__attribute__((noinline)) int indirect(int x)
{
    sink = x;                                                          // expect-count-all: 40
    return ops[x & 1](x);                                              // expect-count-all: 40
}

/* must: void, the callee's return */
__attribute__((noinline)) void voidtail(int *p)
{
    p[0]++;                                                            // expect-count-all: 40
    bump(p);                                                           // expect-count-all: 40
}

/* must: mutual recursion (101 calls deep: f's jumps take no stack) */
int pong(int n);
__attribute__((noinline)) int ping(int n)
{
    if (n <= 0)                                                        // expect-count-all: 2040
        return n;                                                      // expect-count-all: 40
    return pong(n - 1);                                                // expect-count-all: 2000
}
__attribute__((noinline)) int pong(int n)
{
    sink = n;                                                          // expect-count-all: 2000
    return ping(n - 1);                                                // expect-count-all: 2000
}

/* must: a call out of line, right after the branch's label (f's branch
   must go to the tail call, not past it to the copy's shared return) */
__attribute__((noinline)) int full(const int *p) { return p[0] * 100 + p[1]; }  // expect-count-all: 13
__attribute__((noinline)) int flagged(const int *p)
{
    if (p[0] == 3)                                                     // expect-count-all: 40
        return 5;                                                      // expect-count-all: 8
    if (__builtin_expect(p[1] & 8, 0))                                 // expect-count-all: 32
        return full(p);                                                // expect-count-all: 13
    return 0;                                                          // expect-count-all: 19
}

/* must: a call whose block a jump enters (a return block's size, the
   call made a tail call in it: f's jump must not copy it as one) */
struct item { struct item *next; long key; long val; };
__attribute__((noinline)) long locate(long *db, long a, long b, long c) { return db[1] * 7 + a * 5 + b * 3 + c; } // expect-count-all: 40
__attribute__((noinline)) long item(long *db, long x, long *flags)
{
    long k = flags[8];                                                 // expect-count-all: 40
    if (flags[3] & 1) {
        struct item *p = (struct item *)db[4];
        if (k) {                                                       // expect-count-all: 14
            while (p->key != k)
                p = p->next;
            k = p->val;                                                // expect-count-all: 10
        } else
            k = -1;                                                    // expect-count-all: 4
    }
    return locate(db, x, k, flags[0]);                                 // expect-count-all: 40
}

/* must not: the callee sees a local that is live after the call */
__attribute__((noinline)) int escape(int x)
{
    int a[2] = {x, x};                                                 // expect-count-all: 40
    sink = peek(a);                                                    // expect-count-all: 40
    return peek(a + 1);                                                // expect-count-all: 40
}

/* must not: arguments on the stack (f's epilogue would free them) */
__attribute__((noinline)) int stackargs(int x)
{
    return many(x, 1, 2, 3, 4, 5, 6, x);                               // expect-count-all: 40
}

/* must: a tail call after a call with arguments on the stack, which the
   copy frees after its last call with pops into registers free there
   (`popq %rdx; popq %rcx`): before f's jump they hold quad's arguments */
__attribute__((noinline)) int quad(int *p, int x, int y, int z) { return p[0] + x * 3 + y * 5 + z * 7; } // expect-count-all: 40
__attribute__((noinline)) int freedlate(int *p, int x)
{
    int y = peek(p);                                                   // expect-count-all: 40
    p[0] = many(x, 1, 2, 3, 4, 5, 6, y);
    return quad(p, x + y, y, x);
}

/* the counted block after the call: bye does not return */
__attribute__((noinline)) int last(int x)
{
    return bye(x);                                                     // expect-count-all: 1
}

int main(int argc, char **argv)
{
    (void)argv;
    long s = 0;
    int pair[2] = {0, 0};
    struct item c = {0, 3, 30}, b = {&c, 2, 20}, a = {&b, 1, 10};
    long db[5] = {0, 5, 0, 0, (long)&a};
    for (int i = 0; i < 40; i++) {                                     // expect-count-all: 41
        s += direct(i % 7 + argc - 1);                                 // expect-count-all: 40
        s += indirect(i);                                              // expect-count-all: 40
        voidtail(pair);                                                // expect-count-all: 40
        s += ping(100) + i;                                            // expect-count-all: 40
        s += escape(i) + stackargs(i);                                 // expect-count-all: 40
        int fl[2] = {i % 5, i};
        s += flagged(fl);                                              // expect-count-all: 40
        long it[9] = {i, 0, 0, i % 3 == 0, 0, 0, 0, 0, i % 4};
        s += item(db, i, it);                                          // expect-count-all: 40
        int q[1] = {i};
        s += freedlate(q, i);                                          // expect-count-all: 40
    }
    printf("sum %ld pair %d %d\n", s, pair[0], pair[1]);               // expect-count-all: 1
    fflush(stdout);                                                    // expect-count-all: 1
    return last(12345 + argc - 1);                                     // expect-count-all: 1
}
