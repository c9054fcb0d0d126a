/* clockstep.c — LD_PRELOAD'ed by tests/ri/t-modes.sh: a clock that is
 * stepped back a second at every reading of CLOCK_REALTIME (as NTP or
 * `date -s` may, once), CLOCK_MONOTONIC as it is.  Report-group times taken
 * from the time of day would go backwards; the runtime's must not. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static int (*real)(clockid_t, struct timespec *);
    static long steps;
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int r = real(id, ts);
    if (r == 0 && id == CLOCK_REALTIME)
        ts->tv_sec -= __atomic_fetch_add(&steps, 1, __ATOMIC_RELAXED);
    return r;
}
