// The C++ unit: the standard library (libstdc++), a template, exceptions.
#include <algorithm>
#include <vector>

__attribute__((noinline)) static int weight(int v)
{
    return v % 5;
}

extern "C" int sorted_sum(int n)
{
    std::vector<int> v;
    for (int i = 0; i < n; i++)
        v.push_back((i * 7) % n);
    std::sort(v.begin(), v.end());
    int s = 0;
    for (int x : v)
        s += weight(x);
    return s;
}
