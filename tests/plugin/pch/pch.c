/* t-pch.sh: includes pch.h, compiled to a precompiled header first. */
#include "pch.h"

int main(int argc, char **argv)
{
    int v[10];
    long t = 0;
    int n = argc > 1 ? atoi(argv[1]) : 10;
    for (int i = 0; i < n; i++)
        v[i] = i;
    for (int k = 0; k < 3; k++)
        t += hsum(v, n);
    for (int i = 0; i < n; i++)
        t += marked(i);
    printf("%ld\n", t);
    uint64_t r, w;
    perfinst_data_count(&hits, &r, &w);
    printf("hits: %llu reads, %llu writes\n", (unsigned long long)r, (unsigned long long)w);
    return 0;
}
