/* copy-calls=direct (gcc-plugin/pass-tailjump.cc): work's counting copy
 * calls near_mul (this unit), far_add (copycalls2.c, counted) and
 * plain_xor (copycalls3.c, compiled without the plugin) at their entries
 * near_mul.pi_entry, far_add.pi_entry (copycalls2.c's, global) and
 * plain_xor.pi_entry (this unit's weak stand-in, `jmp plain_xor`); main
 * calls near_mul through a pointer too (its clean copy's test).  main
 * calls work(0) .. work(9): 45 iterations; near_mul runs 45 + 10 times. */
#include <stdio.h>

int far_add(int a, int b); /* copycalls2.c */
int plain_xor(int x);      /* copycalls3.c */

__attribute__((noinline)) static int near_mul(int x)
{
    return x * 3 + (x > 5);                      // expect-count: 55
}

__attribute__((noinline)) int work(int n)
{
    int s = 0;                                   // expect-count: 10
    for (int i = 0; i < n; i++)
        s += near_mul(i) + far_add(i, n) + plain_xor(i); // expect-count: 45
    return s;                                    // expect-count: 10
}

int (*volatile fp)(int) = near_mul;

int main(void)
{
    int t = 0;                                   // expect-count: 1
    for (int i = 0; i < 10; i++)
        t += work(i) + fp(i);                    // expect-count: 10
    printf("%d\n", t);                           // expect-count: 1
    return 0;
}
