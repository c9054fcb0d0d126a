/* A named region entered 7 times whose first block is a loop head (so the
 * head's own count, 7 × 4 = 28 + 7, is not the number of visits); a trace
 * region that calls an instrumented function 5 times (it is also called 3
 * times outside), and an uninstrumented one; a function counted with
 * types(branch,call,ret). */
#include <perfinst.h>
#include <stdio.h>

static volatile long sink;

PERFINST("count")
__attribute__((noinline)) int f(int x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) int g(int x)
{
    for (int i = 0; i < 100; i++)
        sink += i;
    return x;
}

PERFINST("types(branch,call,ret)")
__attribute__((noinline)) int typed(int x)
{
    if (x & 1)
        return g(x);
    return x + 1;
}

int main(void)
{
    long s = 0;
    for (int v = 0; v < 7; v++) {
        int i = 0;
        #pragma perfinst region begin(walk)
        while (i < 4)
            i++, s += v;
        #pragma perfinst region end(walk)
    }
    for (int i = 0; i < 3; i++)
        s += f(i);
    #pragma perfinst trace_start
    for (int i = 0; i < 5; i++)
        s += f(i) + g(i);
    #pragma perfinst trace_stop
    for (int i = 0; i < 10; i++)
        s += typed(i);
    printf("%ld\n", s);
    return 0;
}
