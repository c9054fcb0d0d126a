/* work is called with a constant k only: GCC clones it (work.constprop.0),
 * and the clone must test work's own switch (pass-split.cc). */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static int work(int *a, int n, int k)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i] * k + (a[i] > k ? 1 : 2);
    return s;
}
int main(int argc, char **argv)
{
    int a[100];
    for (int i = 0; i < 100; i++) a[i] = i * (argc + 1);
    int s = 0;
    for (int r = 0; r < 7; r++) s += work(a, 100, 3);
    printf("%d\n", s);
    return 0;
}
