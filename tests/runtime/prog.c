/* prog.c — an "instrumented" program for the runtime's tests.
 *     prog count N          counter 0 N times, counter 1 once, counter 2 never
 *     prog threads T N      T threads, each counter 0 N times, then returns
 *     prog pexit T N        the same, each thread ending with pthread_exit
 *     prog running N        a thread counts N and is still running at exit
 *     prog fork A B C       A before fork; the child B; the parent C after
 *     prog exec N PATH ARG  N, then execv(PATH, {PATH, ARG})
 *     prog execfail N M     N, a failing execvp, then M
 *     prog vfork N          N, then vfork and execl /bin/true in the child
 *     prog uexit A B C      A before fork; the child B, then _exit(0); the parent
 *                           C after, then _Exit(3)
 *     prog vforkfail N M    N; vfork, a failing execl and _exit(127) in the child;
 *                           M, exit 0
 *     prog segv N | overflow N | abort N | term N   N, then die
 *     prog raise N SIG      N, then raise(SIG); exit 3 if still alive
 *     prog pipe N           N, then print lines until stdout breaks (SIGPIPE)
 *     prog own N SIG        signal(SIG, handler), N, raise: "caught SIG", exit 4
 *     prog ownsa N SIG      the same with sigaction (SA_SIGINFO)
 *     prog ignore N SIG     signal(SIG, SIG_IGN), N, raise, exit 5
 *     prog restore N SIG    signal(SIG, handler) then the old one back, N, raise
 *     prog query SIG        print the action sigaction and signal report (dfl/ign/other)
 *     prog flushkill N PATH N, then wait until the trace PATH was rewritten
 *                           after that (PERFINST_FLUSH: a new file renamed over
 *                           it, so whole), then SIGKILL
 *     prog fill N DIR W     N, W = write: perfinst_write_trace, W = exec: a failing
 *                           exec; N more; DIR/filler written until ENOSPC; exit 0
 *     prog tables N         the indicators' probes: 100 threshold sites reached once
 *                           each (count=2, two executions), N trap sites, trace
 *                           regions nested 10 deep
 *     prog mode N           print the mode, count N, enable, count N, print
 *     prog write N STATUS   N, perfinst_write_trace twice, exit STATUS
 *     prog dlopen LIB K     dlopen, K calls, dlclose; twice; then 1 call in main
 *     prog dlthreads LIB K  dlopen; 2 threads make K calls each and wait while
 *                           main dlcloses; then they exit
 *     prog badabi           also registers a unit with ABI version 99
 * Unit A (0xa11ce) has 3 counters; unit B (0xb0b) 1, counted once per run. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fake-unit.h"

FAKE_UNIT(a, 0xa11ceull, 3)
FAKE_UNIT(b, 0xb0bull, 1)

static long n_iter;
static sem_t ready;

static void count(long n)
{
    for (long i = 0; i < n; i++)
        HIT(a, 0);
}

static void *worker(void *exit_how)
{
    count(n_iter);
    if (exit_how)
        pthread_exit(NULL);
    return NULL;
}

static void *runner(void *p)
{
    count(n_iter);
    sem_post(&ready);
    for (;;)
        pause();
    return NULL;
}

static volatile int depth_sink;
static int (*volatile recurse_p)(int);
static int recurse(int d)
{
    char pad[256];
    memset(pad, d, sizeof pad);
    depth_sink = pad[d % 256];
    return recurse_p(d + 1) + pad[3];
}
static int *volatile null_page = (int *)16;

static pthread_barrier_t barrier;
static void (*lib_work)(long);
static void *lib_worker(void *p)
{
    lib_work((long)p);
    pthread_barrier_wait(&barrier); /* counted */
    pthread_barrier_wait(&barrier); /* main has dlclose'd */
    return NULL;
}

static void on_own(int sig)
{
    char m[] = "caught 00\n";
    m[7] = (char)('0' + sig / 10);
    m[8] = (char)('0' + sig % 10);
    write(1, m, sizeof m - 1);
}
static void on_own_info(int sig, siginfo_t *si, void *uc)
{
    (void)si, (void)uc;
    on_own(sig);
}
static const char *what(void (*h)(int))
{
    return h == SIG_DFL ? "dfl" : h == SIG_IGN ? "ign" : "other";
}

static __thread uint64_t bad_ctr[1];
static uint64_t *bad_tls(void) { return bad_ctr; }
static int bad_mode = 7;
static uint8_t bad_fnon[2] = {1, 1};

int main(int argc, char **argv)
{
    HIT(b, 0);
    const char *cmd = argc > 1 ? argv[1] : "count";
    long n = argc > 2 ? atol(argv[2]) : 0;
    if (!strcmp(cmd, "count")) {
        count(n);
        HIT(a, 1);
    } else if (!strcmp(cmd, "threads") || !strcmp(cmd, "pexit")) {
        int t = (int)n;
        pthread_t th[64];
        n_iter = atol(argv[3]);
        for (int i = 0; i < t; i++)
            if (pthread_create(&th[i], NULL, worker, cmd[0] == 'p' ? (void *)1 : NULL))
                return 10;
        for (int i = 0; i < t; i++)
            pthread_join(th[i], NULL);
    } else if (!strcmp(cmd, "running")) {
        pthread_t th;
        n_iter = n;
        sem_init(&ready, 0, 0);
        pthread_create(&th, NULL, runner, NULL);
        sem_wait(&ready);
        exit(0);
    } else if (!strcmp(cmd, "fork") || !strcmp(cmd, "uexit")) {
        int u = !strcmp(cmd, "uexit");
        count(n);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            count(atol(argv[3]));
            printf("child %d\n", (int)getpid());
            fflush(stdout);
            if (u)
                _exit(0);
            exit(0);
        }
        int st;
        waitpid(pid, &st, 0);
        count(atol(argv[4]));
        printf("parent %d\n", (int)getpid());
        fflush(stdout);
        if (u)
            _Exit(3);
    } else if (!strcmp(cmd, "vfork") || !strcmp(cmd, "vforkfail")) {
        int fails = !strcmp(cmd, "vforkfail");
        count(n);
        pid_t pid = vfork();
        if (pid == 0) {
            execl(fails ? "/no-such-program-perfinst" : "/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        int st;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != (fails ? 127 : 0))
            return 16;
        if (fails)
            count(atol(argv[3]));
    } else if (!strcmp(cmd, "exec")) {
        count(n);
        char *args[] = {argv[3], argv[4], NULL};
        execv(argv[3], args);
        return 12;
    } else if (!strcmp(cmd, "execfail")) {
        count(n);
        char *args[] = {"no-such-program-perfinst", NULL};
        if (execvp(args[0], args) == 0)
            return 13;
        count(atol(argv[3]));
    } else if (!strcmp(cmd, "segv")) {
        count(n);
        *null_page = 1;
    } else if (!strcmp(cmd, "overflow")) {
        count(n);
        recurse_p = recurse;
        return recurse(0);
    } else if (!strcmp(cmd, "abort")) {
        count(n);
        abort();
    } else if (!strcmp(cmd, "term")) {
        count(n);
        kill(getpid(), SIGTERM);
        sleep(1);
        return 14;
    } else if (!strcmp(cmd, "raise")) {
        count(n);
        raise(atoi(argv[3]));
        return 3;
    } else if (!strcmp(cmd, "pipe")) {
        count(n);
        for (long i = 0;; i++)
            printf("line %ld\n", i);
    } else if (!strcmp(cmd, "own") || !strcmp(cmd, "ignore") || !strcmp(cmd, "restore")) {
        int sig = atoi(argv[3]);
        void (*old)(int) = signal(sig, cmd[0] == 'i' ? SIG_IGN : on_own);
        if (old != SIG_DFL)
            return 20;
        if (cmd[0] == 'r' && signal(sig, old) != on_own)
            return 21;
        count(n);
        raise(sig);
        fflush(stdout);
        return cmd[0] == 'i' ? 5 : 4;
    } else if (!strcmp(cmd, "ownsa")) {
        int sig = atoi(argv[3]);
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_own_info;
        sa.sa_flags = SA_SIGINFO;
        if (sigaction(sig, &sa, &old) || old.sa_handler != SIG_DFL)
            return 20;
        count(n);
        raise(sig);
        return 4;
    } else if (!strcmp(cmd, "query")) {
        int sig = (int)n;
        struct sigaction cur;
        if (sigaction(sig, NULL, &cur))
            return 20;
        printf("sigaction: %s", (cur.sa_flags & SA_SIGINFO) ? "other" : what(cur.sa_handler));
        void (*h)(int) = signal(sig, SIG_IGN);
        printf(" signal: %s", what(h));
        h = signal(sig, h);
        printf(" then: %s\n", what(h));
    } else if (!strcmp(cmd, "flushkill")) {
        count(n);
        /* Every flush is a whole file given its name at once: wait for one
         * written after the count (a flush's time is the kernel's coarse
         * clock, which can lag: a flush that reads as before is waited past). */
        struct timespec done;
        clock_gettime(CLOCK_REALTIME, &done);
        for (;;) {
            struct stat st;
            if (!stat(argv[3], &st) && (st.st_mtim.tv_sec > done.tv_sec ||
                                        (st.st_mtim.tv_sec == done.tv_sec && st.st_mtim.tv_nsec > done.tv_nsec)))
                break;
            usleep(20000);
        }
        raise(SIGKILL);
    } else if (!strcmp(cmd, "fill")) {
        count(n);
        if (!strcmp(argv[4], "write")) {
            if (perfinst_write_trace())
                return 30;
        } else {
            char *args[] = {"no-such-program-perfinst", NULL};
            execvp(args[0], args);
        }
        count(n);
        char path[4096], buf[4096] = {0};
        snprintf(path, sizeof path, "%s/filler", argv[3]);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            return 31;
        while (write(fd, buf, sizeof buf) > 0)
            ;
        if (errno != ENOSPC)
            return 32;
        close(fd);
    } else if (!strcmp(cmd, "tables")) {
        for (uint32_t s = 0; s < 100; s++)
            for (int k = 0; k < 2; k++)
                __perfinst_threshold(0xa11ceull, s, 2, NULL);
        for (uint32_t s = 0; s < (uint32_t)n; s++)
            __perfinst_trap(0xa11ceull, 1000 + s);
        for (uint32_t d = 0; d < 10; d++)
            __perfinst_trace_start(0xa11ceull, 5000 + d);
        for (uint32_t d = 10; d-- > 0;)
            __perfinst_trace_stop(0xa11ceull, 5000 + d);
    } else if (!strcmp(cmd, "mode")) {
        printf("before: mode=%d word=%d\n", perfinst_mode(), a_mode);
        count(n);
        perfinst_enable();
        printf("enabled: mode=%d word=%d\n", perfinst_mode(), a_mode);
        count(n);
        perfinst_disable();
        printf("disabled: mode=%d word=%d\n", perfinst_mode(), a_mode);
        count(n);
    } else if (!strcmp(cmd, "write")) {
        count(n);
        if (perfinst_write_trace())
            printf("write failed\n");
        count(n);
        if (perfinst_write_trace())
            printf("write failed\n");
        count(n);
        return atoi(argv[3]);
    } else if (!strcmp(cmd, "dlopen")) {
        long k = atol(argv[3]);
        for (int round = 0; round < 2; round++) {
            void *h = dlopen(argv[2], RTLD_NOW);
            if (!h) {
                fprintf(stderr, "%s\n", dlerror());
                return 15;
            }
            void (*work)(long) = (void (*)(long))dlsym(h, "lib_work");
            for (long i = 0; i < k; i++)
                work(1);
            dlclose(h);
        }
        count(1);
    } else if (!strcmp(cmd, "dlthreads")) {
        void *h = dlopen(argv[2], RTLD_NOW);
        if (!h)
            return 15;
        lib_work = (void (*)(long))dlsym(h, "lib_work");
        pthread_t th[2];
        pthread_barrier_init(&barrier, NULL, 3);
        for (int i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, lib_worker, (void *)atol(argv[3]));
        pthread_barrier_wait(&barrier);
        dlclose(h);
        pthread_barrier_wait(&barrier);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
    } else if (!strcmp(cmd, "badabi")) {
        __perfinst_register_unit(99, 0xbad, 1, bad_tls, &bad_mode);
        __perfinst_register_unit(98, 0xbad2, 1, bad_tls, &bad_mode);
        /* (the one call of a unit of this plugin's: its functions count nothing) */
        __perfinst_register_unit2(97, 0xbad3, 1, bad_tls, &bad_mode, bad_fnon, 2, NULL, NULL);
        printf("bad mode word %d\n", bad_mode);
        printf("bad switches %d %d\n", bad_fnon[0], bad_fnon[1]);
        count(n);
    } else {
        return 2;
    }
    return 0;
}
