/* The buffer-full alert: tick() (one unit) n times; the handler counts the
 * alerts and, with argv[2] = "drain", makes room with perfinst_ri_drain. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma perfinst sample(every=10)
__attribute__((noinline)) int tick(int x) { return x + 1; }

static int full, halted, do_drain;
static void on_alert(int kind, const struct perfinst_ri_controls *c)
{
    (void)c;
    if (kind == PERFINST_RI_ALERT_FULL) {
        full++;
        if (do_drain)
            perfinst_ri_drain();
    } else {
        halted++;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    do_drain = argc > 2 && !strcmp(argv[2], "drain");
    perfinst_ri_set_handler(on_alert);
    volatile int s = 0;
    for (int i = 0; i < n; i++)
        s += tick(i);
    printf("alerts full %d halted %d\n", full, halted);
    return 0;
}
