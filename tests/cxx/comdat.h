/* comdat.h — an inline function every unit that calls it emits as a COMDAT
 * (kept out of line at -O2 too), for t-comdat.sh. */
#ifndef COMDAT_H
#define COMDAT_H
#ifndef TWICE_ATTR /* comdat-cold.cc's copy is cold */
#define TWICE_ATTR
#endif
inline __attribute__((noinline)) TWICE_ATTR int twice(int x)
{
    if (x < 0)
        return 0;
    return 2 * x;
}
int sum_b(const int *v, int n);
#endif
