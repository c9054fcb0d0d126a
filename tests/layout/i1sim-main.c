/* tests/layout/t-i1sim.sh: calls f0..f8 in turn 1000 times.  Where the
 * nine one-line functions lie 4096 bytes apart they share one set of a
 * 32 KiB 8-way I1 (64 sets of 64 bytes): nine lines in eight ways, LRU,
 * every call misses; 4160 bytes apart they lie in nine sets. */
#include <stdio.h>
int f0(int), f1(int), f2(int), f3(int), f4(int), f5(int), f6(int), f7(int), f8(int);
int main(void)
{
    int x = 0;
    for (int i = 0; i < 1000; i++) {
        x = f0(x); x = f1(x); x = f2(x); x = f3(x); x = f4(x);
        x = f5(x); x = f6(x); x = f7(x); x = f8(x);
    }
    printf("x=%d\n", x);
    return 0;
}
