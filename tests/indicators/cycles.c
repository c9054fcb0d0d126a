/* cycles(>N): of 20 calls, the 5 that spin ~2 million cycles are counted
 * over a 200000-cycle threshold, the 15 that return at once are not; the
 * CYCLES vector runs for each slow one.  cycles(code=0b001) uses the code
 * table (PERFINST_THRESH_TABLE sets what bit 0 means). */
#include <perfinst.h>
#include <stdio.h>

static int slow_events;
static void on_slow(const struct perfinst_event *ev)
{
    if (ev->kind == PERFINST_EV_CYCLES && ev->value > 200000)
        slow_events++;
}

static volatile long sink;

PERFINST("cycles(>200000)")
__attribute__((noinline)) void maybe_slow(int slow)
{
    if (slow)
        for (long i = 0; i < 1000000; i++)
            sink += i;
}

PERFINST("cycles(code=0b001)")
__attribute__((noinline)) void coded(int slow)
{
    if (slow)
        for (long i = 0; i < 1000000; i++)
            sink += i;
}

int main(void)
{
    perfinst_set_handler(PERFINST_EV_CYCLES, on_slow);
    for (int i = 0; i < 20; i++)
        maybe_slow(i % 4 == 0);
    int before = slow_events;
    for (int i = 0; i < 10; i++)
        coded(i % 5 == 0);
    printf("slow %d, coded %d\n", before, slow_events - before);
    return 0;
}
