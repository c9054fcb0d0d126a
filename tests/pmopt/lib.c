/* lib.c — the pmopt tests' fixture, unit B (lib.json). */
#include "markers.h"

int work(int n)
{
    PI_S(0); int s = 0; PI_E(0);
    for (int i = 0; i < n; i++) {
        PI_S(1); s += i; PI_E(1);
    }
    PI_S(2); s *= 2; PI_E(2);
    return s;
}
