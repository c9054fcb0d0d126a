#include "weird.h"

static int helper(int x) { return weird_add(x) * 2; }   /* expect: 2 entries, x.c */

int x_run(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += helper(i);
    return s;
}
