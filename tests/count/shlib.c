/* A shared library's counted functions (tests/count/t-shlib.sh): compiled
 * -fPIC, so its thread-local counters have a dynamic TLS model.  Several
 * paths to a counter in each (a loop, branches, a double kept in a vector
 * register across the updates). */
#include <perfinst.h>

PERFINST("count")
int lib_work(int n)
{
    int s = 0;                      // expect-count: 400
    for (int i = 0; i < n; i++)     // expect-count: 4400
        if (i & 1)                  // expect-count: 4000
            s += i;                 // expect-count: 2000
        else
            s ^= i * 7;             // expect-count: 2000
    return s;
}

PERFINST("count")
double lib_scale(double x, int k)
{
    double y = x * 0.5;             // expect-count: 400
    if (k > 2)                      // expect-count: 400
        y += x * k;                 // expect-count: 100
    else if (k == 1)                // expect-count: 300
        y -= 1.0;                   // expect-count: 100
    return y * x;                   // expect-count: 400
}

/* an indirect call site: its inline cache (pass-count.cc) is thread-local
 * like the counters and reached through the same offset (pass-tls.cc) */
__attribute__((noinline)) static int lib_inc(int x) { return x + 1; }
__attribute__((noinline)) static int lib_dbl(int x) { return x * 2; }
static int (*volatile lib_ops[2])(int) = {lib_inc, lib_dbl};

PERFINST("count")
int lib_apply(int n)
{
    int s = 0;                      // expect-count: 400
    for (int i = 0; i < n; i++)     // expect-count: 4400
        s += lib_ops[i % 3 == 0](i); // expect-count: 4000
    return s;
}
