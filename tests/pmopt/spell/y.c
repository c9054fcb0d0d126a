#include "weird.h"

static int helper(int x) { return weird_add(x) - 1; }   /* expect: 6 entries, y.c */

int y_run(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += helper(i);
    return s;
}
