/* A join block with no statement of its own (the switch's `break`s meet
 * there before a loop), whose first predecessor ends, under -g, in a debug
 * bind: its line must not depend on -g (t-late.sh; sqlite3.c's sqlite3_config). */
#include <stdio.h>
#include <stdlib.h>

static int cfg_a, cfg_b, cfg_c;

__attribute__((noinline)) static int config(int op, int v)
{
    int rc = 0, before = cfg_a;
    switch (op) {
    case 1:
        cfg_a = v;
        before = cfg_b;
        break;
    case 2:
        cfg_b = v * 3;
        before = cfg_c;
        break;
    case 3:
        cfg_c = v + 7;
        before = v;
        break;
    default:
        rc = 1;
        break;
    }
    for (int i = 0; i < (v & 3); i++)
        rc += before;
    return rc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
    for (int i = 0; i < n; i++)
        s += config(i % 5, i);
    printf("%d %d %d %d\n", s, cfg_a, cfg_b, cfg_c);
    return 0;
}
