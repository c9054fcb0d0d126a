/* icallargs.c — an indirect call whose target and arguments are loaded
 * from memory (tests/count/t-icall-args.sh) */
#include <stdio.h>

struct ops {
    long a, b, c;
    long (*fn)(long, long, long);
};

static __attribute__((noinline)) long f3(long a, long b, long c) { return a + 2 * b + 3 * c; }
static __attribute__((noinline)) long g3(long a, long b, long c) { return a - b + c; }

__attribute__((noinline)) long call3(struct ops *p)
{
    long r = p->fn(p->a, p->b, p->c);
    return r + 1;
}

int main(void)
{
    struct ops o[2] = {{1, 2, 3, f3}, {4, 5, 6, g3}};
    long s = 0;
    for (int i = 0; i < 3000; i++) {
        o[i % 2].a = i;
        s += call3(&o[i % 3 == 0]);
    }
    printf("sum %ld\n", s);
    return 0;
}
