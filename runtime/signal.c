/* signal.c — a trace from a process that dies of a signal.
 *
 * Every signal that can be caught and whose default action ends the process
 * (SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
 * SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU,
 * SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS and the real-time
 * signals) gets the runtime's handler while its disposition is the default
 * one.  The handler writes the trace (with a SIGNAL record), restores the
 * default action and raises the signal again, so the process dies as it
 * would have (core dump, exit status).  It runs on an alternate stack so
 * that a stack overflow still gets its trace, and does only
 * async-signal-safe things: the trace writer reads the unit and thread lists
 * without locks and uses open/write/close, no malloc, no stdio.
 *
 * The program's own dispositions win, and it never sees ours: sigaction,
 * signal, bsd_signal and sysv_signal are interposed (in a plain program
 * that finds libc's first, its imports are pointed at these: gotpatch.c).  Setting a handler or
 * SIG_IGN installs it (ours is gone); setting SIG_DFL puts ours back; asking
 * for the current action answers SIG_DFL (with the flags and mask the
 * program gave) where ours stands in for the default.  A disposition
 * inherited at start-up that is not the default (an inherited SIG_IGN, a
 * handler installed by an earlier constructor) is left alone.  The runtime's
 * own handlers (the page table's SIGSEGV, the sampler's signal) are
 * installed with pi_sigaction_real.
 */
#include "runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/single_threaded.h>
#include <unistd.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

/* A fully static program (libc.a) has no RTLD_NEXT: libc.a's own name. */
extern int __sigaction(int, const struct sigaction *, struct sigaction *) __attribute__((weak));

static sigaction_fn real_sigaction;

static sigaction_fn real_fn(void)
{
    sigaction_fn f = __atomic_load_n(&real_sigaction, __ATOMIC_RELAXED);
    if (!f) {
        f = (sigaction_fn)pi_imports_next("sigaction");
        if (!f)
            f = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
        if (!f)
            f = __sigaction;
        __atomic_store_n(&real_sigaction, f, __ATOMIC_RELAXED);
    }
    return f;
}

int pi_sigaction_real(int sig, const struct sigaction *act, struct sigaction *old)
{
    sigaction_fn f = real_fn();
    if (!f) {
        errno = ENOSYS;
        return -1;
    }
    return f(sig, act, old);
}

/* 1 for the signals the handler is for: caught, and by default fatal. */
static inline int terminates(int sig, int rtmin, int rtmax)
{
    switch (sig) {
    case SIGHUP: case SIGINT: case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT:
    case SIGBUS: case SIGFPE: case SIGUSR1: case SIGSEGV: case SIGUSR2: case SIGPIPE:
    case SIGALRM: case SIGTERM: case SIGSTKFLT: case SIGXCPU: case SIGXFSZ:
    case SIGVTALRM: case SIGPROF: case SIGIO: case SIGPWR: case SIGSYS:
        return 1;
    }
    return sig >= rtmin && sig <= rtmax;
}

int pi_signal_terminates(int sig)
{
    return terminates(sig, SIGRTMIN, SIGRTMAX);
}

static int ready;                     /* pi_signal_setup has run */
static struct sigaction ours;         /* on_signal's action */
static struct sigaction dfl_view[_NSIG]; /* what the program set, where ours stands for SIG_DFL */

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* If this thread was writing when the signal came, that trace is lost:
     * die without touching it.  Otherwise the lock stays held as we die, so
     * no other thread replaces the trace that has the SIGNAL record. */
    if (pi_write_trylock_signal() && pi_trace_wanted())
        pi_trace_write(si, uc, 1, 1);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    pi_sigaction_real(sig, &dfl, NULL);
    raise(sig); /* pending until the handler returns and unblocks it */
    errno = saved;
}

static int is_ours(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_signal;
}

/* SIG_DFL with no flags, no restorer and no signal in its mask: the
 * kernel's mask is 64 bits, all glibc copies into sa_mask (the rest of
 * the 1024 is whatever the caller had there). */
static int plain_default(const struct sigaction *sa)
{
    uint64_t m;
    memcpy(&m, &sa->sa_mask, sizeof m);
    return !(m | (uint64_t)sa->sa_flags | (uint64_t)(uintptr_t)sa->sa_restorer);
}

/* Ours on every terminating signal left at SIG_DFL.  In a process of one
 * thread (every counted program's start) one sigaction a signal: ours
 * swapped in, and what was there put back where it was not SIG_DFL (a
 * signal ignored across exec), with the signals blocked meanwhile (one
 * that came then waits, and is ignored as it should be); with threads
 * (a dlopen'ed runtime), which the mask would not cover, each looked at
 * before it is set: twice the system calls (106 in all).  A SIG_DFL
 * action of no flags and no mask is what dfl_view's zeros say already:
 * not stored (the array's pages stay untouched). */
void pi_signal_setup(void)
{
    ours.sa_sigaction = on_signal;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigfillset(&ours.sa_mask);
    int alone = __libc_single_threaded, rtmin = SIGRTMIN, rtmax = SIGRTMAX;
    sigset_t saved;
    if (alone)
        pthread_sigmask(SIG_BLOCK, &ours.sa_mask, &saved);
    for (int sig = 1; sig < _NSIG; sig++) {
        struct sigaction old;
        if (!terminates(sig, rtmin, rtmax))
            continue;
        if (alone) {
            if (pi_sigaction_real(sig, &ours, &old))
                continue;
            if (old.sa_handler != SIG_DFL) {
                pi_sigaction_real(sig, &old, NULL);
                continue;
            }
        } else if (pi_sigaction_real(sig, NULL, &old) || old.sa_handler != SIG_DFL ||
                   pi_sigaction_real(sig, &ours, NULL)) {
            continue;
        }
        if (!plain_default(&old))
            dfl_view[sig] = old;
    }
    if (alone)
        pthread_sigmask(SIG_SETMASK, &saved, NULL);
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
}

/* ---- the program's view (interposed) ------------------------------------- */

PI_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE) || sig <= 0 || sig >= _NSIG ||
        !pi_signal_terminates(sig))
        return pi_sigaction_real(sig, act, old);
    /* the default stays ours; anything else is the program's */
    int dfl = act && act->sa_handler == SIG_DFL;
    struct sigaction cur;
    if (pi_sigaction_real(sig, dfl ? &ours : act, &cur))
        return -1;
    if (old)
        *old = is_ours(&cur) ? dfl_view[sig] : cur;
    if (dfl)
        dfl_view[sig] = *act;
    return 0;
}

/* signal(), as glibc's: BSD semantics (restart, the signal blocked in its
 * handler); sysv_signal: one-shot, not restarted, not blocked. */
static sighandler_t set_handler(int sig, sighandler_t h, int flags)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (h == SIG_ERR || sig <= 0 || sig >= _NSIG) {
        errno = EINVAL;
        return SIG_ERR;
    }
    if (!(flags & SA_NODEFER))
        sigaddset(&sa.sa_mask, sig);
    if (pi_own_sigaction(sig, &sa, &old)) /* (ours, not what the lookup gives) */
        return SIG_ERR;
    return old.sa_handler;
}

PI_EXPORT sighandler_t signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESTART);
}

PI_EXPORT sighandler_t bsd_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESTART);
}

PI_EXPORT sighandler_t sysv_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESETHAND | SA_NODEFER);
}

/* What signal() is with -std=c11 (glibc's <signal.h>).  Weak: libc.a
 * defines it strongly, and a static link that pulls that in keeps it. */
PI_EXPORT __attribute__((weak)) sighandler_t __sysv_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESETHAND | SA_NODEFER);
}

/* ---- alternate stacks -------------------------------------------------------- */

/* Give the thread an alternate signal stack, unless it has one already. */
void pi_altstack_enable(struct pi_thread *t)
{
    stack_t cur;
    if (sigaltstack(NULL, &cur) || !(cur.ss_flags & SS_DISABLE))
        return;
    if (!t->altstack) {
        void *p = mmap(NULL, PI_ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (p == MAP_FAILED)
            return;
        t->altstack = p;
    }
    stack_t ss = {.ss_sp = t->altstack, .ss_size = PI_ALTSTACK_SIZE, .ss_flags = 0};
    sigaltstack(&ss, NULL);
}

/* Before the record (and its stack) goes to another thread. */
void pi_altstack_disable(struct pi_thread *t)
{
    stack_t cur;
    if (!t->altstack || sigaltstack(NULL, &cur) || cur.ss_sp != t->altstack ||
        (cur.ss_flags & (SS_DISABLE | SS_ONSTACK)))
        return;
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
}

/* Our own definitions, whatever the lookup scope says (gotpatch.c). */
PI_OWN(sigaction)
PI_OWN(signal)
PI_OWN(bsd_signal)
PI_OWN(sysv_signal)
