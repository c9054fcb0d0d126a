/* A shared library's counted functions (tests/count/t-shlib.sh): compiled
 * -fPIC, so its thread-local counters have a dynamic TLS model.  Several
 * paths to a counter in each (a loop, branches, a double kept in a vector
 * register across the updates). */
#include <perfinst.h>
#include <setjmp.h>

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

/* an indirect call in a function that calls setjmp: pass-tls.cc leaves
 * its counters to GCC's TLS model, and its cache's asm (written in the
 * local-exec form, which a shared library cannot link) gets the slots'
 * address by that model */
static __thread jmp_buf lib_env;

PERFINST("count")
int lib_jump(int n)
{
    volatile int s = 0;
    if (setjmp(lib_env))
        return s;
    for (int i = 0; i < n; i++)     // expect-count: 2400
        s += lib_ops[(i & 3) == 0](i); // expect-count: 2000
    longjmp(lib_env, 1);
}

/* a function of its own -O0 (the optimize attribute): counted in place, as
 * in a unit compiled -O0, its counters and cache through the offset as at
 * -O2 (pass-tls.cc) */
PERFINST("count")
__attribute__((optimize("O0"))) int lib_o0(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)     // expect-count: 1600
        s += lib_ops[i == 1](i);    // expect-count: 1200
    return s;
}
