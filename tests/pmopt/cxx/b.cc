#include "names.h"

long store::Version::Get(long k, long spin) const    // expect: store::Version::Get, 5 entries
{
    long acc = v * k;
    for (long j = 0; j < spin; j++)
        acc = acc * 5 + j;
    return acc;
}

long store::put(const char *s) { return s[0]; }       // expect: store::put(char const*), 5 entries

long run_b(long n, long spin)
{
    long s = 0;
    store::Version v{2};
    for (long i = 0; i < n; i++)
        s += twice(i) + mix(i) + v.Get(i, spin) + store::put("x");
    return s;
}
