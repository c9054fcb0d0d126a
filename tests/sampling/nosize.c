/* tests/sampling/t-nosize.sh: main calls nosize.S's spin, whose symbol has
 * no size, N times. */
#include <stdio.h>
#include <stdlib.h>
long spin(long), after(void);
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000, s = 0;
    for (int i = 0; i < 20; i++)
        s += spin(n);
    after();
    printf("%ld\n", s);
    return 0;
}
