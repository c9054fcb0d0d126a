#include "../common/mem.h"

int a_sum(const int *p, int n)   /* expect: 1 entry, unit lib/compress/a.c */
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += mem_read(p, i);
    return s;
}
