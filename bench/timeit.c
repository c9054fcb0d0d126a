/* timeit.c — run a command, report its wall and CPU time.
 *
 *     timeit OUTFILE COMMAND [ARGS...]
 *
 * Runs COMMAND (stdin, stdout and stderr inherited), then writes one line to
 * OUTFILE (appending):
 *
 *     wall=S user=S sys=S cpu=S maxrss_kb=N status=N
 *
 * wall is CLOCK_MONOTONIC around fork..wait; user/sys come from wait4()'s
 * rusage of that child (and its waited-for descendants: gcc's cc1 and as).
 * Exits with the command's exit status (128+signal if it was killed).
 * Used by bench/count-overhead.sh; GNU time's 10 ms resolution and its
 * absence from minimal machines are why it exists.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec * 1e-6; }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: timeit OUTFILE COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("timeit: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "timeit: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            perror("timeit: wait4");
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

    FILE *f = fopen(argv[1], "a");
    if (!f) {
        fprintf(stderr, "timeit: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    fprintf(f, "wall=%.6f user=%.6f sys=%.6f cpu=%.6f maxrss_kb=%ld status=%d\n", wall,
            tv(ru.ru_utime), tv(ru.ru_stime), tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_maxrss,
            rc);
    fclose(f);
    return rc;
}
