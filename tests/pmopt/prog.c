/* prog.c — the pmopt tests' fixture program, unit A (prog.json). */
#include <stdio.h>
#include <stdlib.h>
#include "markers.h"

int work(int n);

static int classify(int x)
{
    PI_S(0); int r = 0; PI_E(0);
    if (x % 3 == 0) {
        PI_S(1); r = 1; PI_E(1);
    }
    PI_S(2); r += x & 1; PI_E(2);
    return r;
}

int main(int argc, char **argv)
{
    PI_S(3); int n = argc > 1 ? atoi(argv[1]) : 10; PI_E(3);
    int hits = 0;
    for (int i = 0; i < n; i++) { PI_S(4); hits += classify(i); PI_E(4); }
    PI_S(8); hits++; PI_E(8);
    PI_S(5); printf("%d %d\n", hits, work(n)); PI_E(5);
    PI_S(9); fflush(stdout); PI_E(9);
    return 0;
}
