// comdat-b.cc — see comdat-a.cc.
#include "comdat.h"

int sum_b(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += twice(v[i]);
    return s;
}
