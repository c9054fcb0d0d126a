/* exit-wrap.c — the final trace at _exit and _Exit.
 *
 * A process that ends with _exit (or _Exit) runs no atexit handler and no
 * destructor, so the exit-time writer (core.c, pi_dtor) never runs.  Fork
 * children end so as a rule: Python's multiprocessing ends every child it
 * forks (the fork and forkserver start methods) with os._exit once the
 * child's work is done, and servers' workers and daemons' parents do the
 * same; their counts were lost.  libperfinst.so defines both names: each
 * writes the final trace as the fatal signals' handler does (the write
 * lock only, the counters read through the thread records: _exit is
 * async-signal-safe, and a handler may call it), then ends the process
 * with the system call, as libc's does.
 *
 * Nothing is written in a vfork child (it shares the parent's memory and
 * trace; exec's failure path there is `_exit(127)`), nor once the
 * exit-time trace is out (an atexit handler or a destructor calling
 * _exit).  Only in the shared runtime (runtime/build.mk: libc.a defines
 * the same names), and only for the calls that reach it: a program that
 * links the runtime, or one that has it preloaded, or an uncounted program
 * that dlopen's a counted library (python3 and an extension module), whose
 * imports of _exit are pointed here (gotpatch.c; docs/runtime.md).
 */
#include "runtime.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

static __attribute__((noreturn)) void exit_now(int status)
{
    int e = errno;
    if (getpid() == pi.pid && !PI_LOAD(&pi.exit_written) && pi_trace_wanted() &&
        pi_write_trylock_signal())
        pi_trace_write(NULL, NULL, 1, 1); /* the write lock stays held: nothing after us */
    errno = e;
    for (;;) {
        syscall(SYS_exit_group, status);
        syscall(SYS_exit, status);
    }
}

PI_EXPORT void _exit(int status)
{
    exit_now(status);
}

PI_EXPORT void _Exit(int status)
{
    exit_now(status);
}

/* Our own definitions, whatever the lookup scope says (gotpatch.c). */
PI_OWN(_exit)
PI_OWN(_Exit)
