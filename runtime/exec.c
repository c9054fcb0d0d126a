/* exec.c — write the trace before exec replaces the process image.
 *
 * execve, execv, execvp, execvpe and fexecve are interposed and call the
 * next definition (libc's) after writing the trace; execl, execlp and execle
 * are built over them.  That trace is final (PI_TF_PARTIAL clear); if exec
 * fails, counting goes on, the trace is marked partial in place and the
 * next write replaces it with a fuller one.  posix_spawn, system and popen start
 * a new process instead of replacing this one, so they need nothing.
 */
#include "runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The trace before exec is final: the image ends.  If exec fails the
 * process goes on counting, and that trace is marked partial until the
 * next write replaces it. */
static void before_exec(void)
{
    int e = errno;
    pi_init();
    /* Not in a vfork child: it shares the parent's memory and trace. */
    if (pi_trace_wanted() && getpid() == pi.pid)
        pi_trace_write_now(1);
    errno = e;
}

static int exec_failed(int r)
{
    int e = errno;
    if (getpid() == pi.pid)
        pi_trace_mark_partial();
    errno = e;
    return r;
}

extern char **environ;
extern int __execvpe(const char *, char *const[], char *const[]) __attribute__((weak));

/* A fully static program (libc.a) has no RTLD_NEXT: these do the same as
 * libc's functions with the system call itself, or with libc.a's own name
 * when the link pulled it in (-Wl,-u,__execvpe; docs/runtime.md). */
static int sys_execve(const char *path, char *const argv[], char *const envp[])
{
    return (int)syscall(SYS_execve, path, argv, envp);
}

static int sys_execv(const char *path, char *const argv[])
{
    return sys_execve(path, argv, environ);
}

static int static_execvp(const char *file, char *const argv[])
{
    return __execvpe(file, argv, environ);
}

static int sys_fexecve(int fd, char *const argv[], char *const envp[])
{
    return (int)syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
}

/* libc's definition of NAME (or what the program's lookup gave, when
 * gotpatch.c redirected its imports to ours), found once. */
#define NEXT(name, type, fallback)                                                         \
    static type next_;                                                                     \
    type real = __atomic_load_n(&next_, __ATOMIC_RELAXED);                                 \
    if (!real) {                                                                           \
        real = (type)pi_imports_next(#name);                                               \
        if (!real)                                                                         \
            real = (type)dlsym(RTLD_NEXT, #name);                                          \
        if (!real)                                                                         \
            real = (fallback);                                                             \
        if (!real) {                                                                       \
            errno = ENOSYS;                                                                \
            return -1;                                                                     \
        }                                                                                  \
        __atomic_store_n(&next_, real, __ATOMIC_RELAXED);                                  \
    }

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);

PI_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    NEXT(execve, execve_fn, sys_execve);
    before_exec();
    return exec_failed(real(path, argv, envp));
}

PI_EXPORT int execv(const char *path, char *const argv[])
{
    NEXT(execv, execv_fn, sys_execv);
    before_exec();
    return exec_failed(real(path, argv));
}

PI_EXPORT int execvp(const char *file, char *const argv[])
{
    NEXT(execvp, execv_fn, __execvpe ? static_execvp : NULL);
    before_exec();
    return exec_failed(real(file, argv));
}

PI_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    NEXT(execvpe, execve_fn, __execvpe);
    before_exec();
    return exec_failed(real(file, argv, envp));
}

PI_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    NEXT(fexecve, fexecve_fn, sys_fexecve);
    before_exec();
    return exec_failed(real(fd, argv, envp));
}

/* execl*: collect the variadic arguments into an argv (and envp for execle). */
#define COLLECT_ARGS(arg, ap, argv, extra)                                                 \
    size_t n_ = 1;                                                                         \
    va_start(ap, arg);                                                                     \
    while (va_arg(ap, const char *))                                                       \
        n_++;                                                                              \
    va_end(ap);                                                                            \
    char *argv[n_ + 1];                                                                    \
    va_start(ap, arg);                                                                     \
    argv[0] = (char *)arg;                                                                 \
    for (size_t i_ = 1; i_ <= n_; i_++)                                                    \
        argv[i_] = va_arg(ap, char *);                                                     \
    extra;                                                                                 \
    va_end(ap)

PI_EXPORT int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    COLLECT_ARGS(arg, ap, argv, (void)0);
    return pi_own_execv(path, argv);
}

PI_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    COLLECT_ARGS(arg, ap, argv, (void)0);
    return pi_own_execvp(file, argv);
}

PI_EXPORT int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    char **envp;
    COLLECT_ARGS(arg, ap, argv, envp = va_arg(ap, char **));
    return pi_own_execve(path, argv, envp);
}

/* Our own definitions, whatever the lookup scope says (gotpatch.c points
 * other modules' imports at them; execl* call them). */
PI_OWN(execve)
PI_OWN(execv)
PI_OWN(execvp)
PI_OWN(execvpe)
PI_OWN(fexecve)
PI_OWN(execl)
PI_OWN(execlp)
PI_OWN(execle)
