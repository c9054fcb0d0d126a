/* steps N: walk() runs N times, step() 3 times per walk (walk.c); with
 * STEPS_CXX also sorted_sum() (sorted.cc, C++) once.  The sources of the
 * projects under tests/adopt (auto/, cmake/, meson/), which the tests copy
 * beside their build files. */
#include <stdio.h>
#include <stdlib.h>

int walk(int seed);
#ifdef STEPS_CXX
int sorted_sum(int n);
#endif

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10, s = 0;
    for (int i = 0; i < n; i++)
        s += walk(i);
#ifdef STEPS_CXX
    printf("steps %d: %d, sorted %d\n", n, s, sorted_sum(n));
#else
    printf("steps %d: %d\n", n, s);
#endif
    return 0;
}
