/* threshold(count=13) on C, called through A → B → C 40 times: the handler
 * runs on executions 13, 26 and 39 and sees B then A as C's callers.
 * trap on T, called 7 times: the TRAP vector runs 7 times inside T. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <perfinst.h>
#include <stdio.h>
#include <string.h>

static int events, traps;
static char callers[3][64];
static int iteration, fired_at[3]; /* main's execution of C, and the ones the events came at */

#include "pcname.h"

void on_hot(const struct perfinst_event *ev)
{
    if (events < 3)
        snprintf(callers[events], sizeof callers[0], "%s<%s<%s<%s",
                 ev->nframes > 0 ? sym(ev->frames[0]) : "-", ev->nframes > 1 ? sym(ev->frames[1]) : "-",
                 ev->nframes > 2 ? sym(ev->frames[2]) : "-", ev->nframes > 3 ? sym(ev->frames[3]) : "-");
    if (events < 3)
        fired_at[events] = iteration;
    events++;
}

static void on_trap(const struct perfinst_event *ev)
{
    if (ev->kind == PERFINST_EV_TRAP && strcmp(sym(ev->pc), "T") == 0)
        traps++;
}

PERFINST("threshold(count=13, handler=on_hot)")
__attribute__((noinline)) int C(int x) { return x * 2; }
__attribute__((noinline)) int B(int x) { return C(x) + 1; }
__attribute__((noinline)) int A(int x) { return B(x) + 1; }

#pragma perfinst trap
__attribute__((noinline)) int T(int x) { return x + 3; }

int main(void)
{
    perfinst_set_handler(PERFINST_EV_TRAP, on_trap);
    long s = 0;
    for (int i = 0; i < 40; i++) {
        iteration = i + 1;
        s += A(i);
    }
    for (int i = 0; i < 7; i++)
        s += T(i);
    printf("events %d, traps %d, sum %ld\n", events, traps, s);
    for (int i = 0; i < 3 && i < events; i++)
        printf("event %d: %s\n", i + 1, callers[i]);
    printf("fired at executions");
    for (int i = 0; i < 3 && i < events; i++)
        printf(" %d", fired_at[i]);
    printf("\n");
    return 0;
}
