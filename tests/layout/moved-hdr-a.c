#include <stdio.h>
#include "moved-hdr.h"
int b_rare(int x);
int main(int argc, char **argv)
{
    int s = 0;
    for (int i = 0; i < 50; i++)
        s += hdr_mix(i);
    if (argc > 5)
        s += b_rare(argc);
    printf("%d\n", s);
    (void)argv;
    return 0;
}
