/* idle-wrap.c — the blocking points of the dispatch monitor (idle.c), by
 * interposition: libperfinst.so defines these libc and pthread functions,
 * so a program linked with it (perfinst-ld puts -lperfinst before libc)
 * calls ours, which calls libc's (dlsym RTLD_NEXT) between
 * pi_block_enter and pi_block_exit.
 *
 *   pthread_mutex_lock (only when contended: trylock first), pthread_cond_wait,
 *   pthread_cond_timedwait, sem_wait, sem_timedwait, pthread_join, nanosleep,
 *   clock_nanosleep, usleep, sleep, read, recv, poll, epoll_wait
 *
 * With PERFINST_IDLE off each costs two loads (the mode, libc's pointer),
 * two predictable branches and a jump more than libc's, and has no frame
 * of its own (tests/sampling/t-idle-wrap.sh).  Only in the shared runtime
 * (runtime/build.mk leaves this file out of libperfinst.a: a static link
 * would meet libc.a's definitions of the same names); with the static
 * runtime only `blocking`-marked functions are blocking points.
 *
 * An idle sampler's signal interrupts the thread it samples; calls the
 * kernel does not restart under SA_RESTART (nanosleep, clock_nanosleep,
 * poll, epoll_wait) are restarted here when our signal was the cause —
 * sleeps with the time left, polls with their whole timeout again — and
 * counted (eintr in the IDLE_STATS record).
 */
#include "sample.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* get_NAME: libc's NAME, looked up at the first call (resolve_NAME, out
 * of line, so that the wrappers' own path is a load, a test and a jump:
 * no frame of their own) */
#define REAL(name, ver)                                                                      \
    static __typeof__(name) *real_##name;                                                    \
    static __attribute__((noinline, cold)) __typeof__(name) *resolve_##name(void)            \
    {                                                                                        \
        __typeof__(name) *f = NULL;                                                          \
        if (ver)                                                                             \
            f = (__typeof__(name) *)dlvsym(RTLD_NEXT, #name, ver ? ver : "");                \
        if (!f)                                                                              \
            f = (__typeof__(name) *)dlsym(RTLD_NEXT, #name);                                 \
        __atomic_store_n(&real_##name, f, __ATOMIC_RELAXED);                                 \
        return f;                                                                            \
    }                                                                                        \
    static inline __typeof__(name) *get_##name(void)                                         \
    {                                                                                        \
        __typeof__(name) *f = __atomic_load_n(&real_##name, __ATOMIC_RELAXED);               \
        return __builtin_expect(f != NULL, 1) ? f : resolve_##name();                        \
    }

REAL(pthread_mutex_lock, NULL)
REAL(pthread_mutex_trylock, NULL)
REAL(pthread_cond_wait, "GLIBC_2.3.2")
REAL(pthread_cond_timedwait, "GLIBC_2.3.2")
REAL(sem_wait, NULL)
REAL(sem_timedwait, NULL)
REAL(nanosleep, NULL)
REAL(clock_nanosleep, NULL)
REAL(usleep, NULL)
REAL(sleep, NULL)
REAL(read, NULL)
REAL(recv, NULL)
REAL(poll, NULL)
REAL(epoll_wait, NULL)

#define ON() __builtin_expect(pi_idle_mode != 0, 0)
/* A wrapper's whole body: libc's NAME called with the arguments, unless
   the monitor is on or NAME is not looked up yet: then idle_NAME, which is
   also given the wrapper's return address */
#define WRAP(name, ...)                                                                     \
    do {                                                                                    \
        __typeof__(name) *f_ = __atomic_load_n(&real_##name, __ATOMIC_RELAXED);             \
        if (__builtin_expect(pi_idle_mode != 0 || !f_, 0))                                  \
            return idle_##name(__VA_ARGS__, RA());                                          \
        return f_(__VA_ARGS__);                                                             \
    } while (0)
/* The wrapper's return address: the caller's frame is the leaf of an idle
 * stack (what the wrapper and libc do under it is left out).  The idle
 * monitor's work is in IDLE functions out of line (noinline), which get
 * it as RA. */
#define RA() ((uintptr_t)__builtin_return_address(0))
#define IDLE static __attribute__((noinline))
#define ENTER(kind) pi_block_enter((kind), ra)

/* Signals the idle sampler sent this thread so far. */
static unsigned hits(void)
{
    struct pi_sthread *t = pi_sself;
    return t ? PI_LOAD(&t->hits) : 0;
}

static void leave(void)
{
    int e = errno;
    pi_block_exit();
    errno = e;
}

/* Whether a call that was interrupted (as the call reports EINTR) was
 * interrupted by the idle sampler's signal (hits moved since h): then it
 * is counted and made again, as SA_RESTART would have restarted it. */
static int restart(int interrupted, unsigned h)
{
    if (!interrupted || hits() == h)
        return 0;
    pi_idle_count_eintr();
    return 1;
}

IDLE int idle_pthread_mutex_lock(pthread_mutex_t *m, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_pthread_mutex_lock()(m);
    int r = get_pthread_mutex_trylock()(m);
    if (r != EBUSY)
        return r;
    ENTER(PI_BLK_MUTEX);
    r = get_pthread_mutex_lock()(m);
    leave();
    return r;
}

PI_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
    WRAP(pthread_mutex_lock, m);
}

IDLE int idle_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_pthread_cond_wait()(c, m);
    ENTER(PI_BLK_COND);
    int r = get_pthread_cond_wait()(c, m);
    leave();
    return r;
}

PI_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    WRAP(pthread_cond_wait, c, m);
}

IDLE int idle_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *ts,
                                     uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_pthread_cond_timedwait()(c, m, ts);
    ENTER(PI_BLK_COND);
    int r = get_pthread_cond_timedwait()(c, m, ts);
    leave();
    return r;
}

PI_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                     const struct timespec *ts)
{
    WRAP(pthread_cond_timedwait, c, m, ts);
}

IDLE int idle_sem_wait(sem_t *s, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_sem_wait()(s);
    ENTER(PI_BLK_SEM);
    int r;
    unsigned h;
    do {
        h = hits();
        r = get_sem_wait()(s);
    } while (restart(r && errno == EINTR, h));
    leave();
    return r;
}

PI_EXPORT int sem_wait(sem_t *s)
{
    WRAP(sem_wait, s);
}

IDLE int idle_sem_timedwait(sem_t *s, const struct timespec *ts, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_sem_timedwait()(s, ts);
    ENTER(PI_BLK_SEM);
    int r;
    unsigned h;
    do {
        h = hits();
        r = get_sem_timedwait()(s, ts); /* absolute time: restarting is exact */
    } while (restart(r && errno == EINTR, h));
    leave();
    return r;
}

PI_EXPORT int sem_timedwait(sem_t *s, const struct timespec *ts)
{
    WRAP(sem_timedwait, s, ts);
}

/* pthread_join itself is thread.c's (it ticks the fork/join clock too). */
int pi_idle_join(pthread_t th, void **ret, int (*real)(pthread_t, void **), uintptr_t ra)
{
    if (!ON())
        return real(th, ret);
    pi_block_enter(PI_BLK_JOIN, ra); /* ra: pthread_join's caller */
    int r = real(th, ret);
    leave();
    return r;
}

static int do_nanosleep(const struct timespec *req, struct timespec *rem, uintptr_t ra)
{
    struct timespec left = *req, r2 = {0, 0};
    pi_block_enter(PI_BLK_SLEEP, ra);
    int r;
    for (;;) {
        unsigned h = hits();
        r = get_nanosleep()(&left, &r2);
        if (!restart(r && errno == EINTR, h))
            break;
        left = r2;
    }
    if (r && rem)
        *rem = r2;
    leave();
    return r;
}

IDLE int idle_nanosleep(const struct timespec *req, struct timespec *rem, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_nanosleep()(req, rem);
    return do_nanosleep(req, rem, ra);
}

PI_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
    WRAP(nanosleep, req, rem);
}

IDLE int idle_clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem,
                              uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_clock_nanosleep()(clk, flags, req, rem);
    struct timespec left = *req, r2 = {0, 0};
    ENTER(PI_BLK_SLEEP);
    int r;
    for (;;) {
        unsigned h = hits();
        r = get_clock_nanosleep()(clk, flags, &left, &r2);
        if (!restart(r == EINTR, h))
            break;
        if (!(flags & TIMER_ABSTIME))
            left = r2;
    }
    if (r == EINTR && rem)
        *rem = r2;
    leave();
    return r;
}

PI_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
                              struct timespec *rem)
{
    WRAP(clock_nanosleep, clk, flags, req, rem);
}

IDLE int idle_usleep(useconds_t us, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_usleep()(us);
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    return do_nanosleep(&ts, NULL, ra);
}

PI_EXPORT int usleep(useconds_t us)
{
    WRAP(usleep, us);
}

IDLE unsigned idle_sleep(unsigned s, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_sleep()(s);
    struct timespec ts = {(time_t)s, 0}, rem = {0, 0};
    if (do_nanosleep(&ts, &rem, ra) == 0)
        return 0;
    return (unsigned)rem.tv_sec + (rem.tv_nsec > 0);
}

PI_EXPORT unsigned sleep(unsigned s)
{
    WRAP(sleep, s);
}

IDLE ssize_t idle_read(int fd, void *buf, size_t n, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_read()(fd, buf, n);
    ENTER(PI_BLK_READ);
    ssize_t r = get_read()(fd, buf, n); /* SA_RESTART: the kernel restarts it */
    leave();
    return r;
}

PI_EXPORT ssize_t read(int fd, void *buf, size_t n)
{
    WRAP(read, fd, buf, n);
}

IDLE ssize_t idle_recv(int fd, void *buf, size_t n, int flags, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_recv()(fd, buf, n, flags);
    ENTER(PI_BLK_READ);
    ssize_t r = get_recv()(fd, buf, n, flags);
    leave();
    return r;
}

PI_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
    WRAP(recv, fd, buf, n, flags);
}

IDLE int idle_poll(struct pollfd *fds, nfds_t n, int timeout, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_poll()(fds, n, timeout);
    ENTER(PI_BLK_POLL);
    int r;
    unsigned h;
    do {
        h = hits();
        r = get_poll()(fds, n, timeout);
    } while (restart(r < 0 && errno == EINTR, h));
    leave();
    return r;
}

PI_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    WRAP(poll, fds, n, timeout);
}

IDLE int idle_epoll_wait(int ep, struct epoll_event *ev, int max, int timeout, uintptr_t ra)
{
    if (!ON()) /* (libc's not looked up yet) */
        return get_epoll_wait()(ep, ev, max, timeout);
    ENTER(PI_BLK_POLL);
    int r;
    unsigned h;
    do {
        h = hits();
        r = get_epoll_wait()(ep, ev, max, timeout);
    } while (restart(r < 0 && errno == EINTR, h));
    leave();
    return r;
}

PI_EXPORT int epoll_wait(int ep, struct epoll_event *ev, int max, int timeout)
{
    WRAP(epoll_wait, ep, ev, max, timeout);
}
