/* kinds-handler.c — empty handlers for bench/indicator-cost.sh's trap and
 * cycles variants, installed before main, so that the cost measured is the
 * probe's and the vector's, not a handler's work. */
#include <perfinst.h>

static void empty(const struct perfinst_event *ev)
{
    (void)ev;
}

__attribute__((constructor)) static void install(void)
{
    perfinst_set_handler(PERFINST_EV_TRAP, empty);
    perfinst_set_handler(PERFINST_EV_CYCLES, empty);
}
