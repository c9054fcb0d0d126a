/* entryshapes.c — clean entries whose prologue GCC puts before the switch
 * test (tests/count/t-entry-shapes.sh): pop() is declared without a
 * prototype, so the sibling call to its counting copy clears %al, and its
 * abort() lies in a cold part; many() takes nine arguments, three on the
 * stack (a bool among them, which the tail block stores back), and keeps
 * some in its frame.  The expect-count comments are gcov 12's counts of an
 * -O0 --coverage build. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    long v;
};
static struct node *stack[64];
static int sp;

static __attribute__((noinline)) struct node *pop()
{
    if (sp == 0)                                         // expect-count: 8000
        abort();                                         // expect-count: 0
    return stack[--sp];                                  // expect-count: 8000
}

__attribute__((noinline)) long many(long a, char **b, int c, long d, long e, long (*f)(long), long g, long h,
                                    bool last)
{
    long s = 0;                                          // expect-count: 1000
    for (int i = 0; i < c; i++) {                        // expect-count: 4999
        s += f(a + i) + d * e;                           // expect-count: 3999
        if (last && b[i % 2][0] == 'x')                  // expect-count: 3999
            s += g;                                      // expect-count: 668
        s -= h;                                          // expect-count: 3999
    }
    return s;                                            // expect-count: 1000
}

static long inc(long x) { return x + 1; }
static long twice(long x) { return 2 * x; }

int main(void)
{
    static struct node nodes[8];
    char *strs[2] = {"x", "y"};
    long total = 0, r = 0;
    for (int k = 0; k < 1000; k++) {
        for (int i = 0; i < 8; i++) {
            nodes[i].v = i + k;
            stack[sp++] = &nodes[i];
        }
        for (int i = 0; i < 8; i++)
            total += pop()->v;
        r += many(k, strs, 3 + k % 3, 2, 3, k % 2 ? inc : twice, 5, 1, k % 3 == 0);
    }
    printf("%ld %ld\n", total, r);
    return 0;
}
