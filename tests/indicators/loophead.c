/* A function whose body starts with a loop head: its entry site, its trap
 * and its entry count run once per call (3), not once per iteration (30). */
#include <perfinst.h>
#include <stdio.h>
static int traps;
static void on_trap(const struct perfinst_event *ev) { traps++; }
PERFINST("count", "trap")
__attribute__((noinline)) void spin(volatile int *n)
{
    do { (*n)--; } while (*n > 0);   /* the body starts with a loop head */
}
int main(void)
{
    perfinst_set_handler(PERFINST_EV_TRAP, on_trap);
    for (int i = 0; i < 3; i++) { volatile int n = 10; spin(&n); }
    printf("traps %d\n", traps);
    return 0;
}
