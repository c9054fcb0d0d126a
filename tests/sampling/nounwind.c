/* leaf() called by mid() called by main(): compiled without unwind tables
 * (t-nounwind.sh), every sampled stack through them ends at the first. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static double leaf(int n) { double s = 0; for (int i = 1; i < n; i++) s += 1.0 / i; return s; }
__attribute__((noinline)) static double mid(int n) { double s = 0; for (int k = 0; k < 50; k++) s += leaf(n + k); return s; }
int main(int argc, char **argv)
{
    int r = argc > 1 ? atoi(argv[1]) : 40;
    double s = 0;
    for (int i = 0; i < r; i++)
        s += mid(200000);
    printf("%.3f\n", s);
    return 0;
}
