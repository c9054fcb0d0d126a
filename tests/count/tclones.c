/* target_clones (t-target-clones.sh): GCC compiles sum once per target
 * (sum.avx2, sum.default: artificial) and an ifunc resolver picks one at
 * load time.  `./tclones N`: sum runs N times over 100 elements. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((target_clones("avx2", "default"))) int sum(const int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * 3; /* the loop's body */
    return s;
}

int main(int argc, char **argv)
{
    int a[100], n = argc > 1 ? atoi(argv[1]) : 10;
    for (int i = 0; i < 100; i++)
        a[i] = i;
    long t = 0;
    for (int k = 0; k < n; k++)
        t += sum(a, 100);
    printf("%ld\n", t);
    return 0;
}
