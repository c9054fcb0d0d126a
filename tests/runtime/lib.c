/* lib.c — an "instrumented" shared library for the dlopen test: unit 0x11b
 * with 2 counters; lib_work(n) counts counter 0 n times and counter 1 once. */
#include "fake-unit.h"

FAKE_UNIT(l, 0x11bull, 2)

void lib_work(long n)
{
    for (long i = 0; i < n; i++)
        HIT(l, 0);
    HIT(l, 1);
}
