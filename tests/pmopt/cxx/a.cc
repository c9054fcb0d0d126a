#include "names.h"

namespace {
long helper(long x) { return x ^ 5; }   // expect: (anonymous namespace)::helper, 3 entries
}

long store::MemTable::Get(long k, long spin) const   // expect: store::MemTable::Get, 3 entries
{
    long acc = v + k;
    for (long j = 0; j < spin; j++)
        acc = acc * 7 + j;
    return acc;
}

long store::put(long x) { return x + 1; }             // expect: store::put(long), 3 entries

long run_a(long n, long spin)
{
    long s = 0;
    store::MemTable m{1};
    for (long i = 0; i < n; i++)
        s += twice(i) + mix(i) + m.Get(i, spin) + store::put(i) + helper(i);
    return s;
}
