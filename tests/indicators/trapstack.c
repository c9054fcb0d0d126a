/* trap on T, called 5 times through main → U → T: the TRAP vector's handler
 * gets frames[0] = pc only (nframes 1) and asks for the callers with
 * perfinst_event_stack(), which names T < U < main; asking twice gives the
 * same stack. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <perfinst.h>
#include <stdio.h>
#include <string.h>

static int traps, lazy, same;
static char stack[128];

#include "pcname.h"

static void on_trap(const struct perfinst_event *ev)
{
    traps++;
    if (ev->nframes == 1 && ev->frames[0] == ev->pc)
        lazy++;
    int n = perfinst_event_stack(ev);
    if (perfinst_event_stack(ev) == n && n == ev->nframes)
        same++;
    snprintf(stack, sizeof stack, "%d %s<%s<%s", n > 3 ? 3 : n, n > 0 ? sym(ev->frames[0]) : "-",
             n > 1 ? sym(ev->frames[1]) : "-", n > 2 ? sym(ev->frames[2]) : "-");
}

#pragma perfinst trap
__attribute__((noinline)) int T(int x) { return x + 3; }
__attribute__((noinline)) int U(int x) { return T(x) * 2; }

int main(void)
{
    perfinst_set_handler(PERFINST_EV_TRAP, on_trap);
    long s = 0;
    for (int i = 0; i < 5; i++)
        s += U(i);
    printf("traps %d, lazy %d, same %d, sum %ld\n", traps, lazy, same, s);
    printf("stack %s\n", stack);
    return 0;
}
