// C++ names in pmopt's views (tests/pmopt/t-cxx-names.sh): two methods
// named Get in two classes of one namespace, an overloaded function, a
// template and an inline function used in two units, a function of an
// anonymous namespace.  SPIN iterations of busy work per Get call give the
// sampler something to see; the counts do not depend on it.
#ifndef NAMES_H
#define NAMES_H
namespace store {
struct MemTable {
    long v;
    __attribute__((noinline)) long Get(long k, long spin) const;
};
struct Version {
    long v;
    __attribute__((noinline)) long Get(long k, long spin) const;
};
long put(long x);
long put(const char *s);
} // namespace store

template <typename T> T twice(T x)   // expect: twice<long>, 8 entries in 2 units
{
    return x + x;
}
inline long mix(long x)              // expect: mix, 8 entries in 2 units
{
    return x * 3 + 1;
}

long run_a(long n, long spin);
long run_b(long n, long spin);
#endif
