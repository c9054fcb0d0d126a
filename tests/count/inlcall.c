/* inlcall.c — calls whose bodies GCC inlines, each on a line of its
 * caller (tests/count/t-lines-gcov.sh).  At -O0 such a call is one
 * statement of its line, and gcov -O0 counts the line once per run;
 * pmopt report does too, though the inlined body's blocks sit between the
 * line's blocks (gcov -O2 counts the line again where control comes back
 * from the body).  The @O0 lines have gcov -O0's counts. */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;
__attribute__((noinline)) void note(int x) { sink += x; }

/* a branch in the body: the block of its arm holds only the body's code,
   and the line goes on in the block where the arms join */
static inline int odd(int x)
{
    if (x & 1)
        note(x);
    return x + 1;
}

/* a loop inside the body: its iterations are no runs of the call's line */
static inline int sumto(int n)
{
    int s = 0;
    while (n--)
        s += n;
    return s;
}

/* Lua's countint (ltable.c): the early ipa-split cuts countint after
   index's test, which the header keeps; countint.part.0 opens in the rest
   of index's body, whose call's line the header entered already */
__attribute__((noinline)) unsigned ceil_log2(unsigned x)
{
    unsigned l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

static unsigned index_of(long k)
{
    if ((unsigned long)k - 1u < 1000u)
        return (unsigned)k;
    else
        return 0;
}

static int countint(long key, unsigned *nums)
{
    unsigned k = index_of(key); /* @O0 */
    if (k != 0) {
        nums[ceil_log2(k)]++;
        return 1;
    } else
        return 0;
}

__attribute__((noinline)) int branch(int a)
{
    int r;
    if ((r = a * 7 + odd(a) * a) & 1) /* @O0 */
        note(r);
    return r;
}

__attribute__((noinline)) int loops(int a)
{
    int t;
    if ((t = a + sumto(a & 7) * a) & 1) /* @O0 */
        note(t);
    return t;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    long sum = 0;
    unsigned nums[16] = {0};
    for (int i = 0; i < n; i++)
        sum += countint(i % 5 ? i : -i, nums) * 3; /* @O0 */
    for (int i = 0; i < n; i += 2)
        sum += countint(3 * i, nums);
    for (int i = 0; i < n; i++)
        sum += branch(i) + loops(i);
    printf("%ld %d\n", sum, sink);
    return 0;
}
