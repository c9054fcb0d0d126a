/* progress.c — one line of progress on stderr for long pmopt operations
 * (reading many traces, a big program's debug info), only when stderr is a
 * terminal: a file or a pipe gets nothing.  The line is redrawn at most ten
 * times a second and erased before any message (pm_error, pm_note) and when
 * the operation ends, so that it never mixes with real output. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "pmopt.h"

static int tty = -1;        /* isatty(2), asked once */
static int shown;           /* a progress line is on the screen */
static double last;         /* when it was drawn */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pm_progress(const char *what, size_t done, size_t total)
{
    if (tty < 0)
        tty = isatty(2);
    if (!tty)
        return;
    double t = now();
    if (shown && t - last < 0.1 && done + 1 < total)
        return;
    if (total)
        fprintf(stderr, "\rpmopt: %s %zu/%zu (%zu%%)\033[K", what, done, total,
                done * 100 / total);
    else
        fprintf(stderr, "\rpmopt: %s…\033[K", what);
    fflush(stderr);
    shown = 1;
    last = t;
}

void pm_progress_clear(void)
{
    if (!shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    shown = 0;
}
