/* signal.c — a trace from a process that dies of a signal.
 *
 * For the fatal signals, and for the terminating ones whose disposition is
 * still the default when the runtime starts, the handler writes the trace
 * (with a SIGNAL record), restores the default action and raises the signal
 * again, so the process dies as it would have (core dump, exit status).  It
 * runs on an alternate stack so that a stack overflow still gets its trace,
 * and does only async-signal-safe things: the trace writer reads the unit and
 * thread lists without locks and uses open/write/close, no malloc, no stdio.
 * A program that installed its own handler before us keeps it.
 */
#include "runtime.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const int handled[] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, /* fatal */
    SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGXCPU,                 /* terminating */
};

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* If this thread was writing when the signal came, that trace is lost:
     * die without touching it.  Otherwise the lock stays held as we die, so
     * no other thread replaces the trace that has the SIGNAL record. */
    if (pi_write_trylock_signal() && (PI_LOAD(&pi.nunits) || pi_sample_active()))
        pi_trace_write(si, 1);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* pending until the handler returns and unblocks it */
    errno = saved;
}

void pi_signal_setup(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) {
        struct sigaction old;
        if (sigaction(handled[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            old.sa_handler == SIG_DFL)
            sigaction(handled[i], &sa, NULL);
    }
}

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
