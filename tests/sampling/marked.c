/* marked.c — `blocking` on a function the runtime cannot know blocks: it
 * waits with a raw futex system call (no libc wrapper to interpose).  The
 * thread waits 3 ms in wait_token() (marked) and 3 ms in wait_other() (not
 * marked) per round: only wait_token's waits are blocking points, so idle
 * stacks are taken there and never in wait_other (tests/sampling/t-blocking.sh).
 *
 *   marked ROUNDS
 */
#include <errno.h>
#include <linux/futex.h>
#include <perfinst.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int word; /* never changes: every wait times out */
static volatile unsigned long sink;

static void futex_sleep_ms(long ms)
{
    struct timespec end, now;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_nsec += ms * 1000000L;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    for (;;) { /* a signal may cut a wait short: wait for the rest */
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = (end.tv_sec - now.tv_sec) * 1000000000L + (end.tv_nsec - now.tv_nsec);
        if (left <= 0)
            return;
        struct timespec ts = {left / 1000000000L, left % 1000000000L};
        syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
    }
}

#pragma perfinst blocking
__attribute__((noinline)) void wait_token(void)
{
    futex_sleep_ms(3);
    sink++;
}

__attribute__((noinline)) void wait_other(void)
{
    futex_sleep_ms(3);
    sink++;
}

static void *worker(void *arg)
{
    int rounds = *(int *)arg;
    for (int i = 0; i < rounds; i++) {
        wait_token();
        wait_other();
    }
    return NULL;
}

/* Marked too: with the static runtime nothing else tells the monitor that
 * main waits (with the shared one the pthread_join wrapper nests inside). */
#pragma perfinst blocking
__attribute__((noinline)) void join_worker(pthread_t th)
{
    pthread_join(th, NULL);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    pthread_t th;
    if (pthread_create(&th, NULL, worker, &rounds))
        return 1;
    join_worker(th);
    printf("%lu\n", sink);
    return 0;
}
