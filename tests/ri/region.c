/* sample(...) on a statement: only the loop's blocks are units. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int work(int n)
{
    int s = 0;
    #pragma perfinst sample(every=3)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

__attribute__((noinline)) int work2(int n)
{
    int s = 1;
    #pragma perfinst sample(directed)
    s += n * 3;
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    volatile int s = work(n) + work(n) + work2(n) + work2(n);
    printf("%d\n", s);
    return 0;
}
