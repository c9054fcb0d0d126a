/* Counts, then dies of SIGSEGV: the trace must still hold the counts. */
#include <perfinst.h>
#include <stdio.h>
PERFINST("count")
static int step(volatile int *p, int i)
{
    if (i < 100)                  // expect-count: 101
        return i;                 // expect-count: 100
    int v = *p;                   // expect-count: 1
    return v;
}
int main(void)
{
    volatile int *null = NULL;
    long s = 0;
    for (int i = 0; ; i++)
        s += step(null, i);
    printf("%ld\n", s);
}
