/* 200,000 watched words, each read and written twice and read once more
 * (5 accesses a word): more than the runtime's default table of 65,536. */
#include <perfinst.h>
#include <stdio.h>
#define N 200000
PERFINST("watch") long big[N];
int main(void)
{
    long s = 0;
    for (int r = 0; r < 2; r++)
        for (long i = 0; i < N; i++)
            big[i] += i;
    for (long i = 0; i < N; i++)
        s += big[i];
    printf("%ld\n", s);
    return 0;
}
