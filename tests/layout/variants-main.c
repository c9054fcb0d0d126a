/* tests/layout/t-variants.sh: runs variants.c's 8-bit unit, or with a
 * second argument its 16-bit one */
#include <stdio.h>
#include <stdlib.h>
int run_8(int), run_16(int);
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    printf("%d\n", argc > 2 ? run_16(n) : run_8(n));
    return 0;
}
