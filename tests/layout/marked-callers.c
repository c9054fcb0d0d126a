/* t-marked-callers.sh: a function marked with a directive (counted at
 * cfg, before the early inliner) and a watched variable's helper, both
 * inlined into main, which all=count counts after the early inliner.  The
 * rebuild keeps the directives: main's profile must still match. */
#include <stdio.h>
#include <stdlib.h>

#pragma perfinst watch
long seen; /* (not read in main: main itself holds no watched access) */

#pragma perfinst count
static int classify(int x)
{
    if (x < 0)
        return -1;
    if (x == 0)
        return 0;
    if (x < 10)
        return 1;
    if (x < 100)
        return 2;
    return 3;
}

static inline int note(int x)
{
    seen++;
    return x & 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long t = 0;
    for (int i = -5; i < n; i++)
        t += classify(i) + note(i);
    printf("%ld\n", t);
    return 0;
}
