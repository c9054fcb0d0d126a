/* main → A → B → C, 40 times; C reaches threshold(count=13) on executions
 * 13, 26 and 39.  Built with all=count, every function is instrumented, so
 * an overlay can switch each on and off (pmopt plan --expand-callers). */
#include <perfinst.h>
#include <stdio.h>

PERFINST("threshold(count=13)")
__attribute__((noinline)) int C(int x) { return x * 2; }
__attribute__((noinline)) int B(int x) { return C(x) + 1; }
__attribute__((noinline)) int A(int x) { return B(x) + 1; }
__attribute__((noinline)) int D(int x) { return x - 1; } /* never on a stack of C */

int main(void)
{
    long s = 0;
    for (int i = 0; i < 40; i++)
        s += A(i) + D(i);
    printf("%ld\n", s);
    return 0;
}
