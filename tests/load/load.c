/* load.c — every instrumentation mode at once, in 64 threads and several
 * processes, for t-load.sh.  Each process calls role() a distinct number of
 * times, so that t-load.sh can tell its trace apart:
 *   1 the parent: 64 threads, forks the children while its threads run
 *   2 a child that runs 8 threads and exits
 *   3 a child that counts, then execs this program as role 4 (same pid)
 *   4 the exec'd image: 8 threads, exits
 *   5 a child that runs 8 threads, then waits to be killed by SIGTERM
 *   - a child that execs this program with PERFINST_MODE=off (role "off")
 * `load threads` is the parent's part alone (64 threads, no children).
 * Every thread calls work, trapped, thr, slow and offable ITERS times,
 * updates its own watched word, and runs one trace region around ITERS/100
 * calls of inner.  The program checks what it can see itself (trap handler
 * calls, threshold handler calls, watched words) and prints "ok ROLE". */
#define _GNU_SOURCE
#include <perfinst.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#define ITERS 3000
#define NI __attribute__((noinline))

static volatile long sink;
static long traps, thr_events; /* atomics */

struct slot { long v; char pad[56]; };
struct slot watched[64] PERFINST("watch");

static void on_trap(const struct perfinst_event *ev) { __atomic_fetch_add(&traps, 1, __ATOMIC_RELAXED); }
void on_thr(const struct perfinst_event *ev) { __atomic_fetch_add(&thr_events, 1, __ATOMIC_RELAXED); }

PERFINST("count") NI long role(long x) { return x + 1; }
PERFINST("count") NI long work(long x) { return x * 3 + 1; }
PERFINST("count") NI long inner(long x) { return x ^ 5; }
PERFINST("count") NI long offable(long x) { return x - 1; }
#pragma perfinst trap
NI long trapped(long x) { return x + 2; }
PERFINST("threshold(count=100, handler=on_thr)") NI long thr(long x) { return x * 7; }
PERFINST("cycles(>1000)") NI long slow(long x) { for (int i = 0; i < (x & 15); i++) sink += i; return x; }

static void *body(void *p)
{
    long id = (long)p, s = 0;
    for (long i = 0; i < ITERS; i++) {
        s += work(i) + trapped(i) + thr(i) + slow(i) + offable(i);
        watched[id].v += i;
    }
    #pragma perfinst trace_start
    for (long i = 0; i < ITERS / 100; i++)
        s += inner(i);
    #pragma perfinst trace_stop
    sink += s;
    return NULL;
}

static void run_threads(int n)
{
    pthread_t t[64];
    for (long i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, body, (void *)i)) { perror("pthread_create"); exit(3); }
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

/* What the process can check by itself: handler calls and watched words. */
static void check(const char *name, int nthreads)
{
    long want = (long)nthreads * ITERS;
    if (traps != want || thr_events != want / 100) {
        printf("FAIL %s: %ld traps, %ld threshold events, want %ld and %ld\n", name, traps,
               thr_events, want, want / 100);
        exit(1);
    }
    for (int i = 0; i < nthreads; i++) {
        uint64_t r, w;
        perfinst_data_count(&watched[i].v, &r, &w);
        if (r != ITERS || w != ITERS) {
            printf("FAIL %s: watched[%d] %llu reads %llu writes, want %d\n", name, i,
                   (unsigned long long)r, (unsigned long long)w, ITERS);
            exit(1);
        }
    }
    printf("ok %s\n", name);
    fflush(stdout);
}

static void calls(long n) { for (long i = 0; i < n; i++) role(i); }

int main(int argc, char **argv)
{
    perfinst_set_handler(PERFINST_EV_TRAP, on_trap);
    const char *as = argc > 1 ? argv[1] : "parent";
    if (!strcmp(as, "exec")) {          /* role 4 */
        calls(4);
        run_threads(8);
        check("exec", 8);
        return 0;
    }
    if (!strcmp(as, "off")) {           /* PERFINST_MODE=off: no handler may run */
        run_threads(8);
        if (traps || thr_events) { printf("FAIL off: handlers ran\n"); return 1; }
        printf("ok off\n");
        return 0;
    }
    calls(1);
    if (!strcmp(as, "threads")) {      /* role 1 without the children (under TSan) */
        run_threads(64);
        check("threads", 64);
        return 0;
    }
    pthread_t t[64];
    for (long i = 0; i < 64; i++)
        if (pthread_create(&t[i], NULL, body, (void *)i)) { perror("pthread_create"); return 3; }
    /* the children are forked while the 64 threads run */
    int ready[2];
    if (pipe2(ready, O_CLOEXEC)) return 3;
    pid_t kids[4];
    for (int k = 0; k < 4; k++) {
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 3; }
        if (pid) { kids[k] = pid; continue; }
        traps = thr_events = 0;
        memset(watched, 0, sizeof watched);
        switch (k) {
        case 0:
            calls(2);
            run_threads(8);
            check("fork", 8);
            exit(0);
        case 1:
            calls(3);
            execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
            _exit(4);
        case 2:
            calls(5);
            run_threads(8);
            check("kill", 8);
            if (write(ready[1], "r", 1) != 1) _exit(5);
            for (;;) pause();
        case 3:
            setenv("PERFINST_MODE", "off", 1);
            execl("/proc/self/exe", argv[0], "off", (char *)NULL);
            _exit(4);
        }
    }
    close(ready[1]);
    char c;
    if (read(ready[0], &c, 1) == 1) /* else the child failed and said why */
        kill(kids[2], SIGTERM);
    for (int i = 0; i < 64; i++)
        pthread_join(t[i], NULL);
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        int st;
        waitpid(kids[k], &st, 0);
        int want_signal = k == 2;
        if (want_signal ? !(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) : !(WIFEXITED(st) && !WEXITSTATUS(st))) {
            printf("FAIL child %d: status 0x%x\n", k, st);
            bad = 1;
        }
    }
    check("parent", 64);
    return bad;
}
