// comdat-a.cc — with comdat-b.cc, for t-comdat.sh: twice() is called 3
// times from here and 8 times from sum_b(); the sort's comparator is a
// lambda, whose calls the program counts itself.
#include <algorithm>
#include <cstdio>
#include "comdat.h"

static long compares;

int main()
{
    int v[8] = {5, 3, 9, 1, 7, 2, 8, 6};
    std::sort(v, v + 8, [](int a, int b) {
        compares++;
        return a > b;
    });
    int s = 0;
    for (int i = 0; i < 3; i++)
        s += twice(i);
    s += sum_b(v, 8);
    std::printf("sum %d compares %ld\n", s, compares);
    return 0;
}
