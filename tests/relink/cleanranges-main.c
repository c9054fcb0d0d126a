/* the driver of cleanranges.c, compiled without the plugin */
#include <stdio.h>
#include <stdlib.h>
long work(long x);
void complain(int what, long v) { printf("%d %ld\n", what, v); }
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
    for (long i = 0; i < n; i++)
        s += work(i);
    printf("%ld\n", s);
    return 0;
}
