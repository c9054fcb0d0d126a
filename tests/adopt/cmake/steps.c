/* steps N: walk() runs N times, step() 3 times per walk (walk.c), and
 * sorted_sum() (sorted.cc, C++) once. */
#include <stdio.h>
#include <stdlib.h>

int walk(int seed);
int sorted_sum(int n);

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10, s = 0;
    for (int i = 0; i < n; i++)
        s += walk(i);
    printf("steps %d: %d, sorted %d\n", n, s, sorted_sum(n));
    return 0;
}
